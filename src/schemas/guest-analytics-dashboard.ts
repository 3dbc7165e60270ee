import { z } from 'zod';
import { CohortRowSchema } from './cohorts.js';
import { DASHBOARD_PERIODS } from './dashboard-periods.js';
import { DashboardRangesSchema, dashboardQuerySchema } from './dashboard-query.js';

/**
 * The guest analytics dashboard (`/guest/analytics`, `GET /api/analytics/guests/`; docs/dashboards.md "Guest
 * analytics"): new and returning guests over the range, how often they came, and the monthly cohorts.
 */

/** `GET /api/analytics/guests/` query: the dashboards' common query. */
export const GuestAnalyticsQuerySchema = dashboardQuerySchema;
/** `GET /api/analytics/guests/` query. */
export type GuestAnalyticsQuery = z.infer<typeof GuestAnalyticsQuerySchema>;

/** The periods the new/returning series is grouped by (`periodOf`, src/schemas/dashboard-periods.ts). */
export const GUEST_PERIODS = DASHBOARD_PERIODS;
/** How the new/returning series is grouped. */
export type GuestPeriod = (typeof GUEST_PERIODS)[number];

/** The highest visit count listed on its own; guests with more are counted in its row ("10 or more"). */
export const TOP_VISIT_COUNT = 10;

/** Guests of a range at the locations: distinct guests, those new to the company, and their visits (checks). */
export const GuestTotalsSchema = z.object({
  guests: z.number().int(),
  new_guests: z.number().int(),
  returning_guests: z.number().int(),
  visits: z.number().int(),
});
/** Guests of a range at the locations. */
export type GuestTotals = z.infer<typeof GuestTotalsSchema>;

/** One period of the series: its first day, the guests whose first visit to the company is in it, the others. */
export const GuestPeriodRowSchema = z.object({
  period: z.string(),
  new_guests: z.number().int(),
  returning_guests: z.number().int(),
});
/** One period of the new/returning series. */
export type GuestPeriodRow = z.infer<typeof GuestPeriodRowSchema>;

/** Guests with `visits` checks in the range (`TOP_VISIT_COUNT`: that many or more). */
export const VisitFrequencyRowSchema = z.object({ visits: z.number().int(), guests: z.number().int() });
/** One row of the visit-frequency distribution. */
export type VisitFrequencyRow = z.infer<typeof VisitFrequencyRowSchema>;

/** `GET /api/analytics/guests/` answer. */
export const GuestAnalyticsSchema = DashboardRangesSchema.extend({
  totals: GuestTotalsSchema,
  previous_totals: GuestTotalsSchema.nullable(),
  period: z.enum(GUEST_PERIODS),
  new_vs_returning: z.array(GuestPeriodRowSchema),
  visit_frequency: z.array(VisitFrequencyRowSchema),
  cohorts: z.array(CohortRowSchema),
});
/** `GET /api/analytics/guests/` answer. */
export type GuestAnalytics = z.infer<typeof GuestAnalyticsSchema>;
