import { z } from 'zod';
import { emailField } from './accounts.js';
import { pageOf, PagingQuerySchema } from './common.js';

/**
 * Background segment exports (docs/segments.md, "Background exports"): `GET …/segments/{id}/export/?trigger=1`
 * (or `email=`) queues one, the job workers write the segment's CSV, and a signed-in user of the company
 * downloads it from the app until it expires.
 */

/** Where an export stands. */
export const SEGMENT_EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
/** One of SEGMENT_EXPORT_STATUSES. */
export type SegmentExportStatus = (typeof SEGMENT_EXPORT_STATUSES)[number];

/** Days a finished export's file stays downloadable before the sweep removes it. */
export const SEGMENT_EXPORT_RETENTION_DAYS = 7;

/** Exports a company may have queued or running at once; one more is refused (409 `too_many_exports`). */
export const SEGMENT_EXPORTS_UNDER_WAY_MAX = 5;

/** `?trigger=1` starts a background export; `email=` (a user of the company) also does, and is mailed when done. */
export const SegmentExportQuerySchema = z.object({
  trigger: z.enum(['0', '1', 'true', 'false'], { error: 'trigger must be 1 or 0' }).optional(),
  email: emailField('email').optional(),
});
/** The export call's query. */
export type SegmentExportQuery = z.infer<typeof SegmentExportQuerySchema>;

/** An export as the API shows it. */
export const SegmentExportSchema = z.object({
  id: z.number().int(),
  segment_id: z.number().int(),
  /** The segment's name when the export was asked for (the segment may be deleted since). */
  segment_name: z.string(),
  status: z.enum(SEGMENT_EXPORT_STATUSES),
  rows_written: z.number().int(),
  /** The segment's cached member count when asked for; null while its figures were being computed. */
  total: z.number().int().nullable(),
  /** Why it failed, as a code: `rules_refused`, `segment_deleted` or `export_failed`. */
  failure: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** The API path of the CSV once done (a signed-in user's call), otherwise null. */
  download_url: z.string().nullable(),
  expires_at: z.string(),
});
/** A background export. */
export type SegmentExport = z.infer<typeof SegmentExportSchema>;

/** `?page&page_size` of the export list. */
export const SegmentExportListQuerySchema = PagingQuerySchema;

/** A page of the company's exports, newest first. */
export const SegmentExportPageSchema = pageOf(SegmentExportSchema);
/** A page of exports. */
export type SegmentExportPage = z.infer<typeof SegmentExportPageSchema>;
