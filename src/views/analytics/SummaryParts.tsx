import { SimpleGrid, Table, Text } from '@mantine/core';
import { GAIN_TEXT, LOSS_TEXT } from '../shell/contrast.js';
import { useTranslation } from 'react-i18next';
import type { AnalyticsSummary, SummaryTotals } from '../../schemas/analytics-summary.js';
import { formatFigure, type FigureFormat } from '../kit/figure-format.js';
import { KpiCard } from '../kit/KpiCard.js';

const KPIS: [keyof SummaryTotals, FigureFormat][] = [
  ['revenue', 'currency'],
  ['checks', 'count'],
  ['guests', 'count'],
  ['average_check', 'currency'],
  ['new_guests', 'count'],
  ['returning_guests', 'count'],
];

/** The six headline figures against the previous period (Summary and Overview alike). */
export function SummaryKpis({ figures, loading }: { figures: AnalyticsSummary | null; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
      {KPIS.map(([key, format]) => (
        <KpiCard
          key={key}
          label={t(`summaryDashboard.kpis.${key}`)}
          value={figures ? figures.totals[key] : null}
          previous={figures?.previous_totals ? figures.previous_totals[key] : null}
          format={format}
          loading={loading}
        />
      ))}
    </SimpleGrid>
  );
}

/** A location's revenue per period as a small line (an image with its figures as its name). */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const width = 96;
  const height = 24;
  const top = Math.max(...values, 0);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const points = values
    .map(
      (value, at) =>
        `${(at * step).toFixed(1)},${(height - 2 - (top === 0 ? 0 : (value / top) * (height - 4))).toFixed(1)}`,
    )
    .join(' ');
  return (
    <svg width={width} height={height} role="img" aria-label={label} style={{ display: 'block' }}>
      <polyline points={points} fill="none" stroke="#1c7ed6" strokeWidth={1.5} />
    </svg>
  );
}

/**
 * The per-location table: revenue, checks, guests, average check, change against the previous period and, with
 * `trend`, the revenue per period as a sparkline. Scrolls sideways on a phone.
 */
export function LocationTable({ figures, trend }: { figures: AnalyticsSummary; trend: boolean }) {
  const { t, i18n } = useTranslation();
  const figure = (value: number | null, format: FigureFormat) => formatFigure(value, format, i18n.language);
  return (
    <Table.ScrollContainer minWidth={trend ? 720 : 560}>
      <Table striped highlightOnHover fz="sm" data-testid="location-table">
        <Table.Caption>{t('summaryDashboard.table.caption')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('summaryDashboard.table.location')}</Table.Th>
            <Table.Th scope="col" ta="right">
              {t('summaryDashboard.kpis.revenue')}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {t('summaryDashboard.kpis.checks')}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {t('summaryDashboard.kpis.guests')}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {t('summaryDashboard.kpis.average_check')}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {t('summaryDashboard.table.change')}
            </Table.Th>
            {trend && <Table.Th scope="col">{t('summaryDashboard.table.trend')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {figures.locations.map((row) => (
            <Table.Tr key={row.location_id}>
              <Table.Th scope="row" fw={500}>
                {row.name}
              </Table.Th>
              <Table.Td ta="right">{figure(row.revenue, 'currency')}</Table.Td>
              <Table.Td ta="right">{figure(row.checks, 'count')}</Table.Td>
              <Table.Td ta="right">{figure(row.guests, 'count')}</Table.Td>
              <Table.Td ta="right">
                {row.average_check === null ? '—' : figure(row.average_check, 'currency')}
              </Table.Td>
              <Table.Td ta="right">
                {row.revenue_change === null ? (
                  <Text span c="dimmed">
                    —
                  </Text>
                ) : (
                  <Text span c={row.revenue_change >= 0 ? GAIN_TEXT : LOSS_TEXT} fw={600}>
                    {row.revenue_change >= 0 ? '▲' : '▼'} {figure(Math.abs(row.revenue_change), 'percent')}
                  </Text>
                )}
              </Table.Td>
              {trend && (
                <Table.Td>
                  <Sparkline
                    values={row.trend}
                    label={t('summaryDashboard.table.trendOf', {
                      name: row.name,
                      values: row.trend.map((value) => figure(value, 'currency')).join(', '),
                    })}
                  />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
