import { Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DateRange } from '../../schemas/date-range.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { DateRangeControl } from './DateRangeControl.js';

/**
 * A dashboard page: its title (and a quiet "updating" sign while newer figures load over the shown ones), the
 * date range control, a "couldn't load" alert with Retry when the last load failed, and the figures below.
 */
export function DashboardFrame({
  title,
  intro,
  range,
  compare,
  today,
  onRangeChange,
  onCompareChange,
  busy,
  failed,
  problem,
  onRetry,
  controls,
  children,
}: {
  title: string;
  intro?: string;
  range: DateRange;
  compare: boolean;
  /** The user's today (`YYYY-MM-DD`) the presets count from. */
  today: string;
  onRangeChange: (range: DateRange) => void;
  onCompareChange: (compare: boolean) => void;
  /** Figures are loading. */
  busy: boolean;
  /** The last load failed: the alert and its Retry show above the figures. */
  failed: boolean;
  /** Why it failed, in the user's language (or the server's message). */
  problem?: string | null;
  onRetry: () => void;
  /** The dashboard's own filters, beside the range. */
  controls?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Group gap="sm" align="center">
          <Title order={2}>{title}</Title>
          {busy && <Loader size="xs" role="status" aria-label={t('dashboardKit.refreshing')} />}
        </Group>
        {intro && <Text c="dimmed">{intro}</Text>}
      </Stack>
      <Group gap="lg" align="flex-end" wrap="wrap">
        <DateRangeControl
          range={range}
          compare={compare}
          today={today}
          onRangeChange={onRangeChange}
          onCompareChange={onCompareChange}
        />
        {controls}
      </Group>
      {failed && (
        <div role="alert">
          <LoadFailedAlert
            title={t('dashboardKit.loadFailed')}
            message={problem ?? null}
            retryLabel={t('dashboardKit.retry')}
            onRetry={onRetry}
          />
        </div>
      )}
      {children}
    </Stack>
  );
}
