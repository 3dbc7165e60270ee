import { SegmentedControl, Select, SimpleGrid, Stack } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { consumerInsightsMachine } from '../../machines/consumer-insights.machine.js';
import type { ConsumerInsights } from '../../schemas/consumer-insights.js';
import { ChartCard } from '../kit/ChartCard.js';
import { DashboardFrame, type DashboardRangeProps } from '../kit/DashboardFrame.js';
import { useDashboardState } from '../kit/dashboard-state.js';
import { formatFigure } from '../kit/figure-format.js';
import { KpiCard } from '../kit/KpiCard.js';
import { hourHeatmap, hourLabel, shareOf, type HourMetric, type ShareMetric } from './insight-charts.js';

/** The consumer insights dashboard's actor, as the view sees it. */
export type ConsumerInsightsActor = ActorRefFrom<typeof consumerInsightsMachine>;

const AREA = 'consumerInsights';
const ALL_GUESTS = 'all';

/** The day parts' checks in the previous period, by day part (null without a comparison). */
function previousChecks(figures: ConsumerInsights | null, dayPart: string): number | null {
  return figures?.previous_day_parts?.find((row) => row.day_part === dayPart)?.checks ?? null;
}

/**
 * /consumer/insights/analytics: the range's checks at the picked locations — when they opened (weekday × hour,
 * checks or revenue), party sizes with the average, day parts (checks, revenue, average check), the days between
 * a guest's visits with the median, and the favourite categories of a saved segment (or every guest) beside every
 * guest's share. Each chart says why it is empty.
 */
