import {
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatCount, formatCurrency, formatDate, languageOf } from '../../format/index.js';
import type { GuestMetrics } from '../../schemas/guest-metrics.js';
import { ClvBlock } from './ClvBlock.js';
import { DayPartBar } from './DayPartBar.js';
import { Tile } from './Tile.js';

/** "today", "yesterday" or "N days ago". */
function daysAgoText(t: TFunction, days: number): string {
  if (days <= 0) return t('profile.value.today');
  if (days === 1) return t('profile.value.yesterday');
  return t('profile.value.daysAgo', { count: days });
}

/** A yes/no badge whose meaning shows on hover or focus and is read out to screen readers. */
function FlagBadge({ on, label, explanation }: { on: boolean; label: string; explanation: string }) {
  return (
    <>
      <Tooltip
        label={explanation}
        multiline
        w={260}
        withArrow
        events={{ hover: true, focus: true, touch: true }}
      >
        <Badge variant={on ? 'filled' : 'outline'} color={on ? 'teal.9' : 'gray'} tabIndex={0} data-flag={on}>
          {label}
        </Badge>
      </Tooltip>
      <VisuallyHidden>{explanation}</VisuallyHidden>
    </>
  );
}

/**
 * "Visits and value": the guest's running figures (visits, spend, average check, last visit, visits a month),
 * favourite location and items, day-part mix, trackable and marketable flags, and their lifetime value. A
 * subscriber without a POS guest, and a guest without a check, say why there is nothing to show.
 */
export function ValuePanel({
  metrics,
  timeZone,
  refreshing,
  onRefresh,
}: {
  /** Null: a subscriber with no linked POS guest. */
  metrics: GuestMetrics | null;
  timeZone?: string;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const count = (value: number) => formatCount(value, language);
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="profile-value-title">
      <Stack gap="md">
        <Group justify="space-between" align="center" wrap="wrap" gap="sm">
          <Title order={2} size="h3" id="profile-value-title">
            {t('profile.value.title')}
          </Title>
          <Button variant="subtle" size="compact-sm" onClick={onRefresh} loading={refreshing}>
            {t('profile.value.refresh')}
          </Button>
        </Group>
        {metrics === null ? (
          <Text c="dimmed" data-testid="value-empty">
            {t('profile.value.noGuest')}
          </Text>
        ) : (
          <>
            <Group gap="xs" wrap="wrap">
              <FlagBadge
                on={metrics.trackable}
                label={t(metrics.trackable ? 'profile.value.trackable' : 'profile.value.notTrackable')}
                explanation={t('profile.value.trackableHelp')}
              />
              <FlagBadge
                on={metrics.marketable}
                label={t(metrics.marketable ? 'profile.value.marketable' : 'profile.value.notMarketable')}
                explanation={t('profile.value.marketableHelp')}
              />
            </Group>
            {metrics.visits === 0 ? (
              <Text c="dimmed" data-testid="value-empty">
                {t('profile.value.noVisits')}
              </Text>
            ) : (
              <>
                <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
                  <Tile label={t('profile.stats.visits')} value={count(metrics.visits)} />
                  <Tile label={t('profile.stats.totalSpend')} value={formatCurrency(metrics.spend)} />
                  <Tile
                    label={t('profile.stats.averageCheck')}
                    value={formatCurrency(metrics.average_check)}
                  />
                  <Tile
                    label={t('profile.stats.lastVisit')}
                    value={formatDate(metrics.last_visit_at, language, timeZone)}
                    note={
                      metrics.days_since_last_visit === null
                        ? undefined
                        : daysAgoText(t, metrics.days_since_last_visit)
                    }
                  />
                  <Tile
                    label={t('profile.value.perMonth')}
                    value={count(Math.round(metrics.visits_per_month * 10) / 10)}
                  />
                </SimpleGrid>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  <Stack gap={4}>
                    <Text size="sm" c="dimmed">
                      {t('profile.value.favouriteLocation')}
                    </Text>
                    <Text fw={600}>{metrics.favourite_location?.name ?? '—'}</Text>
                    <Text size="sm" c="dimmed" mt="xs">
                      {t('profile.value.topItems')}
                    </Text>
                    {metrics.favourite_items.length === 0 ? (
                      <Text size="sm">{t('profile.favourites.empty')}</Text>
                    ) : (
                      <Stack gap={2} component="ol" m={0} pl="md">
                        {metrics.favourite_items.map((item) => (
                          <Text component="li" key={item.menu_item_id} size="sm">
                            {t('profile.value.item', { name: item.name, quantity: count(item.quantity) })}
                          </Text>
                        ))}
                      </Stack>
                    )}
                  </Stack>
                  <DayPartBar dayParts={metrics.day_parts} />
                </SimpleGrid>
              </>
            )}
            <ClvBlock clv={metrics.clv} hasVisits={metrics.visits > 0} timeZone={timeZone} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
