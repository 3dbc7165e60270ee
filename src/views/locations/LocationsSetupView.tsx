import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Group,
  List,
  LoadingOverlay,
  SimpleGrid,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { locationsAdminMachine } from '../../machines/locations-admin.machine.js';
import { displayLocationName, type Location, type LocationRoi } from '../../schemas/locations.js';
import { LocationDialogs } from './LocationDialogs.js';
import { problemMessage } from './messages.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';

/** One thing a location needs before its data and campaigns work fully. */
export type SetupItem = 'address' | 'zip' | 'coordinates' | 'timeZone' | 'group' | 'checks';

/** Each setup item of a location and whether it is done; checks come from its all-time ROI. */
export function setupChecklist(
  location: Location,
  roi: LocationRoi['results'][number] | undefined,
): { item: SetupItem; done: boolean }[] {
  return [
    {
      item: 'address',
      done: Boolean(location.street.trim() && location.city.trim() && location.state.trim()),
    },
    { item: 'zip', done: /^\d{5}$/.test(location.zip) },
    { item: 'coordinates', done: location.latitude !== null && location.longitude !== null },
    { item: 'timeZone', done: location.time_zone.trim() !== '' },
    { item: 'group', done: location.group_ids.length > 0 },
    { item: 'checks', done: (roi?.checks ?? 0) > 0 },
  ];
}

/** /locations-setup: for each location, what is still missing, with a quick edit. */
export function LocationsSetupView({
  actor,
  canManage,
  timeZones,
}: {
  actor: ActorRefFrom<typeof locationsAdminMachine>;
  canManage: boolean;
  timeZones: readonly string[];
}) {
  const { t } = useTranslation();
  const busy = useSelector(actor, (state) => state.matches('listing') && state.hasTag('busy'));
  const failed = useSelector(actor, (state) => state.matches({ listing: 'failed' }));
  const browsing = useSelector(actor, (state) => state.matches({ listing: 'browsing' }));
  const overview = useSelector(actor, (state) => state.context.overview);
  const problem = useSelector(actor, (state) => (state.matches('listing') ? state.context.problem : null));
  const notice = useSelector(actor, (state) => state.context.notice);
  const roiBy = new Map((overview?.roi.results ?? []).map((row) => [row.location_id, row]));
  const rows = (overview?.locations ?? []).map((location) => {
    const items = setupChecklist(location, roiBy.get(location.id));
    return { location, items, missing: items.filter((entry) => !entry.done).length };
  });
  // The locations with the most to do come first.
  rows.sort((a, b) => b.missing - a.missing);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>{t('locations.setup.title')}</Title>
        <Text c="dimmed">{t('locations.setup.intro')}</Text>
      </Stack>
      {notice && (
        <Alert color="green" withCloseButton onClose={() => actor.send({ type: 'notice.dismiss' })}>
          {t(`locations.notices.${notice}`)}
        </Alert>
      )}
      {failed && (
        <LoadFailedAlert
          title={t('locations.page.loadFailed')}
          message={problemMessage(t, problem)}
          retryLabel={t('locations.actions.retry')}
          onRetry={() => actor.send({ type: 'list.retry' })}
        />
      )}
      <Box pos="relative" mih={80}>
        <LoadingOverlay visible={busy} />
        {overview && rows.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            {t('locations.page.empty')}
          </Text>
        )}
        {rows.length > 0 && rows.every((row) => row.missing === 0) && (
          <Alert color="green" mb="md">
            {t('locations.setup.allReady')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {rows.map(({ location, items, missing }) => (
            <Card key={location.id} withBorder padding="md">
              <Group justify="space-between" wrap="nowrap" align="flex-start" mb="xs">
                <Text fw={600}>{displayLocationName(location)}</Text>
                {/* Filled shades with automatic text colour keep AA contrast (light badges fall short). */}
                <Badge
                  color={missing === 0 ? 'teal.9' : 'yellow.4'}
                  variant="filled"
                  autoContrast
                  style={{ flexShrink: 0 }}
                >
                  {missing === 0
                    ? t('locations.setup.ready')
                    : t('locations.setup.missing', { count: missing })}
                </Badge>
              </Group>
              <List spacing={4} size="sm" listStyleType="none">
                {items.map(({ item, done }) => (
                  <List.Item key={item}>
                    <Text span c={done ? 'green' : 'red'} fw={700} mr={6} aria-hidden>
                      {done ? '✓' : '✗'}
                    </Text>
                    <VisuallyHidden>
                      {done ? t('locations.setup.done') : t('locations.setup.todo')}:{' '}
                    </VisuallyHidden>
                    <Text span c={done ? undefined : 'dimmed'}>
                      {t(`locations.setup.${item}`)}
                    </Text>
                  </List.Item>
                ))}
              </List>
              {canManage && missing > 0 && (
                <Button
                  mt="md"
                  size="xs"
                  variant="light"
                  disabled={!browsing}
                  onClick={() => actor.send({ type: 'location.edit', location })}
                >
                  {t('locations.setup.fix')}
                </Button>
              )}
            </Card>
          ))}
        </SimpleGrid>
      </Box>
      <LocationDialogs actor={actor} timeZones={timeZones} />
    </Stack>
  );
}
