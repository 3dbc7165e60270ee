import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../shared/problem-message.js';
import type { LocationRow } from '../../machines/locations-admin.machine.js';
import { displayLocationName, type Location, type LocationGroup } from '../../schemas/locations.js';
import { type LocationRoi } from '../../schemas/location-writes.js';
import { ListFrame } from '../kit/ListFrame.js';
import { useListView } from '../kit/useListView.js';
import { LocationDialogs, type LocationsActor } from './LocationDialogs.js';
import { LOCATION_NOTICES, noticeKey } from './LocationsView.js';

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
  groups,
  canManage,
  timeZones,
}: {
  actor: LocationsActor;
  /** The groups an edited location can belong to. */
  groups: readonly LocationGroup[];
  canManage: boolean;
  timeZones: readonly string[];
}) {
  const { t } = useTranslation();
  const { notice, listProblem } = useListView(actor);
  const noticeText = noticeKey(LOCATION_NOTICES, notice);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>{t('locations.setup.title')}</Title>
        <Text c="dimmed">{t('locations.setup.intro')}</Text>
      </Stack>
      <ListFrame
        actor={actor}
        texts={{
          empty: t('locations.page.empty'),
          loadFailed: t('locations.page.loadFailed'),
          problem: problemMessage(t, 'locations', listProblem),
          notice: noticeText && t(noticeText),
        }}
      >
        {(locations, browsing) => (
          <SetupCards actor={actor} locations={locations} browsing={browsing} canManage={canManage} />
        )}
      </ListFrame>
      <LocationDialogs actor={actor} groups={groups} timeZones={timeZones} />
    </Stack>
  );
}

function SetupCards({
  actor,
  locations,
  browsing,
  canManage,
}: {
  actor: LocationsActor;
  locations: LocationRow[];
  browsing: boolean;
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const rows = locations.map((location) => {
    const items = setupChecklist(location, location.roi ?? undefined);
    return { location, items, missing: items.filter((entry) => !entry.done).length };
  });
  // The locations with the most to do come first.
  rows.sort((a, b) => b.missing - a.missing);

  return (
    <>
      {rows.every((row) => row.missing === 0) && (
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
                onClick={() => actor.send({ type: 'item.edit', item: location })}
              >
                {t('locations.setup.fix')}
              </Button>
            )}
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
