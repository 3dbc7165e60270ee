import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../kit/ChartCard.js';
import { formatCurrencyTick, formatFigure } from '../kit/figure-format.js';
import { DashboardFrame, type DashboardRangeProps } from '../kit/DashboardFrame.js';
import { useDashboardState } from '../kit/dashboard-state.js';
import type { SummaryDashboardActor } from './SummaryDashboardView.js';
import { LocationTable, SummaryKpis } from './SummaryParts.js';

/**
 * /aben-overview (Overview): location by location. The headline figures, each location's revenue as bars (beside
 * the previous period's when compared), and the full per-location table with its change and revenue trend.
 */
export function OverviewDashboardView({
  actor,
  ...range
}: { actor: SummaryDashboardActor } & DashboardRangeProps) {
  const { t } = useTranslation();
  const { figures, busy, empty } = useDashboardState(actor);
  const locations = figures?.locations ?? [];
  // Until the first answer the previous period is assumed (the dashboards open compared), so the note does not flip.
  const compared = !figures || figures.previous !== null;
  const series = [
    { name: t('overviewDashboard.thisPeriod'), data: locations.map((row) => row.revenue) },
    ...(compared
      ? [
          {
            name: t('overviewDashboard.previousPeriod'),
            data: locations.map((row) => row.previous_revenue ?? 0),
          },
        ]
      : []),
  ];
  return (
    <DashboardFrame
      actor={actor}
      title={t('overviewDashboard.title')}
      intro={t('overviewDashboard.intro')}
      {...range}
    >
      <Stack gap="lg">
        <SummaryKpis figures={figures} loading={busy} />
        <ChartCard
          title={t('overviewDashboard.byLocation')}
          description={t(
            compared ? 'overviewDashboard.byLocationHelp' : 'overviewDashboard.byLocationAloneHelp',
          )}
          loading={busy}
          emptyReason={empty ? t('summaryDashboard.empty') : null}
          csvName="revenue-by-location"
          chart={{
            type: 'bar',
            height: Math.max(220, locations.length * (compared ? 44 : 30) + 80),
            ariaLabel: t('overviewDashboard.byLocation'),
            series,
            options: {
              plotOptions: { bar: { horizontal: true, barHeight: '70%' } },
              xaxis: {
                categories: locations.map((row) => row.name),
                labels: { formatter: formatCurrencyTick },
              },
              // A phone's chart is narrow: fewer, shorter ticks so their labels do not run together.
              responsive: [{ breakpoint: 544, options: { xaxis: { tickAmount: 2 } } }],
              // The axis is short ($150K); the tooltip says the whole figure.
              tooltip: { y: { formatter: (value: number) => formatFigure(value, 'currency', 'en') } },
            },
          }}
          table={{
            caption: t('overviewDashboard.byLocation'),
            columns: [
              { key: 'name', label: t('summaryDashboard.table.location') },
              { key: 'revenue', label: t('overviewDashboard.thisPeriod'), format: 'currency' },
              // Without a comparison there is nothing to set beside this period.
              ...(compared
                ? ([
                    {
                      key: 'previous_revenue',
                      label: t('overviewDashboard.previousPeriod'),
                      format: 'currency',
                    },
                    { key: 'revenue_change', label: t('summaryDashboard.table.change'), format: 'percent' },
                  ] as const)
                : []),
            ],
            rows: locations.map((row) => ({
              name: row.name,
              revenue: row.revenue,
              previous_revenue: row.previous_revenue,
              revenue_change: row.revenue_change,
            })),
          }}
        />
        {figures && !empty && (
          <Paper withBorder radius="md" p="md">
            <Title order={3} size="h4">
              {t('summaryDashboard.table.title')}
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              {t('overviewDashboard.tableHelp')}
            </Text>
            <LocationTable figures={figures} trend />
          </Paper>
        )}
      </Stack>
    </DashboardFrame>
  );
}
