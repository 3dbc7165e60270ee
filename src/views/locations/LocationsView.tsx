import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  LoadingOverlay,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { locationGroupCreateMachine } from '../../machines/location-group-create.machine.js';
import type { locationsAdminMachine } from '../../machines/locations-admin.machine.js';
import { displayLocationName, type LocationRoi } from '../../schemas/locations.js';
import { GroupDialog } from './GroupDialog.js';
import { LocationDialogs } from './LocationDialogs.js';
import { formatMoney, problemMessage } from './messages.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { formatCount } from '../../format/index.js';

type AdminActor = ActorRefFrom<typeof locationsAdminMachine>;
type GroupActor = ActorRefFrom<typeof locationGroupCreateMachine>;

type RoiRow = LocationRoi['results'][number];

/**
 * /locations: the period, every location with its groups and ROI (revenue, checks, guests, returning
 * guests, average check), and the location groups. Owners and admins add, edit and delete.
 */
export function LocationsView({
  actor,
  groupActor,
  canManage,
  timeZones,
}: {
  actor: AdminActor;
  groupActor: GroupActor;
  /** Owners and admins; the server refuses changes from other roles, so the buttons are hidden. */
  canManage: boolean;
  timeZones: readonly string[];
}) {
  const { t, i18n } = useTranslation();
  const busy = useSelector(actor, (state) => state.matches('listing') && state.hasTag('busy'));
  const failed = useSelector(actor, (state) => state.matches({ listing: 'failed' }));
  const browsing = useSelector(actor, (state) => state.matches({ listing: 'browsing' }));
  const overview = useSelector(actor, (state) => state.context.overview);
  const range = useSelector(actor, (state) => state.context.range);
  const problem = useSelector(actor, (state) => (state.matches('listing') ? state.context.problem : null));
  const notice = useSelector(actor, (state) => state.context.notice);
  const language = i18n.language;

  const roiBy = new Map<number, RoiRow>((overview?.roi.results ?? []).map((row) => [row.location_id, row]));
  const groupName = new Map((overview?.groups ?? []).map((group) => [group.id, group.name]));
  const locationName = new Map(
    (overview?.locations ?? []).map((location) => [location.id, displayLocationName(location)]),
  );
  const money = (amount: number | null | undefined) => formatMoney(amount ?? 0, language);
  const count = (value: number | null | undefined) => formatCount(value ?? 0, language);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>{t('locations.page.title')}</Title>
        <Text c="dimmed">{t('locations.page.intro')}</Text>
      </Stack>
      {notice && (
        <Alert color="green" withCloseButton onClose={() => actor.send({ type: 'notice.dismiss' })}>
          {t(`locations.notices.${notice}`)}
        </Alert>
      )}
      {!canManage && (
        <Text size="sm" c="dimmed">
          {t('locations.page.readOnly')}
        </Text>
      )}
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          type="date"
          label={t('locations.page.from')}
          value={range.from_date}
          max={range.to_date}
          onChange={(event) =>
            event.currentTarget.value &&
            actor.send({ type: 'range.change', range: { ...range, from_date: event.currentTarget.value } })
          }
          w={170}
        />
        <TextInput
          type="date"
          label={t('locations.page.to')}
          value={range.to_date}
          min={range.from_date}
          onChange={(event) =>
            event.currentTarget.value &&
            actor.send({ type: 'range.change', range: { ...range, to_date: event.currentTarget.value } })
          }
          w={170}
        />
      </Group>
      {failed && (
        <LoadFailedAlert
          title={t('locations.page.loadFailed')}
          message={problemMessage(t, problem)}
          retryLabel={t('locations.actions.retry')}
          onRetry={() => actor.send({ type: 'list.retry' })}
        />
      )}

      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3}>{t('locations.page.locationsTitle')}</Title>
          {canManage && (
            <Button onClick={() => actor.send({ type: 'location.add' })} disabled={!browsing}>
              {t('locations.page.addLocation')}
            </Button>
          )}
        </Group>
        <Box pos="relative" mih={80}>
          <LoadingOverlay visible={busy} />
          {overview && overview.locations.length === 0 && (
            <Text c="dimmed" ta="center" py="lg">
              {t('locations.page.empty')}
            </Text>
          )}
          {overview && overview.locations.length > 0 && (
            <Table.ScrollContainer minWidth={880}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('locations.page.location')}</Table.Th>
                    <Table.Th>{t('locations.page.groups')}</Table.Th>
                    <Table.Th ta="right">{t('locations.page.revenue')}</Table.Th>
                    <Table.Th ta="right">{t('locations.page.checks')}</Table.Th>
                    <Table.Th ta="right">{t('locations.page.guests')}</Table.Th>
                    <Table.Th ta="right">{t('locations.page.returning')}</Table.Th>
                    <Table.Th ta="right">{t('locations.page.averageCheck')}</Table.Th>
                    {canManage && <Table.Th>{t('locations.actions.column')}</Table.Th>}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {overview.locations.map((location) => {
                    const roi = roiBy.get(location.id);
                    return (
                      <Table.Tr key={location.id}>
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {displayLocationName(location)}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {[location.street, location.city, location.state].filter(Boolean).join(', ')}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4}>
                            {location.group_ids.length === 0 ? (
                              <Text size="xs" c="dimmed">
                                {t('locations.page.noGroup')}
                              </Text>
                            ) : (
                              location.group_ids.map((id) => (
                                <Badge key={id} variant="light" size="sm">
                                  {groupName.get(id) ?? id}
                                </Badge>
                              ))
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td ta="right">{money(roi?.revenue)}</Table.Td>
                        <Table.Td ta="right">{count(roi?.checks)}</Table.Td>
                        <Table.Td ta="right">{count(roi?.guests)}</Table.Td>
                        <Table.Td ta="right">{count(roi?.returning_guests)}</Table.Td>
                        <Table.Td ta="right">{money(roi?.average_check)}</Table.Td>
                        {canManage && (
                          <Table.Td>
                            <Group gap="xs" wrap="nowrap">
                              <Button
                                size="xs"
                                variant="light"
                                disabled={!browsing}
                                onClick={() => actor.send({ type: 'location.edit', location })}
                              >
                                {t('locations.actions.edit')}
                              </Button>
                              <Button
                                size="xs"
                                variant="light"
                                color="red"
                                disabled={!browsing}
                                onClick={() => actor.send({ type: 'location.delete', location })}
                              >
                                {t('locations.actions.delete')}
                              </Button>
                            </Group>
                          </Table.Td>
                        )}
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Box>
      </Stack>

      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3}>{t('locations.page.groupsTitle')}</Title>
          {canManage && (
            <Button
              variant="light"
              onClick={() => groupActor.send({ type: 'dialog.open' })}
              disabled={!browsing}
            >
              {t('locations.page.addGroup')}
            </Button>
          )}
        </Group>
        {overview && overview.groups.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            {t('locations.page.groupsEmpty')}
          </Text>
        )}
        {overview && overview.groups.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('locations.fields.name')}</Table.Th>
                  <Table.Th>{t('locations.page.members')}</Table.Th>
                  <Table.Th ta="right">{t('locations.page.revenue')}</Table.Th>
                  <Table.Th ta="right">{t('locations.page.checks')}</Table.Th>
                  {canManage && <Table.Th>{t('locations.actions.column')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {overview.groups.map((group) => (
                  <Table.Tr key={group.id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {group.name}
                      </Text>
                      {group.description && (
                        <Text size="xs" c="dimmed">
                          {group.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {group.location_ids.map((id) => locationName.get(id) ?? id).join(', ') || '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">{money(group.revenue)}</Table.Td>
                    <Table.Td ta="right">{count(group.checks)}</Table.Td>
                    {canManage && (
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button
                            size="xs"
                            variant="light"
                            disabled={!browsing}
                            onClick={() => groupActor.send({ type: 'dialog.open', group })}
                          >
                            {t('locations.actions.edit')}
                          </Button>
                          <Button
                            size="xs"
                            variant="light"
                            color="red"
                            disabled={!browsing}
                            onClick={() => actor.send({ type: 'group.delete', group })}
                          >
                            {t('locations.actions.delete')}
                          </Button>
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <LocationDialogs actor={actor} timeZones={timeZones} />
      <GroupDialog actor={groupActor} locations={overview?.locations ?? []} />
    </Stack>
  );
}
