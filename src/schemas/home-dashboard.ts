import { z } from 'zod';
import { SalesKpisSchema } from './dashboard-figures.js';
import { DashboardRangesSchema } from './dashboard-query.js';
import { DAY_PARTS } from './segment-catalogue.js';

/**
 * The home dashboard's calls (`/dashboard` and `/marketing-analytics`, docs/dashboards.md, "Recommendations"):
 * the chart data of spec §3 (`charts`, `emails`, `revenue`), the KPI cards against the previous period, and the
 * ranked recommendations, each with the segment its click saves. Both calls take `dashboardQuerySchema`.
 */

/** One point of a chart: a local day and its figure. */
export const ChartPointSchema = z.object({ x: z.string(), y: z.number() });

/** The names of the chart data's series. */
export const HOME_CHART_NAMES = ['revenue', 'checks', 'previous_revenue'] as const;
/** One series's name. */
export type HomeChartName = (typeof HOME_CHART_NAMES)[number];

/** `GET /api/analytics/chart-data/`: spec §3 "Chart data: charts [{name, data}], emails, revenue". */
export const ChartDataSchema = DashboardRangesSchema.extend({
  charts: z.array(z.object({ name: z.enum(HOME_CHART_NAMES), data: z.array(ChartPointSchema) })),
  /** Emails sent (campaigns and flows) in the range, over the whole company. */
  emails: z.number().int(),
  /** Revenue of the range's checks at the picked locations, in dollars. */
  revenue: z.number(),
});
/** The chart data call's answer. */
export type ChartData = z.infer<typeof ChartDataSchema>;

/** The KPI cards' figures over one range. */
export const HomeKpisSchema = SalesKpisSchema;
/** The KPI cards' figures. */
export type HomeKpis = z.infer<typeof HomeKpisSchema>;

/** The kinds of recommendation, in the order they are documented. */
export const RECOMMENDATION_KINDS = [
  'lapsed_regulars',
  'birthdays',
  'slow_day_part',
  'untried_item',
] as const;
/** One kind of recommendation. */
export type RecommendationKind = (typeof RECOMMENDATION_KINDS)[number];

/** The segment a recommendation's click saves (`POST /api/campaigns/segments/`), the name left to the client. */
export const RecommendedSegmentSchema = z.object({
  description: z.string(),
  location_ids: z.array(z.number().int()),
  group_ids: z.array(z.number().int()),
  segment_groups: z.array(z.object({ segment_rules: z.array(z.record(z.string(), z.unknown())) })),
});
/** A recommendation's segment. */
export type RecommendedSegment = z.infer<typeof RecommendedSegmentSchema>;

/** What a recommendation is about: the figures its sentence names. */
export const RecommendationDetailsSchema = z.object({
  location_id: z.number().int().nullable(),
  location_name: z.string().nullable(),
  month: z.number().int().nullable(),
  weekday: z.number().int().nullable(),
  day_part: z.enum(DAY_PARTS).nullable(),
  /** The day part's checks per such weekday of the range, and the five weekdays' average (two decimals). */
  checks: z.number().nullable(),
  average_checks: z.number().nullable(),
  item_id: z.number().int().nullable(),
  item_name: z.string().nullable(),
});
/** A recommendation's details. */
export type RecommendationDetails = z.infer<typeof RecommendationDetailsSchema>;

/** One ranked recommendation. */
export const RecommendationSchema = z.object({
  kind: z.enum(RECOMMENDATION_KINDS),
  /** The guests of its segment, counted as the saved segment counts them. */
  audience: z.number().int(),
  /** The assumed share of the audience that comes back for it (docs/dashboards.md). */
  response_rate: z.number(),
  /**
   * audience × response rate × the range's average check, in dollars: the score it is ranked by; null when the
   * range has no checks (no average check to price it by).
   */
  expected_revenue: z.number().nullable(),
  details: RecommendationDetailsSchema,
  segment: RecommendedSegmentSchema,
});
/** One recommendation. */
export type Recommendation = z.infer<typeof RecommendationSchema>;

/** `GET /api/analytics/recommendations/`: the KPI cards and the ranked recommendations. */
export const HomeDashboardSchema = DashboardRangesSchema.extend({
  kpis: HomeKpisSchema,
  /** The same figures over the previous period (null without `compare=previous`). */
  previous_kpis: HomeKpisSchema.nullable(),
  recommendations: z.array(RecommendationSchema),
  /**
   * When the earliest of the recommendations' audiences was counted (ISO instant): they are kept for the company's
   * day until a CSV import ends or its next refresh (docs/dashboards.md, "Recommendations"); null without any.
   */
  audiences_counted_at: z.string().datetime().nullable(),
  /**
   * Some recommendations' audiences are still being counted (the day's first ask of these locations and range at a
   * large company): they are left out of `recommendations` until counted, and the client asks again shortly.
   */
  audiences_counting: z.boolean(),
});
/** The recommendations call's answer. */
export type HomeDashboard = z.infer<typeof HomeDashboardSchema>;
