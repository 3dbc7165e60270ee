import { SegmentedControl, SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { guestAnalyticsDashboardMachine } from '../../machines/guest-analytics-dashboard.machine.js';
import { TOP_VISIT_COUNT, type GuestAnalytics } from '../../schemas/guest-analytics-dashboard.js';
import { ChartCard } from '../kit/ChartCard.js';
import { DashboardFrame, type DashboardRangeProps } from '../kit/DashboardFrame.js';
import { useDashboardState } from '../kit/dashboard-state.js';
import { topBucketLabel } from '../kit/figure-format.js';
import { KpiCard } from '../kit/KpiCard.js';
import { cohortHeatmap } from './guest-charts.js';

/** The guest analytics dashboard's actor, as the view sees it. */
export type GuestAnalyticsDashboardActor = ActorRefFrom<typeof guestAnalyticsDashboardMachine>;

const AREA = 'guestAnalyticsDashboard';

/** Visits per guest, or null without guests. */
const perGuest = (totals: GuestAnalytics['totals'] | null | undefined) =>
  totals && totals.guests > 0 ? totals.visits / totals.guests : null;

/**
 * Above the guest list on /guest/analytics: the range's guests, new and returning (KPIs against the previous
 * period), new and returning guests per day, week or month, the visit-frequency distribution, and the cohort
 * retention heatmap (share returning or revenue, switched here; the table holds both).
 */
export function GuestAnalyticsDashboardView({
  actor,
  ...range
}: { actor: GuestAnalyticsDashboardActor } & DashboardRangeProps) {
  const { t } = useTranslation();
  const { figures, busy, empty } = useDashboardState(actor);
  const [metric, setMetric] = useState<'retention' | 'revenue'>('retention');
  const noChecks = empty || figures?.totals.guests === 0 ? t(`${AREA}.noChecks`) : null;
  const periodName = t(`${AREA}.period.${figures?.period ?? 'day'}`);
  const series = figures?.new_vs_returning ?? [];
  const frequency = figures?.visit_frequency ?? [];
  const cohorts = figures?.cohorts ?? [];
  const heatmap = cohortHeatmap(cohorts, metric, (offset) => t(`${AREA}.cohorts.monthShort`, { n: offset }));
  const previous = figures?.previous_totals;
  const kpi = (label: string, key: 'guests' | 'new_guests' | 'returning_guests') => (
    <KpiCard
      label={t(`${AREA}.kpi.${label}`)}
      value={figures?.totals[key] ?? null}
      previous={previous?.[key] ?? null}
      format="count"
      loading={busy}
    />
  );

  return (
    <DashboardFrame actor={actor} title={t(`${AREA}.title`)} intro={t(`${AREA}.intro`)} {...range}>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        {kpi('guests', 'guests')}
        {kpi('newGuests', 'new_guests')}
        {kpi('returningGuests', 'returning_guests')}
        <KpiCard
          label={t(`${AREA}.kpi.visitsPerGuest`)}
          value={perGuest(figures?.totals)}
          previous={perGuest(previous)}
          format="decimal"
          loading={busy}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ChartCard
          title={t(`${AREA}.newVsReturning.title`)}
          description={t(`${AREA}.newVsReturning.description`, { period: periodName })}
          loading={busy}
          emptyReason={noChecks}
          csvName="new-and-returning-guests"
          chart={{
            type: 'bar',
            height: 280,
            ariaLabel: t(`${AREA}.newVsReturning.title`),
            series: [
              { name: t(`${AREA}.newVsReturning.new`), data: series.map((row) => row.new_guests) },
              {
                name: t(`${AREA}.newVsReturning.returning`),
                data: series.map((row) => row.returning_guests),
              },
            ],
            options: {
              chart: { stacked: true },
              xaxis: { categories: series.map((row) => row.period), tickAmount: 8 },
              yaxis: { labels: { formatter: (value: number) => String(Math.round(value)) } },
            },
          }}
          table={{
            caption: t(`${AREA}.newVsReturning.title`),
            columns: [
              { key: 'period', label: t(`${AREA}.newVsReturning.period`) },
              { key: 'new', label: t(`${AREA}.newVsReturning.new`), format: 'count' },
              { key: 'returning', label: t(`${AREA}.newVsReturning.returning`), format: 'count' },
            ],
            rows: series.map((row) => ({
              period: row.period,
              new: row.new_guests,
              returning: row.returning_guests,
            })),
          }}
        />
        <ChartCard
          title={t(`${AREA}.frequency.title`)}
          description={t(`${AREA}.frequency.description`)}
          loading={busy}
          emptyReason={noChecks}
          csvName="visit-frequency"
          chart={{
            type: 'bar',
            height: 280,
            ariaLabel: t(`${AREA}.frequency.title`),
            series: [{ name: t(`${AREA}.frequency.guests`), data: frequency.map((row) => row.guests) }],
            options: {
              xaxis: {
                categories: frequency.map((row) => topBucketLabel(row.visits, TOP_VISIT_COUNT)),
                title: { text: t(`${AREA}.frequency.visits`) },
              },
            },
          }}
          table={{
            caption: t(`${AREA}.frequency.title`),
            columns: [
              { key: 'visits', label: t(`${AREA}.frequency.visits`) },
              { key: 'guests', label: t(`${AREA}.frequency.guests`), format: 'count' },
            ],
            rows: frequency.map((row) => ({
              visits: topBucketLabel(row.visits, TOP_VISIT_COUNT),
              guests: row.guests,
            })),
          }}
        />
      </SimpleGrid>
      <Stack gap="xs">
        <SegmentedControl
          aria-label={t(`${AREA}.cohorts.metric`)}
          value={metric}
          onChange={setMetric}
          data={[
            { value: 'retention', label: t(`${AREA}.cohorts.retention`) },
            { value: 'revenue', label: t(`${AREA}.cohorts.revenue`) },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
        <ChartCard
          title={t(`${AREA}.cohorts.title`)}
          description={t(`${AREA}.cohorts.description`)}
          loading={busy}
          emptyReason={empty || cohorts.length === 0 ? t(`${AREA}.cohorts.empty`) : null}
          csvName="cohort-retention"
          chart={{
            type: 'heatmap',
            height: Math.max(220, 34 * cohorts.length + 60),
            ariaLabel: t(`${AREA}.cohorts.title`),
            series: heatmap,
            options: {
              colors: [metric === 'retention' ? '#2f9e44' : '#1c7ed6'],
              dataLabels: { enabled: cohorts.length <= 14, style: { fontSize: '10px' } },
              tooltip: { y: { formatter: (value: number) => String(value) } },
            },
          }}
          table={{
            caption: t(`${AREA}.cohorts.title`),
            columns: [
              { key: 'cohort', label: t(`${AREA}.cohorts.cohort`) },
              { key: 'size', label: t(`${AREA}.cohorts.size`), format: 'count' },
              { key: 'offset', label: t(`${AREA}.cohorts.monthsSince`), format: 'count' },
              { key: 'active', label: t(`${AREA}.cohorts.active`), format: 'count' },
              { key: 'retention', label: t(`${AREA}.cohorts.retention`), format: 'percent' },
              { key: 'revenue', label: t(`${AREA}.cohorts.revenue`), format: 'currency' },
            ],
            rows: cohorts.flatMap((row) =>
              row.months.map((month) => ({
                cohort: row.cohort,
                size: row.size,
                offset: month.offset,
                active: month.active,
                retention: month.retention * 100,
                revenue: month.revenue,
              })),
            ),
          }}
        />
      </Stack>
    </DashboardFrame>
  );
}
