import { Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatDate, languageOf } from '../../format/index.js';
import type { summaryDashboardMachine } from '../../machines/summary-dashboard.machine.js';
import type { AnalyticsSummary } from '../../schemas/analytics-summary.js';
import { ChartCard } from '../kit/ChartCard.js';
import { formatCurrencyTick, formatFigure } from '../kit/figure-format.js';
import { DashboardFrame, type DashboardRangeProps } from '../kit/DashboardFrame.js';
import { useDashboardState } from '../kit/dashboard-state.js';
import { LocationTable, SummaryKpis } from './SummaryParts.js';

/** A Summary or Overview actor, as the views see them (the two machines are the same kit machine). */
export type SummaryDashboardActor = ActorRefFrom<typeof summaryDashboardMachine>;

/** A period's label on a chart: its first day, as the language writes dates. */
export function periodLabel(period: string, language: string): string {
  return formatDate(`${period}T12:00:00`, languageOf(language));
}

/** Revenue and checks over time, as a chart card (two axes: dollars and checks). */
export function OverTimeCard({
  figures,
  loading,
  empty,
}: {
  figures: AnalyticsSummary | null;
  loading: boolean;
  empty: boolean;
}) {
  const { t, i18n } = useTranslation();
  const series = figures?.series ?? [];
  const labels = series.map((row) => periodLabel(row.period, i18n.language));
  const interval = figures?.interval ?? 'day';
  return (
    <ChartCard
      title={t(`summaryDashboard.overTime.title.${interval}`)}
      description={t(`summaryDashboard.overTime.description.${interval}`)}
      loading={loading}
      emptyReason={empty ? t('summaryDashboard.empty') : null}
      csvName="revenue-and-checks"
      chart={{
        type: 'line',
        height: 300,
        ariaLabel: t(`summaryDashboard.overTime.title.${interval}`),
        series: [
          { name: t('summaryDashboard.kpis.revenue'), type: 'area', data: series.map((row) => row.revenue) },
          { name: t('summaryDashboard.kpis.checks'), type: 'line', data: series.map((row) => row.checks) },
        ],
        options: {
          labels,
          stroke: { width: [2, 2], curve: 'smooth' },
          fill: { opacity: [0.2, 1] },
          yaxis: [
            {
              title: { text: t('summaryDashboard.kpis.revenue') },
              labels: { formatter: formatCurrencyTick },
            },
            {
              opposite: true,
              title: { text: t('summaryDashboard.kpis.checks') },
              labels: { formatter: (value: number) => String(Math.round(value)) },
            },
          ],
          xaxis: { tickAmount: 8, labels: { rotate: -30, hideOverlappingLabels: true } },
          // The axis is short ($45K); the tooltip says the whole figure.
          tooltip: {
            y: {
              formatter: (value: number, { seriesIndex }: { seriesIndex: number }) =>
                seriesIndex === 0 ? formatFigure(value, 'currency', 'en') : String(value),
            },
          },
        },
      }}
      table={{
        caption: t(`summaryDashboard.overTime.title.${interval}`),
        columns: [
          { key: 'period', label: t('summaryDashboard.overTime.period') },
          { key: 'revenue', label: t('summaryDashboard.kpis.revenue'), format: 'currency' },
          { key: 'checks', label: t('summaryDashboard.kpis.checks'), format: 'count' },
        ],
        rows: series.map((row) => ({ period: row.period, revenue: row.revenue, checks: row.checks })),
      }}
    />
  );
}

/**
 * /analytics (Summary): the group at a glance. The six headline figures against the previous period, revenue
 * and checks over time, and a compact table of the locations (no trends: that is the Overview's).
 */
export function SummaryDashboardView({
  actor,
  ...range
}: { actor: SummaryDashboardActor } & DashboardRangeProps) {
  const { t } = useTranslation();
  const { figures, busy, empty } = useDashboardState(actor);
  return (
    <DashboardFrame
      actor={actor}
      title={t('summaryDashboard.title')}
      intro={t('summaryDashboard.intro')}
      {...range}
    >
      <Stack gap="lg">
        <SummaryKpis figures={figures} loading={busy} />
        <OverTimeCard figures={figures} loading={busy} empty={empty} />
        {figures && !empty && (
          <Paper withBorder radius="md" p="md">
            <Title order={3} size="h4" mb="sm">
              {t('summaryDashboard.table.title')}
            </Title>
            <LocationTable figures={figures} trend={false} />
          </Paper>
        )}
      </Stack>
    </DashboardFrame>
  );
}
