import { z } from 'zod';
import { DASHBOARD_PERIODS } from './dashboard-periods.js';
import { SalesKpisSchema } from './dashboard-figures.js';
import { DashboardRangesSchema } from './dashboard-query.js';

/**
 * `GET /api/analytics/summary/` (docs/dashboards.md): the figures of /analytics (Summary) and /aben-overview
 * (Overview), from the daily rollups. Money in dollars; days are the company's local days, both ends inclusive.
 */

/** The periods the figures over time are grouped by (`periodOf`, src/schemas/dashboard-periods.ts). */
export const SUMMARY_INTERVALS = DASHBOARD_PERIODS;

/** Headline figures of a range: revenue, checks, distinct guests, average check, new and returning guests. */
export const SummaryTotalsSchema = SalesKpisSchema;
/** Headline figures of a range. */
export type SummaryTotals = z.infer<typeof SummaryTotalsSchema>;

/** Revenue and checks of one period (its first day; weeks start on Monday). */
export const SummaryPeriodSchema = z.object({
  period: z.string(),
  revenue: z.number(),
  checks: z.number().int(),
});
/** Revenue and checks of one period. */
export type SummaryPeriod = z.infer<typeof SummaryPeriodSchema>;

/** One location's figures in the range, its revenue in the previous period and its revenue per period. */
export const SummaryLocationSchema = z.object({
  location_id: z.number().int(),
  name: z.string(),
  revenue: z.number(),
  checks: z.number().int(),
  guests: z.number().int(),
  /** Null without checks. */
  average_check: z.number().nullable(),
  /** Null without a comparison. */
  previous_revenue: z.number().nullable(),
  /** Revenue change in percent against the previous period; null without one or when it had no revenue. */
  revenue_change: z.number().nullable(),
  /** Revenue per period of the range, in the order of `series`. */
  trend: z.array(z.number()),
});
/** One location's figures. */
export type SummaryLocation = z.infer<typeof SummaryLocationSchema>;

/** `GET /api/analytics/summary/` answer. */
export const AnalyticsSummarySchema = DashboardRangesSchema.extend({
  interval: z.enum(SUMMARY_INTERVALS),
  totals: SummaryTotalsSchema,
  /** The previous period's headline figures; null without `compare=previous`. */
  previous_totals: SummaryTotalsSchema.nullable(),
  series: z.array(SummaryPeriodSchema),
  locations: z.array(SummaryLocationSchema),
});
/** `GET /api/analytics/summary/` answer. */
export type AnalyticsSummary = z.infer<typeof AnalyticsSummarySchema>;
