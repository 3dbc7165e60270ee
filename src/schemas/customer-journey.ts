import { z } from 'zod';
import { DashboardRangesSchema, dashboardQuerySchema } from './dashboard-query.js';

/**
 * The customer journey dashboard (`/heatmap`, `GET /api/analytics/customer-journey/`; docs/dashboards.md
 * "Customer journey"): where guests new in the range went next, how the days until the next visit change with
 * the visit number, and how many guests visit more than one location. A visit is a guest's local day at the
 * company, at the first of its locations by id.
 */

/** `GET /api/analytics/customer-journey/` query: the dashboards' common query. */
export const CustomerJourneyQuerySchema = dashboardQuerySchema;
/** `GET /api/analytics/customer-journey/` query. */
export type CustomerJourneyQuery = z.infer<typeof CustomerJourneyQuerySchema>;

/**
 * The highest visit number listed on its own; later visits are counted together as "10+". The rollup
 * `pos_journey_gaps` (migration 0049) counts visit numbers up to this one: a higher top needs it refilled.
 */
export const TOP_VISIT_NUMBER = 10;

/** The days-until-next-visit buckets of the heatmap (inclusive upper bounds; the last is open). */
export const GAP_BUCKETS = [
  { key: 'd1_7', upTo: 7 },
  { key: 'd8_14', upTo: 14 },
  { key: 'd15_30', upTo: 30 },
  { key: 'd31_60', upTo: 60 },
  { key: 'd61_90', upTo: 90 },
  { key: 'd91_180', upTo: 180 },
  { key: 'd181_plus', upTo: null },
] as const;
/** A days-until-next-visit bucket. */
export type GapBucket = (typeof GAP_BUCKETS)[number]['key'];

/** Guests new in the range by first location and where their next visit in the range was (null: none). */
export const JourneyMoveSchema = z.object({
  from_location_id: z.number().int(),
  to_location_id: z.number().int().nullable(),
  guests: z.number().int(),
});
/** One cell of the journey matrix. */
export type JourneyMove = z.infer<typeof JourneyMoveSchema>;

/** The days until the next visit of the range's visits with one visit number (10: the tenth and later). */
export const NextVisitGapSchema = z.object({
  visit_number: z.number().int(),
  visits: z.number().int(),
  /** Visits followed by another (at any later time on file). */
  returned: z.number().int(),
  /** Median and quartiles of the days until the next visit, of the visits that returned (null: none did). */
  median_days: z.number().nullable(),
  p25_days: z.number().nullable(),
  p75_days: z.number().nullable(),
  /** Shares (0–1, four decimals) of all the visits followed by another within 30, 60 and 90 days. */
  within_30: z.number(),
  within_60: z.number(),
  within_90: z.number(),
  /** Visits by days until the next one, in `GAP_BUCKETS` order; `not_returned` the rest. */
  buckets: z.array(z.number().int()),
  not_returned: z.number().int(),
});
/** One visit number's days until the next visit. */
export type NextVisitGap = z.infer<typeof NextVisitGapSchema>;

/** The headline figures of a range. */
export const JourneyTotalsSchema = z.object({
  /** Distinct guests with a visit at the locations in the range. */
  guests: z.number().int(),
  /** Of them, those who visited two or more of the company's locations in the range. */
  multi_location_guests: z.number().int(),
  /** `multi_location_guests / guests` (0–1, four decimals). */
  multi_location_share: z.number(),
  /** Guests whose first visit ever was in the range at the locations (the matrix's rows). */
  new_guests: z.number().int(),
  /** Of them, those who came back within the range. */
  returned_guests: z.number().int(),
  /** `returned_guests / new_guests` (0–1, four decimals). */
  return_rate: z.number(),
});
/** The headline figures of a range. */
export type JourneyTotals = z.infer<typeof JourneyTotalsSchema>;

/** `GET /api/analytics/customer-journey/` answer. */
export const CustomerJourneySchema = DashboardRangesSchema.extend({
  /** How many locations the company has: the matrix needs two. */
  company_locations: z.number().int(),
  /** The locations the matrix names (first or next visits), by name. */
  locations: z.array(z.object({ id: z.number().int(), name: z.string() })),
  moves: z.array(JourneyMoveSchema),
  gaps: z.array(NextVisitGapSchema),
  totals: JourneyTotalsSchema,
  previous_totals: JourneyTotalsSchema.nullable(),
});
/** `GET /api/analytics/customer-journey/` answer. */
export type CustomerJourney = z.infer<typeof CustomerJourneySchema>;
