import { z } from 'zod';
import { checkDashboardRange, dashboardQueryFields, DashboardRangesSchema } from './dashboard-query.js';
import { urlWholeNumber } from './numbers.js';

/**
 * The consumer insights dashboard (`/consumer/insights/analytics`, `GET /api/analytics/consumer-insights/`;
 * docs/dashboards.md "Consumer insights"): when guests come (weekday × hour), party sizes, day parts, the days
 * between a guest's visits, and a segment's favourite categories beside every guest's.
 */

/** `GET /api/analytics/consumer-insights/` query: the dashboards' query and an optional saved segment. */
export const ConsumerInsightsQuerySchema = dashboardQueryFields
  .extend({ segment_id: urlWholeNumber('segment_id must be a positive whole number').optional() })
  .superRefine(checkDashboardRange);
/** `GET /api/analytics/consumer-insights/` query. */
export type ConsumerInsightsQuery = z.infer<typeof ConsumerInsightsQuerySchema>;

/** Party sizes: the checks' guest counts, six and more together. */
export const PARTY_SIZES = ['1', '2', '3', '4', '5', '6_plus'] as const;
/** A party size bucket. */
export type PartySize = (typeof PARTY_SIZES)[number];

/** The day parts of `day_part()` (migration 0016), in the day's order. */
export const INSIGHT_DAY_PARTS = ['breakfast', 'lunch', 'dinner', 'late'] as const;
/** A day part. */
export type InsightDayPart = (typeof INSIGHT_DAY_PARTS)[number];

/** Days between a guest's visits: 1–7 (the same week), 8–14, 15–30, 31–60, 61–90, 91 and more. */
export const RETURN_GAP_BUCKETS = ['1_7', '8_14', '15_30', '31_60', '61_90', '91_plus'] as const;
/** A bucket of days between visits. */
export type ReturnGapBucket = (typeof RETURN_GAP_BUCKETS)[number];

/** How many categories the favourites list. */
export const TOP_CATEGORY_COUNT = 10;

/** The range's checks at the locations: revenue in dollars; the averages null without checks. */
export const InsightTotalsSchema = z.object({
  checks: z.number().int(),
  revenue: z.number(),
  covers: z.number().int(),
  average_check: z.number().nullable(),
  average_party: z.number().nullable(),
});
/** The range's totals. */
export type InsightTotals = z.infer<typeof InsightTotalsSchema>;

/** One day part's checks, revenue and average check (null without checks). */
export const DayPartFiguresSchema = z.object({
  day_part: z.enum(INSIGHT_DAY_PARTS),
  checks: z.number().int(),
  revenue: z.number(),
  average_check: z.number().nullable(),
});

/** The return visits of a range by days since the guest's previous visit, with the median. */
export const ReturnVisitGapsSchema = z.object({
  visits: z.number().int(),
  median_days: z.number().nullable(),
  buckets: z.array(z.object({ gap: z.enum(RETURN_GAP_BUCKETS), visits: z.number().int() })),
});
/** The return visits by days since the previous one. */
export type ReturnVisitGaps = z.infer<typeof ReturnVisitGapsSchema>;

/** One category's items and revenue for the segment and for every guest, with their shares (0–100). */
export const CategoryShareSchema = z.object({
  category_id: z.number().int(),
  category: z.string(),
  units: z.number().int(),
  revenue: z.number(),
  units_share: z.number(),
  revenue_share: z.number(),
  all_units: z.number().int(),
  all_revenue: z.number(),
  all_units_share: z.number(),
  all_revenue_share: z.number(),
});
/** One category's shares. */
export type CategoryShare = z.infer<typeof CategoryShareSchema>;

/** `GET /api/analytics/consumer-insights/` answer. */
export const ConsumerInsightsSchema = DashboardRangesSchema.extend({
  totals: InsightTotalsSchema,
  previous_totals: InsightTotalsSchema.nullable(),
  /** Every weekday (ISO: 1 Monday … 7 Sunday) × hour (0–23) of opening, in the company's zone: 168 cells. */
  hours: z.array(
    z.object({
      weekday: z.number().int(),
      hour: z.number().int(),
      checks: z.number().int(),
      revenue: z.number(),
    }),
  ),
  party_sizes: z.array(z.object({ size: z.enum(PARTY_SIZES), checks: z.number().int() })),
  day_parts: z.array(DayPartFiguresSchema),
  previous_day_parts: z.array(DayPartFiguresSchema).nullable(),
  visit_gaps: ReturnVisitGapsSchema,
  previous_visit_gaps: ReturnVisitGapsSchema.nullable(),
  /** The company's saved segments for the picker, by name. */
  segments: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** The favourite categories: the segment's (every guest's without one) beside every guest's. */
  categories: z.object({
    segment_id: z.number().int().nullable(),
    /** Members with an item on a check at the locations in the range (every guest: the guests with one). */
    guests: z.number().int(),
    units: z.number().int(),
    revenue: z.number(),
    all_units: z.number().int(),
    all_revenue: z.number(),
    rows: z.array(CategoryShareSchema),
  }),
});
/** `GET /api/analytics/consumer-insights/` answer. */
export type ConsumerInsights = z.infer<typeof ConsumerInsightsSchema>;
