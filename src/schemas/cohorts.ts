import { z } from 'zod';
import { IsoDateSchema, repeated } from './common.js';
import { urlWholeNumber } from './numbers.js';

/**
 * The cohort calls of spec section 7 (`GET /bigdata/cohort/`, `GET /benchmark/cohort/`): monthly first-visit
 * cohorts with retention and revenue by month since (docs/guest-data.md "Cohorts"). Months are in the
 * company's time zone; money in dollars; retention a fraction from 0 to 1.
 */

/** Month offsets answered when `months` is not given, and the most that may be asked. */
export const COHORT_MONTHS = { default: 12, max: 60 } as const;

/** `GET /bigdata/cohort/` and `GET /benchmark/cohort/` query. */
export const CohortQuerySchema = z
  .object({
    location_id: repeated(urlWholeNumber('location_id is not valid')),
    location_group_id: repeated(urlWholeNumber('location_group_id is not valid')),
    from_date: IsoDateSchema.optional(),
    to_date: IsoDateSchema.optional(),
    months: urlWholeNumber(`months must be a whole number from 1 to ${COHORT_MONTHS.max}`, {
      max: COHORT_MONTHS.max,
    }).default(COHORT_MONTHS.default),
  })
  .refine((query) => !query.from_date || !query.to_date || query.from_date <= query.to_date, {
    message: 'to_date must not be before from_date',
    path: ['to_date'],
  });
/** The cohort calls' query. */
export type CohortQuery = z.infer<typeof CohortQuerySchema>;

/** One cohort in one month since its first: who came back, what they spent, on how many checks. */
export const CohortMonthSchema = z.object({
  /** Months since the cohort's month (0: the month itself). */
  offset: z.number().int(),
  /** The calendar month, `YYYY-MM`. */
  month: z.string(),
  active: z.number().int(),
  /** active ÷ the cohort's size. */
  retention: z.number(),
  revenue: z.number(),
  checks: z.number().int(),
});

/** One cohort: the guests whose first visit (at the filter's locations) fell in `cohort`. */
export const CohortRowSchema = z.object({
  /** `YYYY-MM`. */
  cohort: z.string(),
  size: z.number().int(),
  months: z.array(CohortMonthSchema),
});
/** One cohort row. */
export type CohortRow = z.infer<typeof CohortRowSchema>;

/** `GET /bigdata/cohort/` answer: the cohorts of the filter, oldest first. */
export const CohortListSchema = z.object({ results: z.array(CohortRowSchema) });
/** `GET /bigdata/cohort/` answer. */
export type CohortList = z.infer<typeof CohortListSchema>;

/**
 * The company's average at one offset, over its cohorts (all locations, the same cohort months) that have
 * reached it: weighted by cohort size.
 */
export const CohortBaselineMonthSchema = z.object({
  offset: z.number().int(),
  /** How many cohorts had reached this offset. */
  cohorts: z.number().int(),
  /** Their guests together. */
  size: z.number().int(),
  active: z.number().int(),
  retention: z.number(),
  revenue_per_guest: z.number(),
  checks_per_guest: z.number(),
});

/** `GET /benchmark/cohort/` answer: the filter's cohorts beside the company's baseline. */
export const CohortBenchmarkSchema = CohortListSchema.extend({
  baseline: z.object({ months: z.array(CohortBaselineMonthSchema) }),
});
/** `GET /benchmark/cohort/` answer. */
export type CohortBenchmark = z.infer<typeof CohortBenchmarkSchema>;
