import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import { COHORT_MONTHS } from '../../src/schemas/cohorts.js';
import { periodOf } from '../../src/schemas/dashboard-periods.js';
import {
  TOP_VISIT_COUNT,
  type GuestAnalytics,
  type GuestAnalyticsQuery,
  type GuestTotals,
} from '../../src/schemas/guest-analytics-dashboard.js';
import type { Database, Sql } from '../db/database.js';
import { guestsByPeriod, guestTotals, visitCounts } from '../repositories/guest-dashboard.repository.js';
import {
  presenceByPeriod,
  presenceTotals,
  presenceVisitCounts,
} from '../repositories/guest-presence.repository.js';
import { cohortRowsFor } from './cohorts.service.js';
import { resolveDashboardScope, type DashboardScope } from './dashboard-scope.js';

/**
 * The first day of the cohorts the heatmap shows: the range's own months, and at least the twelve months ending
 * with the range's last, so a short range still shows a year of cohorts leading up to it.
 */
export function cohortsFrom(range: DayBounds): string {
  const year = Number(range.to.slice(0, 4));
  const month = Number(range.to.slice(5, 7)) - 1 - (COHORT_MONTHS.default - 1);
  const first = new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
  return first < range.from ? first : range.from;
}

/**
 * The guests of a range: distinct, new to the company in it, returning (the others), their checks; summed from
 * the distinct-guest rows of the scope when it has them, else counted from the guest-day rows.
 */
async function totalsOf(sql: Sql, companyId: number, scope: DashboardScope, range: DayBounds) {
  const row = scope.presence
    ? await presenceTotals(sql, companyId, scope.presence, range)
    : await guestTotals(sql, companyId, scope.locationIds, range);
  return { ...row, returning_guests: row.guests - row.new_guests } satisfies GuestTotals;
}

/** The guest analytics dashboard (`GET /api/analytics/guests/`; docs/dashboards.md "Guest analytics"). */
export function guestAnalyticsDashboardService(db: Database) {
  return {
    /** New and returning guests, the visit-frequency distribution and the cohorts of the range's months. */
    async figures(companyId: number, query: GuestAnalyticsQuery): Promise<GuestAnalytics> {
      return db.tenant(companyId, async (sql) => {
        const scope = await resolveDashboardScope(sql, companyId, query);
        const range = { from: query.from_date, to: query.to_date };
        const previous = scope.previous && { from: scope.previous.from!, to: scope.previous.to! };
        const period = periodOf(range);
        const series = scope.presence
          ? await presenceByPeriod(sql, companyId, scope.presence, range, period)
          : await guestsByPeriod(sql, companyId, scope.locationIds, range, period);
        return {
          range,
          previous,
          totals: await totalsOf(sql, companyId, scope, range),
          previous_totals: previous && (await totalsOf(sql, companyId, scope, previous)),
          period,
          new_vs_returning: series.map((row) => ({
            period: row.period,
            new_guests: row.new_guests,
            returning_guests: row.guests - row.new_guests,
          })),
          visit_frequency: scope.presence
            ? await presenceVisitCounts(sql, companyId, scope.presence, range, TOP_VISIT_COUNT)
            : await visitCounts(sql, companyId, scope.locationIds, range, TOP_VISIT_COUNT),
          // The cohort calls' own reading (cohorts whose month holds a day of the asked days), a year of offsets.
          cohorts: await cohortRowsFor(sql, companyId, {
            location_id: query.location_id,
            location_group_id: query.location_group_id,
            from_date: cohortsFrom(range),
            to_date: query.to_date,
            months: COHORT_MONTHS.default,
          }),
        };
      });
    },
  };
}

/** The guest analytics dashboard service. */
export type GuestAnalyticsDashboardService = ReturnType<typeof guestAnalyticsDashboardService>;
