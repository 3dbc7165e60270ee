import type { AnalyticsSummary, SummaryPeriod } from '../../src/schemas/analytics-summary.js';
import { averageCheck, changeOf, dollars } from '../../src/schemas/dashboard-figures.js';
import { periodOf, periodsOf } from '../../src/schemas/dashboard-periods.js';
import type { DashboardQuery } from '../../src/schemas/dashboard-query.js';
import type { Database } from '../db/database.js';
import { locationPeriodSales } from '../repositories/analytics-summary.repository.js';
import { locationEarnings } from '../repositories/pos-analytics.repository.js';
import { salesKpis } from './dashboard-kpis.js';
import { resolveDashboardScope } from './dashboard-scope.js';

/** Two decimals (a change in percent). */
const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

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
        const interval = periodOf(range);
        const periods = periodsOf(range, interval);
        const totals = await salesKpis(sql, companyId, scope.locationIds, range, scope.presence);
        const previousTotals = previous
          ? await salesKpis(sql, companyId, scope.locationIds, previous, scope.presence)
          : null;
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
              revenue_change: round2(changeOf(cents, prior)),
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
