import { z } from 'zod';
import { repeated } from './common.js';
import { urlWholeNumber } from './numbers.js';
import { SegmentCacheSchema } from './segment-records.js';

/**
 * `GET /benchmark/segment-dashboardv2/{id}/` (docs/segments.md): one segment's cached figures and the
 * distributions of its members' visits, spend and locations, shared by the server and the dashboard panel.
 */

/** The visit buckets' lower bounds: 0, 1, 2, 3, 4–5, 6–10, 11–20, 21+ visits. */
export const VISIT_BUCKET_STARTS = [0, 1, 2, 3, 4, 6, 11, 21] as const;

/** The spend buckets' lower bounds in cents: $0, $0.01–24.99, 25–49.99, 50–99.99, 100–249.99, 250–499.99, 500–999.99, 1,000+. */
export const SPEND_BUCKET_STARTS_CENTS = [0, 1, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000] as const;

/** The location picker of the call (repeated `location_id` / `location_group_id`; none: every location). */
export const SegmentDashboardQuerySchema = z.object({
  location_id: repeated(urlWholeNumber('location_id is not valid')),
  location_group_id: repeated(urlWholeNumber('location_group_id is not valid')),
});
/** The dashboard's query. */
export type SegmentDashboardQuery = z.infer<typeof SegmentDashboardQuerySchema>;

/** Members whose figure lies in `[min, max]`, both ends included (`max` null: no upper end). */
export const DistributionBucketSchema = z.object({
  min: z.number(),
  max: z.number().nullable(),
  count: z.number().int(),
});
/** One bucket of a distribution. */
export type DistributionBucket = z.infer<typeof DistributionBucketSchema>;

/** Members who visited a location. */
export const LocationShareSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  count: z.number().int(),
});
/** Members who visited a location. */
export type LocationShare = z.infer<typeof LocationShareSchema>;

/** The dashboard of one segment. */
export const SegmentDashboardV2Schema = z.object({
  segment: z.object({ id: z.number().int(), name: z.string() }),
  /** The cached figures; the zeroed defaults (synthetic id from 10000) while `computing`. */
  segmentcache: SegmentCacheSchema,
  /** True while the figures are still being worked out (no cache yet): the screen shows "computing". */
  computing: z.boolean(),
  /** Worked out now over the members at the picked locations (the cache is over the segment's own). */
  distributions: z.object({
    /** The members the distributions are over. */
    members: z.number().int(),
    /** Members by all-time visits (checks), 0 for guests without checks. */
    visits: z.array(DistributionBucketSchema),
    /** Members by all-time spend in dollars, to the cent. */
    spend: z.array(DistributionBucketSchema),
    /** Every location of the company with the members who have a check there, most first. */
    locations: z.array(LocationShareSchema),
  }),
});
/** The dashboard of one segment. */
export type SegmentDashboardV2 = z.infer<typeof SegmentDashboardV2Schema>;
