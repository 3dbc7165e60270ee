import { z } from 'zod';
import { DashboardRangesSchema, dashboardQuerySchema } from './dashboard-query.js';

/**
 * The demographics dashboard (`/demographics`, `GET /api/analytics/demographics/`; docs/dashboards.md
 * "Demographics"): the people of a range at the locations — guests who came, with what their linked subscriber
 * gave, and subscribers who joined there — by age band, home zip code, zip against the location's, and kind.
 */

/** `GET /api/analytics/demographics/` query: the dashboards' common query. */
export const DemographicsQuerySchema = dashboardQuerySchema;
/** `GET /api/analytics/demographics/` query. */
export type DemographicsQuery = z.infer<typeof DemographicsQuerySchema>;

/** Age bands, in years at the range's last day. */
export const AGE_BANDS = ['under_18', '18_24', '25_34', '35_44', '45_54', '55_64', '65_plus'] as const;
/** An age band. */
export type AgeBand = (typeof AGE_BANDS)[number];

/** How many home zip codes are listed by name; the rest are counted together. */
export const TOP_ZIP_COUNT = 10;

/** The people by kind: guests with a linked subscriber, guests without, subscribers who did not come. */
export const PeopleShareSchema = z.object({
  people: z.number().int(),
  guests_subscribed: z.number().int(),
  guests_only: z.number().int(),
  subscribers_only: z.number().int(),
});
/** The people by kind. */
export type PeopleShare = z.infer<typeof PeopleShareSchema>;

/** `GET /api/analytics/demographics/` answer. */
export const DemographicsSchema = DashboardRangesSchema.extend({
  share: PeopleShareSchema,
  previous_share: PeopleShareSchema.nullable(),
  age_bands: z.array(z.object({ band: z.enum(AGE_BANDS), people: z.number().int() })),
  no_birthday: z.number().int(),
  zips: z.array(z.object({ zip: z.string(), people: z.number().int(), share: z.number() })),
  other_zips: z.number().int(),
  no_zip: z.number().int(),
  distance: z.object({
    same_zip: z.number().int(),
    elsewhere: z.number().int(),
    unknown: z.number().int(),
  }),
});
/** `GET /api/analytics/demographics/` answer. */
export type Demographics = z.infer<typeof DemographicsSchema>;
