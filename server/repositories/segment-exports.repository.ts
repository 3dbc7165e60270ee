import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import type { WriteScope } from './scope.js';

/**
 * Background segment exports and their stored CSV (migration 0025): the queue the export runner claims from,
 * each turn's chunk with the export's progress, the reads of the API, and the expiry sweep. Rows past
 * `expires_at` read as gone even before the sweep removes them.
 */

/** An export row as stored. */
export interface SegmentExportRow {
  id: number;
  company_id: number;
  segment_id: number;
  segment_name: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  rows_written: number;
  total: number | null;
  last_guest_id: number;
  chunks: number;
  failure: string | null;
  email_user_id: number | null;
  emailed_at: Date | null;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date;
}

/** An export a worker holds for one turn: the claim number proves it still does when the turn commits. */
export interface ClaimedSegmentExport {
  id: number;
  company_id: number;
  claim: number;
}

/** What a finished turn stores: the chunk of CSV text and where the members stopped. */
export interface SegmentExportTurn {
  content: string;
  rows: number;
  lastGuestId: number;
  done: boolean;
}

const COLUMNS = `id::int AS id, company_id::int AS company_id, segment_id::int AS segment_id, segment_name, status,
  rows_written, total, last_guest_id::int AS last_guest_id, chunks, failure, email_user_id::int AS email_user_id,
  emailed_at, created_at, finished_at, expires_at`;

/** Queues an export of a segment, kept `retentionDays` at most; audited without the guests' data. */
export async function createSegmentExport(
  sql: Sql,
  scope: WriteScope,
  input: {
    segmentId: number;
    segmentName: string;
    total: number | null;
    emailUserId: number | null;
    retentionDays: number;
  },
): Promise<SegmentExportRow> {
  const { rows } = await sql.query<SegmentExportRow>(
    `INSERT INTO segment_exports (company_id, segment_id, segment_name, status, total, requested_by, email_user_id,
       expires_at)
     VALUES ($1, $2, $3, 'queued', $4, $5, $6, now() + $7 * interval '1 day')
     RETURNING ${COLUMNS}`,
    [
      scope.companyId,
      input.segmentId,
      input.segmentName,
      input.total,
      scope.userId,
      input.emailUserId,
      input.retentionDays,
    ],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'segment_export',
    entityId: created.id,
    after: { segment_id: input.segmentId, mailed: input.emailUserId !== null },
  });
  return created;
}

