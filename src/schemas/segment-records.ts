import { z } from 'zod';
import { pageOf, pageSizeField, PagingQuerySchema, repeated } from './common.js';
import { GuestSchema } from './guests.js';
import { LIMITS } from './constants.js';
import { urlWholeNumber } from './numbers.js';

/**
 * The segment calls of spec section 7 (docs/segments.md): a saved segment with its rule groups and cached
 * figures, what a save sends, and the live preview's counts. The rules themselves are checked by
 * `checkRuleSet` (./segments.ts), which names each problem at its own path.
 */

const idList = (field: string) =>
  z.array(z.number().int().positive(`${field} must hold location ids`)).max(500, `${field} is too long`);

/** What creating or updating a segment sends; `segment_groups` replaces the groups, in order. */
export const SegmentWriteSchema = z.object({
  name: z.string().trim().min(1, 'name is required').max(200, 'name is too long'),
  description: z.string().max(2000, 'description is too long').optional(),
  /** The segment's own locations: its figures count guests who visited one of them (none: every location). */
  location_ids: idList('location_ids').optional(),
  group_ids: idList('group_ids').optional(),
  /** Checked rule by rule (`checkRuleSet`); loose here so each problem is named at its own path. */
  segment_groups: z.array(z.looseObject({})).optional(),
});
/** A segment as sent. */
export type SegmentWrite = z.infer<typeof SegmentWriteSchema>;

/** What the preview counts: the rule groups, named or not. */
export const SegmentPreviewBodySchema = SegmentWriteSchema.partial();

/** `?preview=1` and the location picker (repeated `location_id` / `location_group_id`). */
export const SegmentPostQuerySchema = z.object({
  preview: z.enum(['0', '1', 'true', 'false']).optional(),
  location_id: repeated(urlWholeNumber('location_id is not valid')),
  location_group_id: repeated(urlWholeNumber('location_group_id is not valid')),
});

/** `?page&page_size&q` of the segment list. */
export const SegmentListQuerySchema = PagingQuerySchema.extend({
  q: z.string().trim().max(200, 'q is too long').optional(),
});

/** A segment's cached figures (spec section 3, segmentcache); money in dollars, recency in days. */
export const SegmentCacheSchema = z.object({
  id: z.number().int(),
  segment: z.number().int(),
  all_customers: z.number().int(),
  all_customers_pct: z.number(),
  marketable_customers: z.number().int(),
  marketable_pct: z.number(),
  trackable_customers: z.number().int(),
  trackable_pct: z.number(),
  all_clv: z.number(),
  all_annual_clv: z.number(),
  all_clf: z.number(),
  all_recency: z.number(),
  marketable_clv: z.number(),
  marketable_annual_clv: z.number(),
  marketable_clf: z.number(),
  marketable_recency: z.number(),
  trackable_clv: z.number(),
  trackable_annual_clv: z.number(),
  trackable_clf: z.number(),
  trackable_recency: z.number(),
  /** When the figures were worked out; null while they are still being computed (the zeroed defaults). */
  computed_at: z.string().nullable(),
});
/** A segment's cached figures. */
export type SegmentCache = z.infer<typeof SegmentCacheSchema>;

/** A saved segment. */
export const SegmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  segment_type: z.string(),
  location_ids: z.array(z.number().int()),
  group_ids: z.array(z.number().int()),
  segment_groups: z.array(z.object({ id: z.number().int(), segment_rules: z.array(z.looseObject({})) })),
  segmentcache: SegmentCacheSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
/** A saved segment. */
export type Segment = z.infer<typeof SegmentSchema>;

/** A page of segments. */
export const SegmentPageSchema = pageOf(SegmentSchema);

/** The preview's answer: the counts a save would cache, with each share of the company's guests in percent. */
export const SegmentPreviewSchema = z.object({
  all_customers: z.number().int(),
  all_customers_pct: z.number(),
  marketable_customers: z.number().int(),
  marketable_pct: z.number(),
  trackable_customers: z.number().int(),
  trackable_pct: z.number(),
});
/** The preview's answer. */
export type SegmentPreview = z.infer<typeof SegmentPreviewSchema>;

/** `POST …/{id}/clone/`: the copy's name (default: the original's with " (copy)"). */
export const SegmentCloneSchema = z.object({
  name: z.string().trim().min(1, 'name is required').max(200, 'name is too long').optional(),
});

/** `GET /campaigns/segment-types/?language=`: labels in that language (default: the browser's). */
export const SegmentTypesQuerySchema = z.object({
  language: z.enum(['en', 'ch', 'es', 'jp', 'de', 'fr']).optional(),
});

/** `GET …/{id}/subscribers/?after&page_size`: the members after a guest id (keyset), oldest first. */
export const SegmentMembersQuerySchema = z.object({
  after: urlWholeNumber('after is not valid').optional(),
  page_size: pageSizeField(LIMITS.defaultPageSize),
});

/** A page of a segment's members: guests, with the segment's size and the next page's link. */
export const SegmentMembersPageSchema = pageOf(GuestSchema);

/** `GET /benchmark/segment-dashboard/`: every segment's cached figures side by side, by name. */
export const SegmentDashboardSchema = z.object({
  results: z.array(z.object({ id: z.number().int(), name: z.string(), segmentcache: SegmentCacheSchema })),
});
/** Every segment's cached figures. */
export type SegmentDashboard = z.infer<typeof SegmentDashboardSchema>;
