import type { TFunction } from 'i18next';
import type { Basket } from '../../schemas/basket-analytics.js';
import type { ChartTable } from '../kit/ChartCard.js';
import type { LazyChartProps } from '../kit/LazyChart.js';
import { formatFigure } from '../kit/figure-format.js';

/** How many items and categories the charts draw (the tables and CSV keep every row). */
export const CHART_ROWS = 12;

/** A horizontal bar chart of one figure per named row. */
function bars(
  names: string[],
  values: number[],
  seriesName: string,
  ariaLabel: string,
  format: (value: number) => string,
): LazyChartProps {
  return {
    type: 'bar',
    height: Math.max(200, names.length * 28 + 60),
    ariaLabel,
    series: [{ name: seriesName, data: values }],
    options: {
      plotOptions: { bar: { horizontal: true, barHeight: '70%' } },
      xaxis: {
        categories: names,
        tickAmount: 4,
        labels: { formatter: (value: string) => format(Number(value)) },
      },
      dataLabels: { enabled: false },
      tooltip: { y: { formatter: (value: number) => format(value) } },
    },
  };
}

/** The top items by checks: the chart and its table (every item listed). */
export function itemsChart(basket: Basket, t: TFunction, language: string) {
  const top = basket.items.slice(0, CHART_ROWS);
  const table: ChartTable = {
    caption: t('basketDashboard.items.caption'),
    columns: [
      { key: 'item', label: t('basketDashboard.columns.item') },
      { key: 'category', label: t('basketDashboard.columns.category') },
      { key: 'checks', label: t('basketDashboard.columns.checks'), format: 'count' },
      { key: 'units', label: t('basketDashboard.columns.units'), format: 'count' },
      { key: 'revenue', label: t('basketDashboard.columns.revenue'), format: 'currency' },
    ],
    rows: basket.items.map((item) => ({
      item: item.name,
      category: item.category,
      checks: item.checks,
      units: item.units,
      revenue: item.revenue,
    })),
  };
  const chart = bars(
    top.map((item) => item.name),
    top.map((item) => item.checks),
    t('basketDashboard.columns.checks'),
    t('basketDashboard.items.label'),
    (value) => formatFigure(value, 'count', language),
  );
  return { chart, table };
}

/** The attach rate of the top items. */
export function attachChart(basket: Basket, t: TFunction, language: string) {
  const top = basket.items.slice(0, CHART_ROWS);
  const table: ChartTable = {
    caption: t('basketDashboard.attach.caption'),
    columns: [
      { key: 'item', label: t('basketDashboard.columns.item') },
      { key: 'attach', label: t('basketDashboard.columns.attach'), format: 'percent' },
    ],
    rows: basket.items.map((item) => ({ item: item.name, attach: item.attach_rate })),
  };
  const chart = bars(
    top.map((item) => item.name),
    top.map((item) => Math.round(item.attach_rate * 100) / 100),
    t('basketDashboard.columns.attach'),
    t('basketDashboard.attach.label'),
    (value) => formatFigure(value, 'percent', language),
  );
  return { chart, table };
}

/** Checks and attach rate per category. */
export function categoriesChart(basket: Basket, t: TFunction, language: string) {
  const top = basket.categories.slice(0, CHART_ROWS);
  const table: ChartTable = {
    caption: t('basketDashboard.categories.caption'),
    columns: [
      { key: 'category', label: t('basketDashboard.columns.category') },
      { key: 'checks', label: t('basketDashboard.columns.checks'), format: 'count' },
      { key: 'units', label: t('basketDashboard.columns.units'), format: 'count' },
      { key: 'revenue', label: t('basketDashboard.columns.revenue'), format: 'currency' },
      { key: 'attach', label: t('basketDashboard.columns.attach'), format: 'percent' },
    ],
    rows: basket.categories.map((category) => ({
      category: category.category,
      checks: category.checks,
      units: category.units,
      revenue: category.revenue,
      attach: category.attach_rate,
    })),
  };
  const chart = bars(
    top.map((category) => category.category),
    top.map((category) => category.checks),
    t('basketDashboard.columns.checks'),
    t('basketDashboard.categories.label'),
    (value) => formatFigure(value, 'count', language),
  );
  return { chart, table };
}