/** How many of the company's exports are queued or running. */
export async function countUnfinishedSegmentExports(sql: Sql, companyId: CompanyId): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM segment_exports
     WHERE company_id = $1 AND status IN ('queued', 'running') AND expires_at > now()`,
    [companyId],
  );
  return rows[0]!.count;
}

/** A page of the company's unexpired exports, newest first, with their count. */
export async function listSegmentExports(
  sql: Sql,
  companyId: CompanyId,
  page: { limit: number; offset: number },
): Promise<{ rows: SegmentExportRow[]; count: number }> {
  const { rows } = await sql.query<SegmentExportRow>(
    `SELECT ${COLUMNS} FROM segment_exports WHERE company_id = $1 AND expires_at > now()
     ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [companyId, page.limit, page.offset],
  );
  const counted = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM segment_exports WHERE company_id = $1 AND expires_at > now()`,
    [companyId],
  );
  return { rows, count: counted.rows[0]!.count };
}

/** One unexpired export of the company, or null. */
export async function getSegmentExport(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): Promise<SegmentExportRow | null> {
  const { rows } = await sql.query<SegmentExportRow>(
    `SELECT ${COLUMNS} FROM segment_exports WHERE company_id = $1 AND id = $2 AND expires_at > now()`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

/** One chunk of an export's CSV by its place (1 first), or null past the last. */
export async function segmentExportChunk(
  sql: Sql,
  companyId: CompanyId,
  exportId: number,
  seq: number,
): Promise<string | null> {
  const { rows } = await sql.query<{ content: string }>(
    `SELECT content FROM segment_export_chunks WHERE company_id = $1 AND export_id = $2 AND seq = $3`,
    [companyId, exportId, seq],
  );
  return rows[0]?.content ?? null;
}

/**
 * Claims the unfinished export whose last turn is oldest (never-started first) and is not held by a live
 * turn, for `leaseMs`. Platform-wide: call it in a platform transaction.
 */
export async function claimSegmentExport(sql: Sql, leaseMs: number): Promise<ClaimedSegmentExport | null> {
  const { rows } = await sql.query<ClaimedSegmentExport>(
    `UPDATE segment_exports e SET status = 'running', claim = e.claim + 1,
       lease_until = now() + $1 * interval '1 millisecond'
     WHERE e.id = (SELECT id FROM segment_exports
                   WHERE status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until <= now())
                   ORDER BY turn_at NULLS FIRST, id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING e.id::int AS id, e.company_id::int AS company_id, e.claim::int AS claim`,
    [leaseMs],
  );
  return rows[0] ?? null;
}

/**
 * Locks a claimed export and reads it, or null when the claim was lost (another worker took it over after its
 * lease passed, or the export ended or expired): the turn then writes nothing.
 */
export async function holdSegmentExport(
  sql: Sql,
  job: ClaimedSegmentExport,
): Promise<SegmentExportRow | null> {
  const { rows } = await sql.query<SegmentExportRow>(
    `SELECT ${COLUMNS} FROM segment_exports
     WHERE company_id = $1 AND id = $2 AND claim = $3 AND status = 'running' FOR UPDATE`,
    [job.company_id, job.id, job.claim],
  );
  return rows[0] ?? null;
}

/**
 * Stores a turn's chunk with the export's progress and frees the export for its next turn; the last turn marks
 * it done and keeps the file `retentionDays` from now. Call after `holdSegmentExport` in the same transaction.
 */
export async function appendSegmentExportTurn(
  sql: Sql,
  held: SegmentExportRow,
  turn: SegmentExportTurn,
  retentionDays: number,
): Promise<void> {
  await sql.query(
    `INSERT INTO segment_export_chunks (company_id, export_id, seq, content) VALUES ($1, $2, $3, $4)`,
    [held.company_id, held.id, held.chunks + 1, turn.content],
  );
  await sql.query(
    `UPDATE segment_exports SET chunks = chunks + 1, rows_written = rows_written + $3, last_guest_id = $4,
       lease_until = NULL, turn_at = now(),
       status = CASE WHEN $5 THEN 'done' ELSE status END,
       finished_at = CASE WHEN $5 THEN now() ELSE finished_at END,
       expires_at = CASE WHEN $5 THEN now() + $6 * interval '1 day' ELSE expires_at END
     WHERE company_id = $1 AND id = $2`,
    [held.company_id, held.id, turn.rows, turn.lastGuestId, turn.done, retentionDays],
  );
}

/** Ends a held export as failed with a code (never data); its chunks so far are removed. */
export async function failSegmentExport(sql: Sql, held: SegmentExportRow, code: string): Promise<void> {
  await sql.query(`DELETE FROM segment_export_chunks WHERE company_id = $1 AND export_id = $2`, [
    held.company_id,
    held.id,
  ]);
  await sql.query(
    `UPDATE segment_exports SET status = 'failed', failure = $3, lease_until = NULL, finished_at = now()
     WHERE company_id = $1 AND id = $2`,
    [held.company_id, held.id, code],
  );
}

/** Gives a claimed export back before its lease passes (its worker stops): the next worker takes it at once. */
export async function releaseSegmentExport(sql: Sql, job: ClaimedSegmentExport): Promise<void> {
  await sql.query(
    `UPDATE segment_exports SET lease_until = NULL WHERE company_id = $1 AND id = $2 AND claim = $3`,
    [job.company_id, job.id, job.claim],
  );
}

/** Notes that the export's mail went out, so it is sent once. */
export async function markSegmentExportEmailed(sql: Sql, companyId: CompanyId, id: number): Promise<void> {
  await sql.query(`UPDATE segment_exports SET emailed_at = now() WHERE company_id = $1 AND id = $2`, [
    companyId,
    id,
  ]);
}

/** Removes every export past its expiry with its file (chunks cascade); platform-wide. Answers how many. */
export async function sweepExpiredSegmentExports(sql: Sql): Promise<number> {
  const { rowCount } = await sql.query(`DELETE FROM segment_exports WHERE expires_at <= now()`);
  return rowCount;
}
