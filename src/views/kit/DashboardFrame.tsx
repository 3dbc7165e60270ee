import { Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DateRange } from '../../schemas/date-range.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';
import { ComparisonContext } from './comparison.js';
import { useDashboardState, type DashboardActorLike } from './dashboard-state.js';
import { DateRangeControl } from './DateRangeControl.js';

/** What a dashboard screen hands its view besides the actor: the user's today and the range's setters. */
export interface DashboardRangeProps {
  /** The user's today (`YYYY-MM-DD`) the presets count from. */
  today: string;
  onRangeChange: (range: DateRange) => void;
  onCompareChange: (compare: boolean) => void;
}

/**
 * A dashboard page over its machine: its title (and a quiet "updating" sign while newer figures load over the
 * shown ones), the date range control with the machine's range, a "couldn't load" alert with Retry when the last
 * load failed, and the figures below (told whether the dashboard compares, `ComparisonContext`).
 */
export function DashboardFrame<Figures>({
  actor,
  title,
  intro,
  today,
  onRangeChange,
  onCompareChange,
  controls,
  children,
}: DashboardRangeProps & {
  actor: DashboardActorLike<Figures>;
  title: string;
  intro?: string;
  /** The dashboard's own filters, beside the range. */
  controls?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const range = useSelector(actor, (state) => state.context.range);
  const compare = useSelector(actor, (state) => state.context.compare);
  const problem = useSelector(actor, (state) => state.context.problem);
  const { busy, failed } = useDashboardState(actor);
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
            message={problemMessage(t, 'dashboardKit', problem)}
            retryLabel={t('dashboardKit.retry')}
            onRetry={() => actor.send({ type: 'dashboard.retry' })}
          />
        </div>
      )}
      <ComparisonContext.Provider value={compare}>{children}</ComparisonContext.Provider>
    </Stack>
  );
}