export function ConsumerInsightsView({
  actor,
  ...range
}: { actor: ConsumerInsightsActor } & DashboardRangeProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { figures, busy, empty } = useDashboardState(actor);
  const extra = useSelector(actor, (state) => state.context.extra);
  const [hourMetric, setHourMetric] = useState<HourMetric>('checks');
  const [shareMetric, setShareMetric] = useState<ShareMetric>('units');
  const noChecks = empty ? t(`${AREA}.empty`) : null;
  const weekday = (day: number) => t(`${AREA}.weekdays.${day}`);
  const hours = figures?.hours ?? [];
  const parties = figures?.party_sizes ?? [];
  const dayParts = figures?.day_parts ?? [];
  const gaps = figures?.visit_gaps;
  const categories = figures?.categories;
  const segmentName =
    extra.segmentId === null
      ? t(`${AREA}.categories.allGuests`)
      : (figures?.segments.find((segment) => segment.id === extra.segmentId)?.name ?? '');
  const categoriesEmpty =
    noChecks ??
    (categories && categories.units === 0
      ? extra.segmentId === null
        ? t(`${AREA}.categories.noItems`)
        : t(`${AREA}.categories.noSegmentItems`, { segment: segmentName })
      : null);
  const totalChecks = figures?.totals.checks ?? 0;

  const controls = (
    <Select
      label={t(`${AREA}.categories.segment`)}
      value={extra.segmentId === null ? ALL_GUESTS : String(extra.segmentId)}
      allowDeselect={false}
      searchable
      w={240}
      data={[
        { value: ALL_GUESTS, label: t(`${AREA}.categories.allGuests`) },
        ...(figures?.segments ?? []).map((segment) => ({ value: String(segment.id), label: segment.name })),
      ]}
      onChange={(value) =>
        actor.send({
          type: 'extra.change',
          extra: { segmentId: !value || value === ALL_GUESTS ? null : Number(value) },
        })
      }
    />
  );

  return (
    <DashboardFrame
      actor={actor}
      title={t(`${AREA}.title`)}
      intro={t(`${AREA}.intro`)}
      controls={controls}
      {...range}
    >
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <KpiCard
          label={t(`${AREA}.kpi.checks`)}
          value={figures?.totals.checks ?? null}
          previous={figures?.previous_totals?.checks ?? null}
          format="count"
          loading={busy}
        />
        <KpiCard
          label={t(`${AREA}.kpi.averageCheck`)}
          value={figures?.totals.average_check ?? null}
          previous={figures?.previous_totals?.average_check ?? null}
          format="currency"
          loading={busy}
        />
        <KpiCard
          label={t(`${AREA}.kpi.averageParty`)}
          value={figures?.totals.average_party ?? null}
          previous={figures?.previous_totals?.average_party ?? null}
          format="decimal"
          loading={busy}
        />
        <KpiCard
          label={t(`${AREA}.kpi.medianGap`)}
          value={gaps?.median_days ?? null}
          previous={figures?.previous_visit_gaps?.median_days ?? null}
          format="days"
          loading={busy}
        />
      </SimpleGrid>
      <Stack gap="xs">
        <SegmentedControl
          aria-label={t(`${AREA}.hours.metric`)}
          value={hourMetric}
          onChange={setHourMetric}
          data={[
            { value: 'checks', label: t(`${AREA}.hours.checks`) },
            { value: 'revenue', label: t(`${AREA}.hours.revenue`) },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
        <ChartCard
          title={t(`${AREA}.hours.title`)}
          description={t(`${AREA}.hours.description`)}
          loading={busy}
          emptyReason={noChecks}
          csvName="checks-by-weekday-and-hour"
          chart={{
            type: 'heatmap',
            height: 320,
            ariaLabel: t(`${AREA}.hours.title`),
            series: hourHeatmap(hours, hourMetric, weekday),
            options: {
              colors: [hourMetric === 'checks' ? '#e8590c' : '#1c7ed6'],
              dataLabels: { enabled: false },
              xaxis: { labels: { rotate: 0, hideOverlappingLabels: true } },
            },
          }}
          table={{
            caption: t(`${AREA}.hours.title`),
            columns: [
              { key: 'weekday', label: t(`${AREA}.hours.weekday`) },
              { key: 'hour', label: t(`${AREA}.hours.hour`) },
              { key: 'checks', label: t(`${AREA}.hours.checks`), format: 'count' },
              { key: 'revenue', label: t(`${AREA}.hours.revenue`), format: 'currency' },
            ],
            rows: hours
              .filter((cell) => cell.checks > 0)
              .map((cell) => ({
                weekday: weekday(cell.weekday),
                hour: `${hourLabel(cell.hour)}:00`,
                checks: cell.checks,
                revenue: cell.revenue,
              })),
          }}
        />
      </Stack>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ChartCard
          title={t(`${AREA}.party.title`)}
          description={t(`${AREA}.party.description`, {
            average: formatFigure(figures?.totals.average_party ?? null, 'decimal', language),
          })}
          loading={busy}
          emptyReason={noChecks}
          csvName="party-sizes"
          chart={{
            type: 'bar',
            height: 260,
            ariaLabel: t(`${AREA}.party.title`),
            series: [{ name: t(`${AREA}.party.checks`), data: parties.map((row) => row.checks) }],
            options: { xaxis: { categories: parties.map((row) => t(`${AREA}.party.sizes.${row.size}`)) } },
          }}
          table={{
            caption: t(`${AREA}.party.title`),
            columns: [
              { key: 'size', label: t(`${AREA}.party.size`) },
              { key: 'checks', label: t(`${AREA}.party.checks`), format: 'count' },
              { key: 'share', label: t(`${AREA}.share`), format: 'percent' },
            ],
            rows: parties.map((row) => ({
              size: t(`${AREA}.party.sizes.${row.size}`),
              checks: row.checks,
              share: shareOf(row.checks, totalChecks),
            })),
          }}
        />
        <ChartCard
          title={t(`${AREA}.dayParts.title`)}
          description={t(`${AREA}.dayParts.description`)}
          loading={busy}
          emptyReason={noChecks}
          csvName="day-parts"
          chart={{
            type: 'bar',
            height: 260,
            ariaLabel: t(`${AREA}.dayParts.title`),
            series: [
              { name: t(`${AREA}.dayParts.checks`), data: dayParts.map((row) => row.checks) },
              ...(figures?.previous_day_parts
                ? [
                    {
                      name: t(`${AREA}.dayParts.previousChecks`),
                      // By day part, as the table matches them, not by position.
                      data: dayParts.map((row) => previousChecks(figures, row.day_part)),
                    },
                  ]
                : []),
            ],
            options: {
              // Across, the day parts' names (with their hours) ran into each other in Japanese and on a phone.
              plotOptions: { bar: { horizontal: true } },
              xaxis: {
                categories: dayParts.map((row) => t(`${AREA}.dayParts.names.${row.day_part}`)),
                // Fewer checks on the value axis: six ran together on a phone.
                tickAmount: 3,
              },
            },
          }}
          table={{
            caption: t(`${AREA}.dayParts.title`),
            columns: [
              { key: 'dayPart', label: t(`${AREA}.dayParts.dayPart`) },
              { key: 'checks', label: t(`${AREA}.dayParts.checks`), format: 'count' },
              { key: 'revenue', label: t(`${AREA}.dayParts.revenue`), format: 'currency' },
              { key: 'averageCheck', label: t(`${AREA}.dayParts.averageCheck`), format: 'currency' },
              { key: 'previousChecks', label: t(`${AREA}.dayParts.previousChecks`), format: 'count' },
            ],
            rows: dayParts.map((row) => ({
              dayPart: t(`${AREA}.dayParts.names.${row.day_part}`),
              checks: row.checks,
              revenue: row.revenue,
              averageCheck: row.average_check,
              previousChecks: previousChecks(figures, row.day_part),
            })),
          }}
        />
        <ChartCard
          title={t(`${AREA}.gaps.title`)}
          description={t(`${AREA}.gaps.description`, {
            median: formatFigure(gaps?.median_days ?? null, 'days', language),
            visits: formatFigure(gaps?.visits ?? 0, 'count', language),
          })}
          loading={busy}
          emptyReason={noChecks ?? (gaps && gaps.visits === 0 ? t(`${AREA}.gaps.empty`) : null)}
          csvName="days-between-visits"
          chart={{
            type: 'bar',
            height: 260,
            ariaLabel: t(`${AREA}.gaps.title`),
            series: [
              { name: t(`${AREA}.gaps.visits`), data: (gaps?.buckets ?? []).map((row) => row.visits) },
            ],
            options: {
              xaxis: { categories: (gaps?.buckets ?? []).map((row) => t(`${AREA}.gaps.buckets.${row.gap}`)) },
            },
          }}
          table={{
            caption: t(`${AREA}.gaps.title`),
            columns: [
              { key: 'gap', label: t(`${AREA}.gaps.gap`) },
              { key: 'visits', label: t(`${AREA}.gaps.visits`), format: 'count' },
              { key: 'share', label: t(`${AREA}.share`), format: 'percent' },
            ],
            rows: (gaps?.buckets ?? []).map((row) => ({
              gap: t(`${AREA}.gaps.buckets.${row.gap}`),
              visits: row.visits,
              share: shareOf(row.visits, gaps?.visits ?? 0),
            })),
          }}
        />
        <Stack gap="xs">
          <SegmentedControl
            aria-label={t(`${AREA}.categories.metric`)}
            value={shareMetric}
            onChange={setShareMetric}
            data={[
              { value: 'units', label: t(`${AREA}.categories.units`) },
              { value: 'revenue', label: t(`${AREA}.categories.revenue`) },
            ]}
            style={{ alignSelf: 'flex-start' }}
          />
          <ChartCard
            title={t(`${AREA}.categories.title`, { segment: segmentName })}
            description={t(`${AREA}.categories.description`, {
              guests: formatFigure(categories?.guests ?? 0, 'count', language),
            })}
            loading={busy}
            emptyReason={categoriesEmpty}
            csvName="favourite-categories"
            chart={{
              type: 'bar',
              height: Math.max(240, 44 * (categories?.rows.length ?? 0) + 80),
              ariaLabel: t(`${AREA}.categories.title`, { segment: segmentName }),
              series: [
                {
                  name: segmentName,
                  data: (categories?.rows ?? []).map((row) =>
                    shareMetric === 'units' ? row.units_share : row.revenue_share,
                  ),
                },
                ...(extra.segmentId === null
                  ? []
                  : [
                      {
                        name: t(`${AREA}.categories.allGuests`),
                        data: (categories?.rows ?? []).map((row) =>
                          shareMetric === 'units' ? row.all_units_share : row.all_revenue_share,
                        ),
                      },
                    ]),
              ],
              options: {
                plotOptions: { bar: { horizontal: true } },
                xaxis: {
                  categories: (categories?.rows ?? []).map((row) => row.category),
                  // The bars are shares: the value axis says so.
                  labels: { formatter: (value: string) => `${value}%` },
                },
                tooltip: { y: { formatter: (value: number) => formatFigure(value, 'percent', language) } },
              },
            }}
            table={{
              caption: t(`${AREA}.categories.title`, { segment: segmentName }),
              columns: [
                { key: 'category', label: t(`${AREA}.categories.category`) },
                { key: 'units', label: t(`${AREA}.categories.units`), format: 'count' },
                { key: 'unitsShare', label: t(`${AREA}.categories.unitsShare`), format: 'percent' },
                { key: 'revenue', label: t(`${AREA}.categories.revenue`), format: 'currency' },
                { key: 'revenueShare', label: t(`${AREA}.categories.revenueShare`), format: 'percent' },
                { key: 'allUnitsShare', label: t(`${AREA}.categories.allUnitsShare`), format: 'percent' },
                { key: 'allRevenueShare', label: t(`${AREA}.categories.allRevenueShare`), format: 'percent' },
              ],
              rows: (categories?.rows ?? []).map((row) => ({
                category: row.category,
                units: row.units,
                unitsShare: row.units_share,
                revenue: row.revenue,
                revenueShare: row.revenue_share,
                allUnitsShare: row.all_units_share,
                allRevenueShare: row.all_revenue_share,
              })),
            }}
          />
        </Stack>
      </SimpleGrid>
    </DashboardFrame>
  );
}
