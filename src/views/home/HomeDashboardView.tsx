import { SimpleGrid, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ApexOptions } from 'apexcharts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { homeDashboardMachine } from '../../machines/home-dashboard.machine.js';
import type { recommendationFollowMachine } from '../../machines/recommendation-follow.machine.js';
import type { ChartData, HomeKpis, Recommendation } from '../../schemas/home-dashboard.js';
import { ChartCard } from '../kit/ChartCard.js';
import { DashboardFrame, type DashboardRangeProps } from '../kit/DashboardFrame.js';
import { useDashboardState } from '../kit/dashboard-state.js';
import { formatFigure, type FigureFormat } from '../kit/figure-format.js';
import { KpiCard } from '../kit/KpiCard.js';
import { RecommendationList } from './RecommendationList.js';

/** The home dashboard's actor. */
export type HomeDashboardActor = ActorRefFrom<typeof homeDashboardMachine>;
/** The recommendation click's actor. */
export type RecommendationFollowActor = ActorRefFrom<typeof recommendationFollowMachine>;

const KPIS: { key: keyof HomeKpis; label: string; format: FigureFormat }[] = [
  { key: 'revenue', label: 'revenue', format: 'currency' },
  { key: 'checks', label: 'checks', format: 'count' },
  { key: 'guests', label: 'guests', format: 'count' },
  { key: 'average_check', label: 'averageCheck', format: 'currency' },
  { key: 'new_guests', label: 'newGuests', format: 'count' },
  { key: 'returning_guests', label: 'returningGuests', format: 'count' },
];

/** The points of one named series of the chart data (none when the answer has no such series). */
const seriesOf = (chart: ChartData | undefined, name: string) =>
  chart?.charts.find((series) => series.name === name)?.data ?? [];

/**
 * `/dashboard` and `/marketing-analytics`: the range control, the KPI cards against the previous period, revenue
 * and checks per day (the previous period's revenue over it), and the ranked recommendations. It renders the
 * two machines and sends their events; the screen navigates once a segment is saved.
 */
