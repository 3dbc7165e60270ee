import type { Observable } from 'rxjs';

import {
  SegmentExportPageSchema,
  SegmentExportSchema,
  type SegmentExport,
  type SegmentExportPage,
} from '../schemas/segment-exports.js';
import { apiRequest } from './api-client.js';
import { downloadCsv } from './download.js';

/**
 * The background segment export calls (docs/segments.md, "Background exports"): the company's recent exports,
 * starting one, and saving a finished one's CSV with the user's token.
 */

/** How many of the newest exports the list shows (they expire after a week). */
const RECENT_EXPORTS = 50;

/** `GET /api/campaigns/segment-exports/`: the newest exports. */
export function listSegmentExports(): Observable<SegmentExportPage> {
  return apiRequest({
    method: 'GET',
    path: '/campaigns/segment-exports/',
    query: { page_size: RECENT_EXPORTS },
    schema: SegmentExportPageSchema,
  });
}

/** `GET /api/campaigns/segments/{id}/export/?trigger=1`: queues a background export of the segment. */
export function startSegmentExport(segmentId: number): Observable<SegmentExport> {
  return apiRequest({
    method: 'GET',
    path: `/campaigns/segments/${segmentId}/export/`,
    query: { trigger: 1 },
    schema: SegmentExportSchema,
  });
}

/** Saves a finished export's CSV as `fileName`; aborting the signal cancels the download. */
export function downloadSegmentExport(id: number, fileName: string, signal: AbortSignal): Promise<void> {
  return downloadCsv(`/campaigns/segment-exports/${id}/download/`, fileName, signal);
}
