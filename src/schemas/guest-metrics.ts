import { z } from 'zod';

/** A guest's visits by day part, in the location's time zone (breakfast 05–11, lunch 11–16, dinner 16–22, late 22–05). */
export const DayPartMixSchema = z.object({
  breakfast: z.number().int(),
  lunch: z.number().int(),
  dinner: z.number().int(),
  late: z.number().int(),
});
/** Visits by day part. */
export type DayPartMix = z.infer<typeof DayPartMixSchema>;

/** The figures `guest_predictions` holds for one guest; money in dollars. */
export const GuestClvFiguresSchema = z.object({
  /** 0–1; null under the historical method, which cannot tell. */
  probability_alive: z.number().nullable(),
  /** Expected visits in the next 12 months. */
  clf: z.number(),
  expected_spend_per_visit: z.number(),
  /** Next 12 months' value, undiscounted. */
  annual_clv: z.number(),
  /** Value over the fit's horizon, discounted. */
  clv: z.number(),
});
/** One guest's CLV figures. */
export type GuestClvFigures = z.infer<typeof GuestClvFiguresSchema>;

/** The company's latest CLV fit as a guest's metrics name it, with the guest's figures (docs/clv.md). */
export const GuestClvSchema = z.object({
  /** 'model': BG/NBD + Gamma-Gamma; 'historical': too few repeat guests, last twelve months carried forward. */
  method: z.enum(['model', 'historical']),
  fitted_at: z.string(),
  /** The last day of history the fit saw (YYYY-MM-DD, company time zone). */
  calibration_end: z.string(),
  horizon_years: z.number(),
  /** Per year, 0–1. */
  discount_rate: z.number(),
  /** Null for a guest the fit did not see (no check before it ran). */
  figures: GuestClvFiguresSchema.nullable(),
});
/** A guest's CLV block. */
export type GuestClv = z.infer<typeof GuestClvSchema>;

/** What the POS data and the CLV fit say about one guest (docs/guest-data.md); money in dollars. */
export const GuestMetricsSchema = z.object({
  visits: z.number().int(),
  spend: z.number(),
  /** 0 before the first visit. */
  average_check: z.number(),
  first_visit_at: z.string().nullable(),
  last_visit_at: z.string().nullable(),
  /** Whole days, company time zone; null before the first visit. */
  days_since_last_visit: z.number().int().nullable(),
  visits_per_month: z.number(),
  favourite_location: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** By units, then checks; up to five. */
  favourite_items: z.array(
    z.object({
      menu_item_id: z.number().int(),
      name: z.string(),
      quantity: z.number().int(),
      checks: z.number().int(),
    }),
  ),
  day_parts: DayPartMixSchema,
  /** Known by POS id or by card, with a check. */
  trackable: z.boolean(),
  /** Linked to a subscribed email address. */
  marketable: z.boolean(),
  /** Null until the company's first CLV fit. */
  clv: GuestClvSchema.nullable(),
});
/** A guest's metrics. */
export type GuestMetrics = z.infer<typeof GuestMetricsSchema>;