export function HomeDashboardView({
  actor,
  follow,
  canCreate,
  timeZone,
  ...dates
}: {
  actor: HomeDashboardActor;
  follow: RecommendationFollowActor;
  canCreate: boolean;
  /** The user's time zone, for when the audiences were counted. */
  timeZone?: string | undefined;
} & DashboardRangeProps) {
  const { t, i18n } = useTranslation();
  const range = useSelector(actor, (state) => state.context.range);
  const compare = useSelector(actor, (state) => state.context.compare);
  const { figures, busy } = useDashboardState(actor);
  // Asking again for audiences being counted (not after a failed ask: the frame shows the failure).
  const counting = useSelector(actor, (state) => state.hasTag('counting'));
  const savingKind = useSelector(follow, (state) =>
    state.hasTag('busy') || state.matches('done') ? (state.context.following?.kind ?? null) : null,
  );
  const saveProblem = useSelector(follow, (state) =>
    state.matches('failed') ? (state.context.problem?.message ?? null) : null,
  );

  const kpis = figures?.home.kpis ?? null;
  const previous = figures?.home.previous_kpis ?? null;
  const noChecks = kpis !== null && kpis.checks === 0;
  const revenue = seriesOf(figures?.chart, 'revenue');
  const checks = seriesOf(figures?.chart, 'checks');
  const before = seriesOf(figures?.chart, 'previous_revenue');
  const compared = before.length > 0;

  const labels = {
    revenue: t('homeDashboard.chart.revenue'),
    checks: t('homeDashboard.chart.checks'),
    previous: t('homeDashboard.chart.previousRevenue'),
  };
  const series = useMemo(
    () => [
      { name: labels.checks, type: 'column', data: checks.map((point) => point.y) },
      { name: labels.revenue, type: 'line', data: revenue.map((point) => point.y) },
      ...(before.length > 0
        ? [{ name: labels.previous, type: 'line', data: before.map((point) => point.y) }]
        : []),
    ],
    [checks, revenue, before, labels.checks, labels.revenue, labels.previous],
  );
  const options = useMemo((): ApexOptions => {
    const money = (value: number) => formatFigure(value, 'currency', i18n.language);
    return {
      labels: revenue.map((point) => point.x.slice(5)),
      stroke: { width: [0, 3, 2], dashArray: [0, 0, 5] },
      xaxis: {
        type: 'category',
        tickAmount: 8,
        tickPlacement: 'on',
        labels: { rotate: 0, hideOverlappingLabels: true },
      },
      // One axis per series: an axis more than the series (the previous revenue's, with the comparison off) made
      // ApexCharts scale the revenue line on an empty axis.
      yaxis: [
        { seriesName: labels.checks, opposite: true, title: { text: labels.checks }, decimalsInFloat: 0 },
        { seriesName: labels.revenue, title: { text: labels.revenue }, labels: { formatter: money } },
        ...(compared ? [{ seriesName: labels.revenue, show: false, labels: { formatter: money } }] : []),
      ],
      legend: { position: 'bottom' },
      // A phone has room for about four day labels.
      responsive: [{ breakpoint: 600, options: { xaxis: { tickAmount: 4, tickPlacement: 'on' } } }],
    };
  }, [revenue, compared, labels.checks, labels.revenue, i18n.language]);

  const rows = revenue.map((point, index) => ({
    day: point.x,
    revenue: point.y,
    checks: checks[index]?.y ?? null,
    ...(before.length > 0 ? { previous: before[index]?.y ?? null } : {}),
  }));
  const recommendations: Recommendation[] | null = figures?.home.recommendations ?? null;

  return (
    <DashboardFrame
      actor={actor}
      title={t('homeDashboard.title')}
      intro={t('homeDashboard.intro')}
      {...dates}
    >
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" data-testid="home-kpis">
        {KPIS.map((kpi) => (
          <div key={kpi.key} data-kpi={kpi.key}>
            <KpiCard
              label={t(`homeDashboard.kpis.${kpi.label}`)}
              value={kpis?.[kpi.key] ?? null}
              previous={compare ? (previous?.[kpi.key] ?? null) : undefined}
              format={kpi.format}
              loading={busy}
            />
          </div>
        ))}
      </SimpleGrid>
      <ChartCard
        title={t('homeDashboard.chart.title')}
        description={t('homeDashboard.chart.description')}
        loading={busy}
        emptyReason={noChecks ? t('homeDashboard.emptyChecks') : null}
        chart={{
          type: 'line',
          series,
          options,
          height: 300,
          ariaLabel: t('homeDashboard.chart.ariaLabel', { from: range.from, to: range.to }),
        }}
        table={{
          caption: t('homeDashboard.chart.caption'),
          columns: [
            { key: 'day', label: t('homeDashboard.chart.day') },
            { key: 'revenue', label: labels.revenue, format: 'currency' },
            { key: 'checks', label: labels.checks, format: 'count' },
            ...(before.length > 0
              ? [{ key: 'previous', label: labels.previous, format: 'currency' as const }]
              : []),
          ],
          rows,
        }}
        csvName={`revenue-${range.from}-${range.to}`}
      />
      {figures && (
        <Text size="sm" c="dimmed" data-testid="home-emails">
          {t('homeDashboard.chart.emails', {
            value: formatFigure(figures.chart.emails, 'count', i18n.language),
          })}
          {' · '}
          {t('homeDashboard.chart.rangeRevenue', {
            value: formatFigure(figures.chart.revenue, 'currency', i18n.language),
          })}
        </Text>
      )}
      <RecommendationList
        items={recommendations}
        countedAt={figures?.home.audiences_counted_at ?? null}
        timeZone={timeZone}
        loading={busy}
        counting={counting}
        incomplete={figures?.home.audiences_counting ?? false}
        canCreate={canCreate}
        savingKind={savingKind}
        saveProblem={saveProblem}
        onFollow={(item, name) =>
          follow.send({
            type: 'recommendation.follow',
            request: { kind: item.kind, name, segment: item.segment },
          })
        }
      />
    </DashboardFrame>
  );
}
