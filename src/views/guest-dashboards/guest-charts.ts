import type { CohortRow } from '../../schemas/cohorts.js';
import { sharePercent } from '../kit/figure-format.js';

/**
 * The cohort heatmap's series: one row per cohort (newest on top, as ApexCharts draws the last series first),
 * a cell per month since — the share returning in percent (two decimals) or the revenue in dollars. Months a
 * cohort has not reached yet are left out, so the triangle shows.
 */
export function cohortHeatmap(
  cohorts: readonly CohortRow[],
  metric: 'retention' | 'revenue',
  columnName: (offset: number) => string,
): { name: string; data: { x: string; y: number }[] }[] {
  const width = Math.max(0, ...cohorts.map((row) => row.months.length));
  return cohorts.map((row) => ({
    name: row.cohort,
    data: Array.from({ length: width }, (_, offset) => {
      const month = row.months[offset];
      const value = !month
        ? null
        : metric === 'retention'
          ? sharePercent(month.retention)
          : Math.round(month.revenue * 100) / 100;
      return { x: columnName(offset), y: value as number };
    }),
  }));
}
