import { Readable } from 'node:stream';
import {
  SEGMENT_EXPORT_RETENTION_DAYS,
  SEGMENT_EXPORTS_UNDER_WAY_MAX,
  type SegmentExport,
} from '../../src/schemas/segment-exports.js';
import type { Database } from '../db/database.js';
import { ApiError, fieldFailure, invalid, notFound } from '../http/errors.js';
import type { SegmentExportRunner } from '../jobs/segment-export-runner.js';
import { getSegmentCache } from '../repositories/segment-cache.repository.js';
import {
  countUnfinishedSegmentExports,
  createSegmentExport,
  getSegmentExport,
  listSegmentExports,
  segmentExportChunk,
  type SegmentExportRow,
} from '../repositories/segment-exports.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { getSegment } from '../repositories/segments.repository.js';
import { findActiveUserByEmail } from '../repositories/users.repository.js';
import { ruleSetOf } from './segment-input.js';

/**
 * Background segment exports (docs/segments.md, "Background exports"): queued by `…/export/?trigger=1` (or
 * `email=`), written by the export runner, listed, and downloaded by a signed-in user of the company while
 * unexpired. An address to mail must be an active user of the company: the file holds guests' personal data.
 */

/** An export as the API shows it; `download_url` once done. */
export function presentSegmentExport(row: SegmentExportRow): SegmentExport {
  return {
    id: row.id,
    segment_id: row.segment_id,
    segment_name: row.segment_name,
    status: row.status,
    rows_written: row.rows_written,
    total: row.total,
    failure: row.failure,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    download_url: row.status === 'done' ? `/api/campaigns/segment-exports/${row.id}/download/` : null,
    expires_at: row.expires_at.toISOString(),
  };
}

/** The background export calls, over the database and the runner a new export wakes. */
export function segmentExportsService(db: Database, runner: Pick<SegmentExportRunner, 'wake'>) {
  return {
    /**
     * Queues an export of the company's segment (404 otherwise), to be mailed to `email` when done: an active
     * user of the company, or a 400 naming `email`. Stored rules the catalogue refuses are a 400 at once; a
     * company with SEGMENT_EXPORTS_UNDER_WAY_MAX exports queued or running is refused (409 `too_many_exports`).
     */
    async trigger(scope: WriteScope, segmentId: number, email: string | undefined): Promise<SegmentExport> {
      const created = await db.tenant(scope.companyId, async (sql) => {
        const segment = await getSegment(sql, scope.companyId, segmentId);
        if (!segment) return null;
        ruleSetOf(segment.segment_groups.map(({ segment_rules }) => ({ segment_rules })));
        let emailUserId: number | null = null;
        if (email !== undefined) {
          const user = await findActiveUserByEmail(sql, scope.companyId, email);
          if (!user) {
            throw invalid({
              email: fieldFailure('not_valid', 'email must be the address of a user of your company'),
            });
          }
          emailUserId = user.id;
        }
        // Each export reads the whole segment: a company's clicks cannot queue work without end.
        if ((await countUnfinishedSegmentExports(sql, scope.companyId)) >= SEGMENT_EXPORTS_UNDER_WAY_MAX) {
          throw new ApiError(
            409,
            'too_many_exports',
            `${SEGMENT_EXPORTS_UNDER_WAY_MAX} exports are under way; start another once one is done`,
          );
        }
        const cache = await getSegmentCache(sql, scope.companyId, segmentId);
        return createSegmentExport(sql, scope, {
          segmentId,
          segmentName: segment.name,
          total: cache ? Number(cache.all_customers) : null,
          emailUserId,
          retentionDays: SEGMENT_EXPORT_RETENTION_DAYS,
        });
      });
      if (!created) throw notFound('Segment');
      runner.wake();
      return presentSegmentExport(created);
    },

    /** A page of the company's unexpired exports, newest first. */
    async list(companyId: number, page: { limit: number; offset: number }) {
      const found = await db.tenant(companyId, (sql) => listSegmentExports(sql, companyId, page));
      return { count: found.count, results: found.rows.map(presentSegmentExport) };
    },

    /** One export's status; 404 unless it is the company's and unexpired. */
    async get(companyId: number, id: number): Promise<SegmentExport> {
      const row = await db.tenant(companyId, (sql) => getSegmentExport(sql, companyId, id));
      if (!row) throw notFound('Segment export');
      return presentSegmentExport(row);
    },

    /**
     * A finished export's CSV, streamed a stored chunk at a time; 404 unless the company's and unexpired, 409
     * `export_not_ready` before it is done (or when it failed).
     */
    async download(companyId: number, id: number): Promise<{ fileName: string; body: Readable }> {
      const row = await db.tenant(companyId, (sql) => getSegmentExport(sql, companyId, id));
      if (!row) throw notFound('Segment export');
      if (row.status !== 'done') {
        throw new ApiError(
          409,
          'export_not_ready',
          row.status === 'failed'
            ? 'This export failed; start a new one'
            : `This export is ${row.status}; download it once it is done`,
        );
      }
      async function* chunks(): AsyncGenerator<string> {
        for (let seq = 1; seq <= row!.chunks; seq++) {
          const content = await db.tenant(companyId, (sql) => segmentExportChunk(sql, companyId, id, seq));
          // Swept between two chunks (it expired meanwhile): the download breaks off rather than end cut short.
          if (content === null) throw new Error('The segment export expired while it was downloaded');
          yield content;
        }
      }
      return { fileName: `segment-${row.segment_id}-export-${row.id}.csv`, body: Readable.from(chunks()) };
    },
  };
}

/** The background export service's calls. */
export type SegmentExportsService = ReturnType<typeof segmentExportsService>;
