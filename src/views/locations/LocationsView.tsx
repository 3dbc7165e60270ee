import { Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../shared/problem-message.js';
import type { ActorRefFrom } from 'xstate';
import type { ListNotice } from '../../machines/kit/list-machine.js';
import type { locationGroupCreateMachine } from '../../machines/location-group-create.machine.js';
import type { DateRange } from '../../machines/locations-admin.machine.js';
import { displayLocationName, type LocationGroup } from '../../schemas/locations.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { MUTED_TEXT } from '../shell/contrast.js';
import { RowActions } from '../kit/RowActions.js';
import { useListView } from '../kit/useListView.js';
import { GroupDialog } from './GroupDialog.js';
import { LocationDialogs, type LocationsActor } from './LocationDialogs.js';
import { formatMoney } from './messages.js';
import { formatCount } from '../../format/index.js';

type GroupsActor = ListActor<LocationGroup>;
type GroupActor = ActorRefFrom<typeof locationGroupCreateMachine>;

/** The locations list's notices in the screen's own words. */
export const LOCATION_NOTICES: Partial<Record<ListNotice, string>> = {
  created: 'locations.notices.locationCreated',
  updated: 'locations.notices.locationUpdated',
  deleted: 'locations.notices.locationDeleted',
};
const GROUP_NOTICES: Partial<Record<ListNotice, string>> = {
  created: 'locations.notices.groupCreated',
  updated: 'locations.notices.groupUpdated',
  deleted: 'locations.notices.groupDeleted',
};

/** The message key of a list's notice, or null for none. */
export function noticeKey(notices: Partial<Record<ListNotice, string>>, notice: ListNotice | null) {
  return (notice && notices[notice]) ?? null;
}

/**
 * /locations: the period, every location with its groups and ROI (revenue, checks, guests, returning
 * guests, average check), and the location groups with their revenue. Owners and admins add, edit and
 * delete. Two kit lists: the locations and the groups; the group dialog is its own machine.
 */
export function LocationsView({
  actor,
  groupsActor,
  groupActor,
  range,
  onRangeChange,
  canManage,
  timeZones,
}: {
  actor: LocationsActor;
  groupsActor: GroupsActor;
  groupActor: GroupActor;
  /** The period the revenue covers. */
  range: DateRange;
  onRangeChange: (range: DateRange) => void;
  /** Owners and admins; the server refuses changes from other roles, so the buttons are hidden. */
  canManage: boolean;
  timeZones: readonly string[];
}) {
  const { t, i18n } = useTranslation();
  const locationsView = useListView(actor);
  const groupsView = useListView(groupsActor);
  const locations = locationsView.items ?? [];
  const groups = groupsView.items ?? [];
  const language = i18n.language;

  const groupName = new Map(groups.map((group) => [group.id, group.name]));
  const locationName = new Map(locations.map((location) => [location.id, displayLocationName(location)]));
  const money = (amount: number | null | undefined) => formatMoney(amount ?? 0, language);
  const count = (value: number | null | undefined) => formatCount(value ?? 0, language);
  const locationNotice = noticeKey(LOCATION_NOTICES, locationsView.notice);
  const groupNotice = noticeKey(GROUP_NOTICES, groupsView.notice);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>{t('locations.page.title')}</Title>
        <Text c="dimmed">{t('locations.page.intro')}</Text>
      </Stack>
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
          onChange={(event) => onRangeChange({ ...range, from_date: event.currentTarget.value })}
          w={170}
        />
        <TextInput
          type="date"
          label={t('locations.page.to')}
          value={range.to_date}
          min={range.from_date}
          onChange={(event) => onRangeChange({ ...range, to_date: event.currentTarget.value })}
          w={170}
        />
      </Group>

      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3}>{t('locations.page.locationsTitle')}</Title>
          {canManage && (
            <Button onClick={() => actor.send({ type: 'item.add' })} disabled={!locationsView.browsing}>
              {t('locations.page.addLocation')}
            </Button>
          )}
        </Group>
        <ListFrame
          actor={actor}
          texts={{
            empty: t('locations.page.empty'),
            loadFailed: t('locations.page.loadFailed'),
            problem: problemMessage(t, 'locations', locationsView.listProblem),
            notice: locationNotice && t(locationNotice),
          }}
        >
          {(rows, browsing) => (
            <ListTable
              items={rows}
              rowKey={(location) => location.id}
              label={t('locations.page.locationsTitle')}
              minWidth={880}
              columns={[
                {
                  key: 'location',
                  header: t('locations.page.location'),
                  primary: true,
                  cell: (location) => (
                    <>
                      <Text size="sm" fw={500}>
                        {displayLocationName(location)}
                      </Text>
                      <Text size="xs" c={MUTED_TEXT}>
                        {[location.street, location.city, location.state].filter(Boolean).join(', ')}
                      </Text>
                    </>
                  ),
                },
                {
                  key: 'groups',
                  header: t('locations.page.groups'),
                  cell: (location) => (
                    <Group gap={4}>
                      {location.group_ids.length === 0 ? (
                        <Text size="xs" c={MUTED_TEXT}>
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
                  ),
                },
                {
                  key: 'revenue',
                  header: t('locations.page.revenue'),
                  align: 'right',
                  cell: (location) => money(location.roi?.revenue),
                },
                {
                  key: 'checks',
                  header: t('locations.page.checks'),
                  align: 'right',
                  cell: (location) => count(location.roi?.checks),
                },
                {
                  key: 'guests',
                  header: t('locations.page.guests'),
                  align: 'right',
                  cell: (location) => count(location.roi?.guests),
                },
                {
                  key: 'returning',
                  header: t('locations.page.returning'),
                  align: 'right',
                  cell: (location) => count(location.roi?.returning_guests),
                },
                {
                  key: 'average',
                  header: t('locations.page.averageCheck'),
                  align: 'right',
                  cell: (location) => money(location.roi?.average_check),
                },
              ]}
              actions={
                canManage
                  ? (location) => (
                      <RowActions
                        actor={actor}
                        item={location}
                        enabled={browsing}
                        label={displayLocationName(location)}
                      />
                    )
                  : undefined
              }
            />
          )}
        </ListFrame>
      </Stack>

      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3}>{t('locations.page.groupsTitle')}</Title>
          {canManage && (
            <Button
              variant="light"
              onClick={() => groupActor.send({ type: 'dialog.open' })}
              disabled={!groupsView.browsing}
            >
              {t('locations.page.addGroup')}
            </Button>
          )}
        </Group>
        <ListFrame
          actor={groupsActor}
          texts={{
            empty: t('locations.page.groupsEmpty'),
            loadFailed: t('locations.page.loadFailed'),
            problem: problemMessage(t, 'locations', groupsView.listProblem),
            notice: groupNotice && t(groupNotice),
          }}
        >
          {(rows, browsing) => (
            <ListTable
              items={rows}
              rowKey={(group) => group.id}
              label={t('locations.page.groupsTitle')}
              minWidth={640}
              columns={[
                {
                  key: 'name',
                  header: t('locations.fields.name'),
                  primary: true,
                  cell: (group) => (
                    <>
                      <Text size="sm" fw={500}>
                        {group.name}
                      </Text>
                      {group.description && (
                        <Text size="xs" c={MUTED_TEXT}>
                          {group.description}
                        </Text>
                      )}
                    </>
                  ),
                },
                {
                  key: 'members',
                  header: t('locations.page.members'),
                  cell: (group) =>
                    group.location_ids.map((id) => locationName.get(id) ?? id).join(', ') || '—',
                },
                {
                  key: 'revenue',
                  header: t('locations.page.revenue'),
                  align: 'right',
                  cell: (group) => money(group.revenue),
                },
                {
                  key: 'checks',
                  header: t('locations.page.checks'),
                  align: 'right',
                  cell: (group) => count(group.checks),
                },
              ]}
              actions={
                canManage
                  ? (group) => (
                      <Group gap="xs" wrap="nowrap">
                        {/* A group is edited in its own dialog (its own machine), deleted by this list. */}
                        <Button
                          size="xs"
                          variant="light"
                          disabled={!browsing}
                          aria-label={`${t('kit.edit')} ${group.name}`}
                          onClick={() => groupActor.send({ type: 'dialog.open', group })}
                        >
                          {t('kit.edit')}
                        </Button>
                        <RowActions
                          actor={groupsActor}
                          item={group}
                          enabled={browsing}
                          edit={false}
                          label={group.name}
                        />
                      </Group>
                    )
                  : undefined
              }
            />
          )}
        </ListFrame>
      </Stack>
      <LocationDialogs actor={actor} groups={groups} timeZones={timeZones} />
      <ConfirmDeleteDialog
        actor={groupsActor}
        title={t('locations.deleteDialog.groupTitle')}
        message={(group) => t('locations.deleteDialog.groupBody', { name: group.name })}
        problemText={(problem) => problemMessage(t, 'locations', problem)}
      />
      <GroupDialog actor={groupActor} locations={locations} />
    </Stack>
  );
}
