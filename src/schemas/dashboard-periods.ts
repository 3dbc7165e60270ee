import { addDays, daysIn, type DayBounds } from './dashboard-query.js';

/**
 * How every dashboard groups its figures over time (docs/dashboards.md, "Periods"): one rule, so two screens
 * showing the same range never disagree on whether it is drawn by weeks or by months.
 */

/** The periods a dashboard's series is grouped by. */
export const DASHBOARD_PERIODS = ['day', 'week', 'month'] as const;
/** How a dashboard's series is grouped. */
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

/** Ranges up to this many days are drawn by day … */
export const MAX_DAILY_DAYS = 31;
/** … up to this many (26 whole weeks) by week, longer ones by month. */
export const MAX_WEEKLY_DAYS = 182;

/** How a range's series is grouped: days up to 31 days, weeks up to 26 weeks (182 days), months beyond. */
export function periodOf(range: DayBounds): DashboardPeriod {
  const days = daysIn(range);
  return days <= MAX_DAILY_DAYS ? 'day' : days <= MAX_WEEKLY_DAYS ? 'week' : 'month';
}

/** The first day of a day's period: itself, its week's Monday, or its month's first day. */
export function periodStart(day: string, period: DashboardPeriod): string {
  if (period === 'day') return day;
  if (period === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The first day of every period of a range, in order (the first may start before the range). */
export function periodsOf(range: DayBounds, period: DashboardPeriod): string[] {
  const periods: string[] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    const start = periodStart(day, period);
    if (periods.at(-1) !== start) periods.push(start);
  }
  return periods;
}
