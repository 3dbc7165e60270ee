import type { AnalyticsSummary, SummaryPeriod, SummaryTotals } from '../../src/schemas/analytics-summary.js';
import { addDays, daysIn, type DashboardQuery } from '../../src/schemas/dashboard-query.js';
import type { Database, Sql } from '../db/database.js';
import { locationPeriodSales } from '../repositories/analytics-summary.repository.js';
import { locationEarnings, salesFigures } from '../repositories/pos-analytics.repository.js';
import { resolveDashboardScope } from './dashboard-scope.js';

type Interval = AnalyticsSummary['interval'];

/** Cents as dollars. */
const dollars = (cents: number | string) => Number(cents) / 100;

/** The average check in dollars (cents rounded), 0 without checks. */
const averageCheck = (cents: number, checks: number) => (checks === 0 ? 0 : Math.round(cents / checks) / 100);

/** Change in percent from `previous` to `value`, rounded to two places; null from nothing. */
const changeOf = (value: number, previous: number | null) =>
  previous === null || previous === 0 ? null : Math.round(((value - previous) / previous) * 10_000) / 100;

/** How the figures over time are grouped: days up to 31 days, weeks up to 26 weeks (182 days), else months. */
export function intervalOf(range: { from: string; to: string }): Interval {
  const days = daysIn(range);
  return days <= 31 ? 'day' : days <= 182 ? 'week' : 'month';
}

/** The first day of every period of a range (weeks start on Monday), in order. */
export function periodsOf(range: { from: string; to: string }, interval: Interval): string[] {
  const startOf = (day: string) => {
    if (interval === 'day') return day;
    if (interval === 'month') return `${day.slice(0, 7)}-01`;
    const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
    return addDays(day, -weekday);
  };
  const periods: string[] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    const start = startOf(day);
    if (periods.at(-1) !== start) periods.push(start);
  }
  return periods;
}

/** A range's headline figures (`salesFigures` from the rollups). */
async function totalsOf(
  sql: Sql,
  companyId: number,
  locations: number[] | null,
  range: { from: string; to: string },
): Promise<SummaryTotals> {
  const row = await salesFigures(sql, companyId, locations, range);
  const revenueCents = Number(row.revenue_cents);
  const checks = Number(row.checks);
  const guests = Number(row.guests);
  const newGuests = Number(row.new_guests);
  return {
    revenue: dollars(revenueCents),
    checks,
    guests,
    average_check: averageCheck(revenueCents, checks),
    new_guests: newGuests,
    returning_guests: guests - newGuests,
  };
}

/** The Summary and Overview dashboards' call (docs/dashboards.md, "Summary and Overview"). */
export function analyticsSummaryService(db: Database) {
  return {
    /**
     * The range's headline figures (and the previous period's with `compare=previous`), revenue and checks per
     * period, and each location's figures with its revenue change and its revenue per period: one transaction,
     * so every figure reads the same rollups.
     */
    async summary(companyId: number, query: DashboardQuery): Promise<AnalyticsSummary> {
      return db.tenant(companyId, async (sql) => {
        const scope = await resolveDashboardScope(sql, companyId, query);
        const range = { from: query.from_date, to: query.to_date };
        const previous = scope.previous ? { from: scope.previous.from!, to: scope.previous.to! } : null;
        const interval = intervalOf(range);
        const periods = periodsOf(range, interval);
        const totals = await totalsOf(sql, companyId, scope.locationIds, range);
        const previousTotals = previous ? await totalsOf(sql, companyId, scope.locationIds, previous) : null;
        const earnings = await locationEarnings(sql, companyId, scope.locationIds, range);
        const before = previous ? await locationEarnings(sql, companyId, scope.locationIds, previous) : [];
        const rows = await locationPeriodSales(sql, companyId, scope.locationIds, range, interval);

        const index = new Map(periods.map((period, at) => [period, at]));
        const series: SummaryPeriod[] = periods.map((period) => ({ period, revenue: 0, checks: 0 }));
        const trends = new Map<number, number[]>();
        for (const row of rows) {
          const at = index.get(row.period)!;
          const cents = Number(row.revenue_cents);
          series[at]!.revenue += cents;
          series[at]!.checks += Number(row.checks);
          const trend = trends.get(Number(row.location_id)) ?? periods.map(() => 0);
          trend[at] = dollars(cents);
          trends.set(Number(row.location_id), trend);
        }
        const previousCents = new Map(
          before.map((row) => [Number(row.location_id), Number(row.revenue_cents)]),
        );
        return {
          range,
          previous,
          interval,
          totals,
          previous_totals: previousTotals,
          series: series.map((period) => ({ ...period, revenue: dollars(period.revenue) })),
          locations: earnings.map((row) => {
            const id = Number(row.location_id);
            const cents = Number(row.revenue_cents);
            const checks = Number(row.checks);
            const prior = previous ? (previousCents.get(id) ?? 0) : null;
            return {
              location_id: id,
              name: row.name,
              revenue: dollars(cents),
              checks,
              guests: Number(row.guests),
              average_check: averageCheck(cents, checks),
              previous_revenue: prior === null ? null : dollars(prior),
              revenue_change: changeOf(cents, prior),
              trend: trends.get(id) ?? periods.map(() => 0),
            };
          }),
        };
      });
    },
  };
}

/** The Summary and Overview dashboards' service. */
export type AnalyticsSummaryService = ReturnType<typeof analyticsSummaryService>;
