import { SegmentedControl, SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { customerJourneyDashboardMachine } from '../../machines/customer-journey-dashboard.machine.js';
import { GAP_BUCKETS, TOP_VISIT_NUMBER, type JourneyTotals } from '../../schemas/customer-journey.js';
import { ChartCard } from '../kit/ChartCard.js';
import { DashboardFrame, type DashboardRangeProps } from '../kit/DashboardFrame.js';
import { useDashboardState } from '../kit/dashboard-state.js';
import { topBucketLabel } from '../kit/figure-format.js';
import { KpiCard } from '../kit/KpiCard.js';
import { cellValue, journeyHeatmap, journeyMatrix, type JourneyMetric } from './journey-charts.js';

/** The customer journey dashboard's actor, as the view sees it. */
export type CustomerJourneyDashboardActor = ActorRefFrom<typeof customerJourneyDashboardMachine>;

const AREA = 'customerJourney';
// Cell figures in dark ink: white labels vanish on the scale's palest cells.
const LABEL_INK = '#1a1b1e';
// On a phone the cells are too narrow for their figures: the tooltip and the data table carry them.
const PHONE_HEATMAP = [{ breakpoint: 600, options: { dataLabels: { enabled: false } } }];

/** A share (0–1) as a percentage for the KPI cards, or null without figures. */
const percentOf = (share: number | undefined): number | null => (share === undefined ? null : share * 100);

/**
 * /heatmap: where the range's new guests went on their next visit (first-visit location × next-visit location,
 * in guests or row percentages), how many days pass until the next visit by visit number (quartiles and a
 * heatmap of day buckets), and guests at several locations with the return rate after a first visit.
 */
export function CustomerJourneyDashboardView({
  actor,
  ...range
}: { actor: CustomerJourneyDashboardActor } & DashboardRangeProps) {
  const { t } = useTranslation();
  const { figures, busy, empty } = useDashboardState(actor);
  const [metric, setMetric] = useState<JourneyMetric>('count');
  const noGuests = empty ? t(`${AREA}.empty`) : null;
  const matrix = journeyMatrix(figures);
  const notReturned = t(`${AREA}.journey.notReturned`);
  const gaps = figures?.gaps ?? [];
  const totals = figures?.totals;
  const previous = figures?.previous_totals;
  const kpi = (label: string, key: keyof JourneyTotals, format: 'count' | 'percent') => (
    <KpiCard
      label={t(`${AREA}.kpi.${label}`)}
      value={format === 'percent' ? percentOf(totals?.[key]) : (totals?.[key] ?? null)}
      previous={format === 'percent' ? percentOf(previous?.[key]) : (previous?.[key] ?? null)}
      format={format}
      loading={busy}
    />
  );
  const journeyEmpty =
    noGuests ??
    (figures && figures.company_locations < 2
      ? t(`${AREA}.journey.singleLocation`)
      : figures && figures.totals.new_guests === 0
        ? t(`${AREA}.journey.empty`)
        : null);
  const bucketNames = [
    ...GAP_BUCKETS.map((bucket) => t(`${AREA}.gaps.bucket.${bucket.key}`)),
    t(`${AREA}.gaps.notYet`),
  ];
  const visitName = (visitNumber: number) =>
    t(`${AREA}.gaps.visit`, { n: topBucketLabel(visitNumber, TOP_VISIT_NUMBER) });

  return (
    <DashboardFrame actor={actor} title={t(`${AREA}.title`)} intro={t(`${AREA}.intro`)} {...range}>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        {kpi('multiLocationGuests', 'multi_location_guests', 'count')}
        {kpi('multiLocationShare', 'multi_location_share', 'percent')}
        {kpi('newGuests', 'new_guests', 'count')}
        {kpi('returnRate', 'return_rate', 'percent')}
      </SimpleGrid>
      <Stack gap="xs">
        <SegmentedControl
          aria-label={t(`${AREA}.journey.metric`)}
          value={metric}
          onChange={setMetric}
          data={[
            { value: 'count', label: t(`${AREA}.journey.count`) },
            { value: 'rowPercent', label: t(`${AREA}.journey.rowPercent`) },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
        <ChartCard
          title={t(`${AREA}.journey.title`)}
          description={t(`${AREA}.journey.description`)}
          loading={busy}
          emptyReason={journeyEmpty}
          csvName="customer-journey"
          chart={{
            type: 'heatmap',
            height: Math.max(220, 44 * matrix.rows.length + 90),
            ariaLabel: t(`${AREA}.journey.title`),
            series: journeyHeatmap(
              matrix,
              metric,
              (name, row) => t(`${AREA}.journey.rowName`, { name, total: row.total }),
              notReturned,
            ),
            options: {
              colors: ['#1c7ed6'],
              dataLabels: {
                enabled: matrix.columns.length <= 8,
                style: { fontSize: '11px', colors: [LABEL_INK] },
                formatter: (value: number) => (metric === 'count' ? String(value) : `${value}%`),
              },
              xaxis: { labels: { rotate: -45, trim: true, maxHeight: 130 } },
              yaxis: { labels: { maxWidth: 160 } },
              tooltip: {
                y: { formatter: (value: number) => (metric === 'count' ? String(value) : `${value}%`) },
              },
              responsive: PHONE_HEATMAP,
            },
          }}
          table={{
            caption: t(`${AREA}.journey.title`),
            columns: [
              { key: 'first', label: t(`${AREA}.journey.first`) },
              ...matrix.columns.map((column) => ({
                key: `to${column.id}`,
                label: column.name,
                format: metric === 'count' ? ('count' as const) : ('percent' as const),
              })),
              {
                key: 'none',
                label: notReturned,
                format: metric === 'count' ? ('count' as const) : ('percent' as const),
              },
              { key: 'total', label: t(`${AREA}.journey.total`), format: 'count' },
            ],
            rows: matrix.rows.map((row) => ({
              first: row.name,
              ...Object.fromEntries(
                matrix.columns.map((column, index) => [
                  `to${column.id}`,
                  cellValue(row.next[index]!, row.total, metric),
                ]),
              ),
              none: cellValue(row.notReturned, row.total, metric),
              total: row.total,
            })),
          }}
        />
      </Stack>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ChartCard
          title={t(`${AREA}.gaps.title`)}
          description={t(`${AREA}.gaps.description`)}
          loading={busy}
          emptyReason={noGuests ?? (figures && gaps.length === 0 ? t(`${AREA}.gaps.empty`) : null)}
          csvName="days-until-next-visit"
          chart={{
            type: 'line',
            height: 280,
            ariaLabel: t(`${AREA}.gaps.title`),
            series: [
              { name: t(`${AREA}.gaps.p25`), data: gaps.map((gap) => gap.p25_days) },
              { name: t(`${AREA}.gaps.median`), data: gaps.map((gap) => gap.median_days) },
              { name: t(`${AREA}.gaps.p75`), data: gaps.map((gap) => gap.p75_days) },
            ],
            options: {
              stroke: { width: [2, 3, 2], dashArray: [4, 0, 4] },
              markers: { size: 4 },
              xaxis: {
                categories: gaps.map((gap) => topBucketLabel(gap.visit_number, TOP_VISIT_NUMBER)),
                title: { text: t(`${AREA}.gaps.visitNumber`) },
              },
              yaxis: { title: { text: t(`${AREA}.gaps.days`) }, min: 0, decimalsInFloat: 0 },
            },
          }}
          table={{
            caption: t(`${AREA}.gaps.title`),
            columns: [
              { key: 'visit', label: t(`${AREA}.gaps.visitNumber`) },
              { key: 'visits', label: t(`${AREA}.gaps.visits`), format: 'count' },
              { key: 'returned', label: t(`${AREA}.gaps.returned`), format: 'count' },
              { key: 'p25', label: t(`${AREA}.gaps.p25`), format: 'days' },
              { key: 'median', label: t(`${AREA}.gaps.median`), format: 'days' },
              { key: 'p75', label: t(`${AREA}.gaps.p75`), format: 'days' },
              { key: 'within30', label: t(`${AREA}.gaps.within`, { days: 30 }), format: 'percent' },
              { key: 'within60', label: t(`${AREA}.gaps.within`, { days: 60 }), format: 'percent' },
              { key: 'within90', label: t(`${AREA}.gaps.within`, { days: 90 }), format: 'percent' },
            ],
            rows: gaps.map((gap) => ({
              visit: topBucketLabel(gap.visit_number, TOP_VISIT_NUMBER),
              visits: gap.visits,
              returned: gap.returned,
              p25: gap.p25_days,
              median: gap.median_days,
              p75: gap.p75_days,
              within30: gap.within_30 * 100,
              within60: gap.within_60 * 100,
              within90: gap.within_90 * 100,
            })),
          }}
        />
        <ChartCard
          title={t(`${AREA}.buckets.title`)}
          description={t(`${AREA}.buckets.description`)}
          loading={busy}
          emptyReason={noGuests ?? (figures && gaps.length === 0 ? t(`${AREA}.gaps.empty`) : null)}
          csvName="visit-number-by-days-until-next"
          chart={{
            type: 'heatmap',
            height: Math.max(260, 30 * gaps.length + 90),
            ariaLabel: t(`${AREA}.buckets.title`),
            series: [...gaps].reverse().map((gap) => ({
              name: visitName(gap.visit_number),
              data: [...gap.buckets, gap.not_returned].map((visits, index) => ({
                x: bucketNames[index]!,
                y: cellValue(visits, gap.visits, 'rowPercent'),
              })),
            })),
            options: {
              colors: ['#2f9e44'],
              dataLabels: {
                enabled: true,
                style: { fontSize: '10px', colors: [LABEL_INK] },
                formatter: (value: number) => `${value}%`,
              },
              xaxis: { labels: { rotate: -45 } },
              responsive: PHONE_HEATMAP,
              tooltip: { y: { formatter: (value: number) => `${value}%` } },
            },
          }}
          table={{
            caption: t(`${AREA}.buckets.title`),
            columns: [
              { key: 'visit', label: t(`${AREA}.gaps.visitNumber`) },
              ...bucketNames.map((name, index) => ({
                key: `b${index}`,
                label: name,
                format: 'count' as const,
              })),
              { key: 'visits', label: t(`${AREA}.gaps.visits`), format: 'count' },
            ],
            rows: gaps.map((gap) => ({
              visit: topBucketLabel(gap.visit_number, TOP_VISIT_NUMBER),
              ...Object.fromEntries(
                [...gap.buckets, gap.not_returned].map((visits, index) => [`b${index}`, visits]),
              ),
              visits: gap.visits,
            })),
          }}
        />
      </SimpleGrid>
    </DashboardFrame>
  );
}
