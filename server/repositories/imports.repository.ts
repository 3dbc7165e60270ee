import type {
  ImportKind,
  ImportProblemCode,
  ImportProblemParams,
  ImportRowError,
  ImportStatus,
} from '../../src/schemas/imports.js';
import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import type { WriteScope } from './scope.js';
import { newSubscriberEventsCte } from './flow-events.repository.js';
import { exitSubscribersFromFlows } from './flow-exits.repository.js';

/** Why a staged row was rejected (stored as JSON with the row). */
type RowProblem = Omit<ImportRowError, 'line'>;

/**
 * All SQL of CSV imports: the job (which is also the runner's queue entry), its staged rows, and the
 * batch merge into subscribers or guests. A batch's merged rows, its outcomes and the job's progress commit
 * in one transaction (the runner opens one per batch), so a job resumed after a restart never counts a row twice.
 */

/** An import job as stored. */
export interface ImportJobRow {
  id: number;
  company_id: number;
  kind: ImportKind;
  status: ImportStatus;
  file_name: string;
  bytes: number;
  header: string[];
  read: number;
  processed: number;
  imported: number;
  updated: number;
  duplicates: number;
  invalid: number;
  /** A checks file's counts in whole checks (0 for other kinds). */
  checks_created: number;
  checks_unchanged: number;
  checks_rejected: number;
  failure: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/** One data row checked and ready to stage; `fields` is null for an invalid row. */
export interface StagedRow {
  seq: number;
  line: number;
  fields: string[] | null;
  raw: string[];
  problems: RowProblem[] | null;
}

/** One row error as the job shows it. */
export interface ImportRowErrorRow {
  line: number;
  field: string | null;
  code: ImportProblemCode;
  params: ImportProblemParams;
  message: string;
}

/** A rejected row for the download: where it was, why, and its cells as written. */
export interface RejectedRow {
  seq: number;
  line: number;
  raw: string[];
  problems: RowProblem[];
}

/** A job the runner took, to merge as the company's tenant. */
export interface ClaimedJob {
  id: number;
  company_id: number;
}

/** Raised when rows arrive for a job that is no longer receiving (another process gave up on it). */
export class ImportJobGoneError extends Error {
  constructor() {
    super('The import job is no longer receiving rows');
    this.name = 'ImportJobGoneError';
  }
}

const SELECT_JOB = `
  SELECT id, company_id, kind, status, file_name, bytes, header, read, processed, imported, updated, duplicates,
         invalid, checks_created, checks_unchanged, checks_rejected, failure, created_at, finished_at
  FROM import_jobs`;

/** What an interrupted upload's job says once it is given up. */
export const INTERRUPTED_UPLOAD = 'The upload was interrupted';

/** Opens a job in 'receiving' for a file whose header has been read. */
export async function createImportJob(
  sql: Sql,
  scope: WriteScope,
  job: { kind: ImportKind; fileName: string; header: readonly string[] },
): Promise<number> {
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO import_jobs (company_id, kind, status, file_name, header, user_id, actor_user_id)
     VALUES ($1, $2, 'receiving', $3, $4, $5, $6) RETURNING id`,
    [scope.companyId, job.kind, job.fileName, job.header, scope.userId, scope.actorUserId],
  );
  return rows[0]!.id;
}

/** How much of an upload has arrived: its size so far and the data rows counted in it. */
export interface ReceivedTotals {
  bytes: number;
  read: number;
}

/**
 * Stores the next piece of an upload's text (none when `chunk` is null: a heartbeat only) and moves the job's
 * size, row count and heartbeat in the same transaction. Throws ImportJobGoneError (nothing stored) when the
 * job is no longer receiving.
 */
export async function storeImportChunk(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  chunk: { seq: number; text: string } | null,
  totals: ReceivedTotals,
): Promise<void> {
  const { rowCount } = await sql.query(
    `UPDATE import_jobs SET read = $3, bytes = $4, heartbeat_at = now()
     WHERE company_id = $1 AND id = $2 AND status = 'receiving'`,
    [companyId, jobId, totals.read, totals.bytes],
  );
  if (rowCount === 0) throw new ImportJobGoneError();
  if (!chunk) return;
  await sql.query(
    'INSERT INTO import_file_chunks (company_id, job_id, seq, content) VALUES ($1, $2, $3, $4)',
    [companyId, jobId, chunk.seq, chunk.text],
  );
}

/** One stored piece of an upload's text, by its place in the file (from 1); null past the end. */
export async function readImportChunk(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  seq: number,
): Promise<string | null> {
  const { rows } = await sql.query<{ content: string }>(
    'SELECT content FROM import_file_chunks WHERE company_id = $1 AND job_id = $2 AND seq = $3',
    [companyId, jobId, seq],
  );
  return rows[0]?.content ?? null;
}

/**
 * Where staging stopped in a job's stored file: the chunk (by seq), the character in it that ended the last staged
 * record, and the line that record ended on.
 */
export interface StagingResumePoint {
  chunk: number;
  offset: number;
  line: number;
}

/** What a worker needs to go on staging a job's file: its columns and how far staging got. */
export interface StagingState {
  kind: ImportKind;
  status: ImportStatus;
  header: string[];
  read: number;
  staged: number;
  /** Rows merged so far; equal to `staged` while a subscriber file merges straight from its batches. */
  processed: number;
  /** Null before the first staged batch (or for a job staged before resume points were kept). */
  resume: StagingResumePoint | null;
}

/** The staging state of the company's job, or null. */
export async function findStagingState(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
): Promise<StagingState | null> {
  const { rows } = await sql.query<StagingState>(
    `SELECT kind, status, header, read, staged, processed,
            CASE WHEN resume_chunk IS NOT NULL
                 THEN jsonb_build_object('chunk', resume_chunk, 'offset', resume_offset, 'line', resume_line)
            END AS resume
     FROM import_jobs WHERE company_id = $1 AND id = $2`,
    [companyId, jobId],
  );
  return rows[0] ?? null;
}

/**
 * Beats a running job's heartbeat in the middle of a long turn, so no other worker takes it as abandoned.
 * Returns false when the job is no longer running.
 */
export async function beatImportJob(sql: Sql, companyId: CompanyId, jobId: number): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE import_jobs SET heartbeat_at = clock_timestamp()
     WHERE company_id = $1 AND id = $2 AND status = 'running'`,
    [companyId, jobId],
  );
  return rowCount > 0;
}

/**
 * Stages the next checked rows of a received job (the rows after the first `after`), moving its staged count,
 * resume point and heartbeat in the same transaction; once every row is staged the stored file is removed.
 * Throws ImportJobGoneError (nothing staged) when the job has finished or another worker staged these rows first.
 */
export async function stageImportRows(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  rows: readonly StagedRow[],
  after: number,
  resume: StagingResumePoint | null = null,
): Promise<void> {
  // clock_timestamp(), not now(): the heartbeat says when the batch committed, not when its transaction began.
  const job = await sql.query<{ kind: ImportKind; complete: boolean }>(
    `UPDATE import_jobs SET staged = staged + $4, heartbeat_at = clock_timestamp(),
       resume_chunk = $5, resume_offset = $6, resume_line = $7
     WHERE company_id = $1 AND id = $2 AND status IN ('queued', 'running') AND staged = $3
       AND staged + $4 <= read
     RETURNING kind, staged = read AS complete`,
    [
      companyId,
      jobId,
      after,
      rows.length,
      resume?.chunk ?? null,
      resume?.offset ?? null,
      resume?.line ?? null,
    ],
  );
  const staged = job.rows[0];
  if (!staged) throw new ImportJobGoneError();
  if (rows.length > 0) {
    // The key is made in SQL with lower(), the function the unique and dedupe indexes use. The batch arrives as
    // one JSON parameter read by json_to_recordset (plain json: parsed once as it is read, no jsonb tree built).
    await sql.query(
      `INSERT INTO import_rows (company_id, job_id, seq, line, key, fields, raw, outcome, problems)
       SELECT $1, $2, x.seq, x.line,
              CASE WHEN x.fields IS NULL THEN NULL
                   WHEN $4 = 'guest' THEN lower(x.fields[1]) || '|' || x.fields[2]
                   ELSE lower(x.fields[1]) END,
              x.fields, x.raw, CASE WHEN x.fields IS NULL THEN 'invalid' END, x.problems
       FROM json_to_recordset($3::json) AS x(seq integer, line integer, fields text[], raw text[], problems jsonb)`,
      [companyId, jobId, JSON.stringify(rows), staged.kind],
    );
  }
  if (staged.complete) await deleteImportChunks(sql, companyId, jobId);
}

/** Removes a job's stored file (staged in full, or given up). */
async function deleteImportChunks(sql: Sql, companyId: CompanyId, jobId: number): Promise<void> {
  await sql.query('DELETE FROM import_file_chunks WHERE company_id = $1 AND job_id = $2', [companyId, jobId]);
}

/** Hands a fully received job to the workers with its final size and row count. */
export async function queueImportJob(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  totals: ReceivedTotals,
): Promise<void> {
  const { rowCount } = await sql.query(
    `UPDATE import_jobs SET status = 'queued', read = $3, bytes = $4, heartbeat_at = now()
     WHERE company_id = $1 AND id = $2 AND status = 'receiving'`,
    [companyId, jobId, totals.read, totals.bytes],
  );
  if (rowCount === 0) throw new ImportJobGoneError();
}

/** Removes a refused upload's job and every row staged for it, as if it never arrived. */
export async function discardImportJob(sql: Sql, companyId: CompanyId, jobId: number): Promise<void> {
  await deleteImportChunks(sql, companyId, jobId);
  await sql.query('DELETE FROM import_rows WHERE company_id = $1 AND job_id = $2', [companyId, jobId]);
  await sql.query('DELETE FROM import_keys WHERE company_id = $1 AND job_id = $2', [companyId, jobId]);
  await sql.query('DELETE FROM import_jobs WHERE company_id = $1 AND id = $2', [companyId, jobId]);
}

/** The company's job with this id, or null (also for another company's job). */
export async function findImportJob(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): Promise<ImportJobRow | null> {
  const { rows } = await sql.query<ImportJobRow>(`${SELECT_JOB} WHERE company_id = $1 AND id = $2`, [
    companyId,
    id,
  ]);
  return rows[0] ?? null;
}

/** The first `limit` row errors of a job (invalid and duplicate rows), in file order. */
export async function listImportRowErrors(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  limit: number,
): Promise<ImportRowErrorRow[]> {
  const { rows } = await sql.query<ImportRowErrorRow>(
    // Rows staged before reasons had codes read as 'invalid' with their English message.
    `SELECT r.line, p.problem->>'field' AS field, coalesce(p.problem->>'code', 'invalid') AS code,
            coalesce(p.problem->'params', '{}'::jsonb) AS params, p.problem->>'message' AS message
     FROM (SELECT seq, line, problems FROM import_rows
           WHERE company_id = $1 AND job_id = $2 AND outcome IN ('invalid', 'duplicate')
           ORDER BY seq LIMIT $3) r
     CROSS JOIN LATERAL jsonb_array_elements(r.problems) WITH ORDINALITY AS p(problem, position)
     ORDER BY r.seq, p.position LIMIT $3`,
    [companyId, jobId, limit],
  );
  return rows;
}

/** The next `limit` rejected rows of a job after `afterSeq`, in file order (keyset paging for the download). */
export async function rejectedRowsAfter(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  afterSeq: number,
  limit: number,
): Promise<RejectedRow[]> {
  const { rows } = await sql.query<RejectedRow>(
    `SELECT seq, line, raw, problems FROM import_rows
     WHERE company_id = $1 AND job_id = $2 AND outcome IN ('invalid', 'duplicate') AND seq > $3
     ORDER BY seq LIMIT $4`,
    [companyId, jobId, afterSeq, limit],
  );
  return rows;
}

// ───────────────────────────── the runner's side (across companies) ─────────────────────────────

/**
 * Gives up uploads whose process stopped sending rows (no heartbeat for `staleAfterMs`): their staged rows
 * are removed and the job fails with 'The upload was interrupted'. `exceptIds` are uploads this process is
 * still receiving. Returns how many were given up.
 */
export async function failAbandonedUploads(
  sql: Sql,
  staleAfterMs: number,
  exceptIds: readonly number[] = [],
): Promise<number> {
  const { rows } = await sql.query<{ id: number; company_id: number }>(
    `UPDATE import_jobs SET status = 'failed', failure = $2, finished_at = now()
     WHERE id IN (SELECT id FROM import_jobs
                  WHERE status = 'receiving' AND heartbeat_at < now() - $1 * interval '1 millisecond'
                    AND NOT (id = ANY($3::bigint[]))
                  FOR UPDATE SKIP LOCKED)
     RETURNING id, company_id`,
    [staleAfterMs, INTERRUPTED_UPLOAD, exceptIds],
  );
  for (const job of rows) {
    await sql.query('DELETE FROM import_rows WHERE company_id = $1 AND job_id = $2', [
      job.company_id,
      job.id,
    ]);
    await deleteImportChunks(sql, job.company_id, job.id);
  }
  return rows.length;
}

/**
 * Takes the job that has waited longest for a turn (a new one first): queued, running but free between turns,
 * or held by a worker that stopped beating for `staleAfterMs` (a restart). It is marked running and held for
 * one turn. Null when there is none; other workers skip a job being taken. A job goes to the back of the line
 * at every turn, so one company's large file never holds up another's.
 */
export async function claimImportJob(sql: Sql, staleAfterMs: number): Promise<ClaimedJob | null> {
  const { rows } = await sql.query<ClaimedJob>(
    `UPDATE import_jobs SET status = 'running', claimed = true, heartbeat_at = clock_timestamp(),
       turn_at = clock_timestamp()
     WHERE id = (SELECT id FROM import_jobs
                 WHERE status = 'queued'
                    OR (status = 'running'
                        AND (NOT claimed OR heartbeat_at < now() - $1 * interval '1 millisecond'))
                 ORDER BY turn_at NULLS FIRST, id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id, company_id`,
    [staleAfterMs],
  );
  return rows[0] ?? null;
}

/** Ends a worker's turn on a running job: it waits, still running, for the next free worker. */
export async function releaseImportJob(sql: Sql, companyId: CompanyId, jobId: number): Promise<void> {
  await sql.query('UPDATE import_jobs SET claimed = false WHERE company_id = $1 AND id = $2', [
    companyId,
    jobId,
  ]);
}

/** A job that went wrong while merging: it fails with a reason that holds no row contents. */
export async function failImportJob(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  reason: string,
): Promise<void> {
  await sql.query(
    `UPDATE import_jobs SET status = 'failed', failure = $3, finished_at = now()
     WHERE company_id = $1 AND id = $2 AND status IN ('queued', 'running')`,
    [companyId, jobId, reason],
  );
  await deleteImportChunks(sql, companyId, jobId);
  await sql.query('DELETE FROM import_keys WHERE company_id = $1 AND job_id = $2', [companyId, jobId]);
}

/** Rows of one batch merged into subscribers or guests: inserted, or matched to an existing record and updated. */
interface Merged {
  imported: number;
  updated: number;
}

/** What a merge statement answers besides its counts: the known subscribers it unsubscribed. */
interface MergedUnsubscribes {
  unsubscribed: number[] | null;
}

/** The merged rows' known subscribers a file unsubscribed, as the merge statement answers them. */
const UNSUBSCRIBED_IN_MERGE = `(SELECT array_agg(id::int) FROM merged WHERE unsubscribed_now) AS unsubscribed`;

/**
 * The flow side of a merge, in its transaction (docs/flows.md, "Triggers", "Exits"): subscribers it unsubscribed
 * leave their flows at once (new subscribers' events are written by the statement itself).
 */
async function mergeFlowExits(sql: Sql, companyId: CompanyId, merged: MergedUnsubscribes): Promise<void> {
  await exitSubscribersFromFlows(sql, companyId, merged.unsubscribed ?? [], 'unsubscribed');
}

/** Rows of one batch by outcome. */
interface BatchCounts extends Merged {
  duplicates: number;
  invalid: number;
}

/** Marks rows repeating an earlier row of the same file (same key) as duplicates of that row's line. */
async function markDuplicatesInFile(sql: Sql, params: unknown[], keyField: string): Promise<void> {
  await sql.query(
    `UPDATE import_rows r SET outcome = 'duplicate',
       problems = (SELECT jsonb_build_array(jsonb_build_object('field', $5::text, 'code', 'duplicate_in_file',
                                                               'params', jsonb_build_object('line', first.line),
                                                               'message', 'Duplicate of line ' || first.line))
                   FROM (SELECT p.line FROM import_rows p
                         WHERE p.company_id = $1 AND p.job_id = $2 AND p.key = r.key AND p.seq < r.seq
                         ORDER BY p.seq LIMIT 1) first)
     WHERE r.company_id = $1 AND r.job_id = $2 AND r.seq > $3 AND r.seq <= $4 AND r.outcome IS NULL
       AND EXISTS (SELECT 1 FROM import_rows p
                   WHERE p.company_id = $1 AND p.job_id = $2 AND p.key = r.key AND p.seq < r.seq)`,
    [...params, keyField],
  );
}

/**
 * Merges subscriber rows with one upsert on the unique (company, lower(email)) index (spec section 5: subscribers
 * match on email): a new email is inserted ('imported'); a known one is updated ('updated') with every value
 * the row gives, a blank cell keeping the stored value. The stored email keeps its spelling. A file may
 * unsubscribe (an explicit no) but never re-subscribes anyone. (A join on lower(email) could not use the
 * index under row-level security, lower() not being leakproof; the upsert's conflict check can.)
 */
async function mergeSubscribers(sql: Sql, params: unknown[]): Promise<Merged> {
  await markDuplicatesInFile(sql, params, 'email');
  const { rows } = await sql.query<Merged & MergedUnsubscribes>(
    `WITH merged AS (${subscriberUpsert(
      `SELECT x.seq, x.fields FROM import_rows x
       WHERE x.company_id = $1 AND x.job_id = $2 AND x.seq > $3 AND x.seq <= $4 AND x.outcome IS NULL`,
    )}),
     ${newSubscriberEventsCte('merged')}
     SELECT count(*) FILTER (WHERE inserted)::int AS imported, count(*) FILTER (WHERE NOT inserted)::int AS updated,
            ${UNSUBSCRIBED_IN_MERGE}
     FROM merged`,
    params,
  );
  const { imported, updated, unsubscribed } = rows[0]!;
  await mergeFlowExits(sql, params[0] as CompanyId, { unsubscribed });
  return { imported, updated };
}

/**
 * The subscriber upsert of the rows `rows` selects (a SELECT of `seq` and the checked `fields` in STAGED_FIELDS
 * order; $1 is the company), returning `inserted` per row. The rules are in mergeSubscribers.
 */
function subscriberUpsert(rows: string): string {
  return `
       INSERT INTO subscribers AS s (company_id, email, first_name, last_name, phone, zip, birthday, subscribed,
                                     pos_id, hashid, guest_id, consent_at)
       SELECT $1, r.fields[1], r.fields[2], r.fields[3], r.fields[4], r.fields[5], nullif(r.fields[6], '')::date,
              r.fields[7]::boolean, nullif(r.fields[8], ''), r.fields[9], l.guest_id,
              CASE WHEN r.fields[7]::boolean THEN now() END
       FROM (${rows}) r
       -- Linked to the POS guest with this POS id when exactly one has it, as an added subscriber is: one probe
       -- of the guests' POS id index per POS id of the rows, joined once (a subquery per row cost PGlite 0.1 ms).
       LEFT JOIN (SELECT g.pos_id, min(g.id) AS guest_id FROM guests g
                  WHERE g.company_id = $1
                    AND g.pos_id IN (SELECT nullif(p.fields[8], '') FROM (${rows}) p)
                  GROUP BY g.pos_id HAVING count(*) = 1) l ON l.pos_id = nullif(r.fields[8], '')
       ORDER BY r.seq
       ON CONFLICT (company_id, lower(email)) DO UPDATE SET
         first_name = CASE WHEN excluded.first_name = '' THEN s.first_name ELSE excluded.first_name END,
         last_name = CASE WHEN excluded.last_name = '' THEN s.last_name ELSE excluded.last_name END,
         phone = CASE WHEN excluded.phone = '' THEN s.phone ELSE excluded.phone END,
         zip = CASE WHEN excluded.zip = '' THEN s.zip ELSE excluded.zip END,
         birthday = coalesce(excluded.birthday, s.birthday),
         -- An empty subscribed cell reads as yes, so only an explicit no changes anything: it unsubscribes.
         subscribed = s.subscribed AND excluded.subscribed,
         unsubscribed_at = CASE WHEN s.subscribed AND NOT excluded.subscribed THEN now() ELSE s.unsubscribed_at END,
         pos_id = coalesce(excluded.pos_id, s.pos_id),
         -- The guest link follows a new POS id; an unchanged (or blank) one keeps the link as it is.
         guest_id = CASE WHEN excluded.pos_id IS NULL OR excluded.pos_id = s.pos_id THEN s.guest_id
                         WHEN coalesce(s.pos_id, '') = '' THEN coalesce(s.guest_id, excluded.guest_id)
                         ELSE excluded.guest_id END,
         updated_at = now()
       -- xmax is 0 on a row this statement inserted and set on one it updated.
       RETURNING s.xmax = 0 AS inserted, s.id, s.source_location_id, s.subscribed,
                 -- A known subscriber this row unsubscribed (the stamp is this transaction's now()).
                 s.xmax <> 0 AND NOT s.subscribed AND s.unsubscribed_at = now() AS unsubscribed_now`;
}

/**
 * Before a guest job's first batch: notes on every staged row the existing guest it matches (same name in
 * any case, same card digits; the oldest when several do), as an extra last value of its `fields`, in one
 * pass. Under row-level security lower() keeps the dedupe index out of reach, so one hash join over the whole
 * file replaces a scan of the company's guests per row.
 */
async function matchExistingGuests(sql: Sql, companyId: CompanyId, jobId: number): Promise<void> {
  // A nested loop here would scan the company's guests once per row; the hash join scans them once.
  await sql.query('SET LOCAL enable_nestloop = off');
  await sql.query(
    `UPDATE import_rows r SET fields = r.fields || m.guest_id::text
     FROM (SELECT x.seq, min(g.id) AS guest_id
           FROM import_rows x JOIN guests g
             ON g.company_id = $1 AND g.last_four_digits = x.fields[2] AND lower(g.customer_name) = lower(x.fields[1])
           WHERE x.company_id = $1 AND x.job_id = $2 AND x.outcome IS NULL
           GROUP BY x.seq) m
     WHERE r.company_id = $1 AND r.job_id = $2 AND r.seq = m.seq`,
    [companyId, jobId],
  );
  await sql.query('SET LOCAL enable_nestloop = on');
}

/**
 * Merges guest rows (spec section 5: guests match on customer name plus last four digits): repeats within the
 * file are duplicates of their first line; a row matched to an existing guest before the first batch updates
 * that guest's POS id ('updated', the stored name keeps its spelling); the rest are inserted, as is a row whose
 * matched guest was deleted meanwhile.
 */
async function mergeGuests(sql: Sql, params: unknown[]): Promise<Merged> {
  await markDuplicatesInFile(sql, params, 'customer_name');
  // One primary-key probe per staged row. The ids are cast in a materialised CTE first: a join on
  // `r.fields[5]::bigint` (a cast, not leakproof) could not reach the index past the guests' row-level security
  // and would compare every guest with every row. IS NOT DISTINCT FROM keeps the company check out of the
  // planner's reach, so it cannot start from the company's guests either. Updated guests stay locked until commit.
  const updated = await sql.query(
    `WITH matched AS MATERIALIZED (
       SELECT r.fields[5]::bigint AS guest_id, r.fields[3] AS pos_id
       FROM import_rows r
       WHERE r.company_id = $1 AND r.job_id = $2 AND r.seq > $3 AND r.seq <= $4 AND r.outcome IS NULL
         AND r.fields[5] IS NOT NULL)
     UPDATE guests g SET pos_id = m.pos_id, updated_at = now()
     FROM matched m
     WHERE g.id = m.guest_id AND g.company_id IS NOT DISTINCT FROM $1::bigint`,
    params,
  );
  // A new statement sees the update's locks: a matched guest deleted before it is inserted again instead.
  const inserted = await sql.query(
    `INSERT INTO guests (company_id, customer_name, last_four_digits, pos_id, hashid)
     SELECT $1, r.fields[1], r.fields[2], r.fields[3], r.fields[4]
     FROM import_rows r
     WHERE r.company_id = $1 AND r.job_id = $2 AND r.seq > $3 AND r.seq <= $4 AND r.outcome IS NULL
       AND (r.fields[5] IS NULL
            OR NOT EXISTS (SELECT 1 FROM guests g WHERE g.company_id = $1 AND g.id = r.fields[5]::bigint))
     ORDER BY r.seq`,
    params,
  );
  return { imported: inserted.rowCount, updated: updated.rowCount };
}

/**
 * Merges the job's next `batchRows` staged rows, in the caller's transaction (one per batch): rows into subscribers or guests,
 * rejected rows' outcomes, counts and the resume point together (a row left without an outcome at or before
 * `processed` was merged). The last batch marks the job done and audits it
 * (counts only). Returns true when the job has nothing left (done, or no longer running).
 */
export async function mergeImportBatch(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  batchRows: number,
): Promise<boolean> {
  // The row lock makes two runners on one job take turns; each starts where the other committed.
  const { rows } = await sql.query<{
    kind: ImportKind;
    status: ImportStatus;
    read: number;
    staged: number;
    processed: number;
    user_id: number | null;
    actor_user_id: number | null;
  }>(
    `SELECT kind, status, read, staged, processed, user_id, actor_user_id FROM import_jobs
     WHERE company_id = $1 AND id = $2 FOR UPDATE`,
    [companyId, jobId],
  );
  const job = rows[0];
  if (!job || job.status !== 'running') return true;
  if (job.staged < job.read) throw new Error('The job has rows still to stage before merging');
  const upTo = Math.min(job.read, job.processed + batchRows);
  const params = [companyId, jobId, job.processed, upTo];
  let merged: Merged;
  if (job.kind === 'checks') {
    // A checks file merges straight from its batches (mergeCheckBatch); only a file without rows comes here.
    merged = { imported: 0, updated: 0 };
  } else if (job.kind === 'subscriber') {
    merged = await mergeSubscribers(sql, params);
  } else {
    // In the first batch's transaction, so a restart before it commits simply runs it again.
    if (job.processed === 0) await matchExistingGuests(sql, companyId, jobId);
    merged = await mergeGuests(sql, params);
  }

  const rejected = await sql.query<Omit<BatchCounts, keyof Merged>>(
    `SELECT count(*) FILTER (WHERE outcome = 'duplicate')::int AS duplicates,
            count(*) FILTER (WHERE outcome = 'invalid')::int AS invalid
     FROM import_rows WHERE company_id = $1 AND job_id = $2 AND seq > $3 AND seq <= $4`,
    params,
  );
  const counts: BatchCounts = { ...merged, ...rejected.rows[0]! };
  const done = upTo >= job.read;
  const { rows: after } = await sql.query<BatchCounts & { read: number; kind: ImportKind }>(
    `UPDATE import_jobs SET processed = $3, imported = imported + $4, updated = updated + $5,
       duplicates = duplicates + $6, invalid = invalid + $7, heartbeat_at = clock_timestamp(),
       status = CASE WHEN $8 THEN 'done' ELSE status END, claimed = claimed AND NOT $8,
       finished_at = CASE WHEN $8 THEN now() ELSE finished_at END
     WHERE company_id = $1 AND id = $2
     RETURNING kind, read, imported, updated, duplicates, invalid`,
    [companyId, jobId, upTo, counts.imported, counts.updated, counts.duplicates, counts.invalid, done],
  );
  if (done) {
    // Accepted rows are in subscribers or guests now; only rejected ones stay, for the download.
    await sql.query('DELETE FROM import_rows WHERE company_id = $1 AND job_id = $2 AND outcome IS NULL', [
      companyId,
      jobId,
    ]);
    await auditFinishedImport(sql, companyId, jobId, job, after[0]!);
  }
  return done;
}

/** Rows of a batch rejected while merging straight from the file, with why. */
function rejectedRows(rows: readonly StagedRow[], repeats: ReadonlyMap<number, number>): object[] {
  const rejected: object[] = [];
  for (const row of rows) {
    const firstLine = repeats.get(row.seq);
    if (row.fields === null) {
      rejected.push({
        seq: row.seq,
        line: row.line,
        raw: row.raw,
        outcome: 'invalid',
        problems: row.problems,
      });
    } else if (firstLine !== undefined) {
      const problem = {
        field: 'email',
        code: 'duplicate_in_file',
        params: { line: firstLine },
        message: `Duplicate of line ${firstLine}`,
      };
      const key = row.fields[0];
      rejected.push({
        seq: row.seq,
        line: row.line,
        key,
        raw: row.raw,
        outcome: 'duplicate',
        problems: [problem],
      });
    }
  }
  return rejected;
}

/**
 * Merges the next checked rows of a subscriber file straight into subscribers, in the caller's transaction
 * (one per batch), with no staged copy of the accepted rows: the job's staged and processed counts, its resume
 * point in the stored file and heartbeat move first (under the job row's lock; ImportJobGoneError, nothing
 * written, when another worker got there first or the job ended), then one statement notes each new email in
 * `import_keys` and upserts the rows whose email was not in the file before (the rules of mergeSubscribers),
 * and the rejected rows (invalid, or repeating an earlier line) are stored with their cells for the download.
 * The last batch marks the job done, removes its keys and stored file, and audits it. Returns true when done.
 */
export async function mergeSubscriberRows(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  rows: readonly StagedRow[],
  after: number,
  resume: StagingResumePoint,
): Promise<boolean> {
  const { rows: claimed } = await sql.query<{
    complete: boolean;
    user_id: number | null;
    actor_user_id: number | null;
  }>(
    `UPDATE import_jobs SET staged = staged + $4, processed = processed + $4, heartbeat_at = clock_timestamp(),
       resume_chunk = $5, resume_offset = $6, resume_line = $7
     WHERE company_id = $1 AND id = $2 AND status = 'running' AND kind = 'subscriber'
       AND staged = $3 AND processed = $3 AND staged + $4 <= read
     RETURNING staged = read AS complete, user_id, actor_user_id`,
    [companyId, jobId, after, rows.length, resume.chunk, resume.offset, resume.line],
  );
  const job = claimed[0];
  if (!job) throw new ImportJobGoneError();

  const accepted = rows.filter((row) => row.fields !== null);
  let merged: Merged = { imported: 0, updated: 0 };
  const repeats = new Map<number, number>();
  if (accepted.length > 0) {
    // The key is lower(email), as the unique index has it, so two spellings the index takes for one email are
    // one key here too. A key's first row in the batch is noted unless an earlier batch noted it; only noted
    // rows are upserted (so none is updated twice in one statement), every other row repeats an earlier line.
    const { rows: result } = await sql.query<Merged & MergedUnsubscribes & { repeats: [number, number][] }>(
      `WITH batch AS MATERIALIZED (
         SELECT x.seq, x.line, x.fields, lower(x.fields[1]) COLLATE "C" AS key
         FROM json_to_recordset($3::json) AS x(seq integer, line integer, fields text[])),
       firsts AS MATERIALIZED (
         SELECT DISTINCT ON (b.key) b.key, b.line FROM batch b ORDER BY b.key, b.seq),
       noted AS (
         INSERT INTO import_keys AS k (company_id, job_id, key, line)
         SELECT $1, $2, f.key, f.line FROM firsts f
         ON CONFLICT (job_id, key) DO NOTHING
         RETURNING k.key, k.line),
       merged AS (${subscriberUpsert(
         'SELECT b.seq, b.fields FROM batch b JOIN noted n ON n.key = b.key AND n.line = b.line',
       )}),
       ${newSubscriberEventsCte('merged')}
       SELECT (SELECT count(*) FILTER (WHERE inserted) FROM merged)::int AS imported,
              ${UNSUBSCRIBED_IN_MERGE},
              (SELECT count(*) FILTER (WHERE NOT inserted) FROM merged)::int AS updated,
              -- Earlier batches' keys are all this statement sees of import_keys (not the ones it notes).
              (SELECT coalesce(json_agg(json_build_array(b.seq, coalesce(e.line, f.line))), '[]')
               FROM batch b
               JOIN firsts f ON f.key = b.key
               LEFT JOIN import_keys e ON e.company_id = $1 AND e.job_id = $2 AND e.key = b.key
               WHERE NOT EXISTS (SELECT 1 FROM noted n WHERE n.key = b.key AND n.line = b.line)) AS repeats`,
      [
        companyId,
        jobId,
        JSON.stringify(accepted.map((row) => ({ seq: row.seq, line: row.line, fields: row.fields }))),
      ],
    );
    const outcome = result[0]!;
    merged = { imported: outcome.imported, updated: outcome.updated };
    await mergeFlowExits(sql, companyId, outcome);
    for (const [seq, line] of outcome.repeats) repeats.set(seq, line);
  }

  const rejected = rejectedRows(rows, repeats);
  if (rejected.length > 0) {
    await sql.query(
      `INSERT INTO import_rows (company_id, job_id, seq, line, key, raw, outcome, problems)
       SELECT $1, $2, x.seq, x.line, lower(x.key), x.raw, x.outcome, x.problems
       FROM json_to_recordset($3::json)
         AS x(seq integer, line integer, key text, raw text[], outcome text, problems jsonb)`,
      [companyId, jobId, JSON.stringify(rejected)],
    );
  }
  const counts: BatchCounts = { ...merged, duplicates: repeats.size, invalid: rows.length - accepted.length };
  const { rows: totals } = await sql.query<BatchCounts & { read: number; kind: ImportKind }>(
    `UPDATE import_jobs SET imported = imported + $3, updated = updated + $4, duplicates = duplicates + $5,
       invalid = invalid + $6,
       status = CASE WHEN $7 THEN 'done' ELSE status END, claimed = claimed AND NOT $7,
       finished_at = CASE WHEN $7 THEN now() ELSE finished_at END
     WHERE company_id = $1 AND id = $2
     RETURNING kind, read, imported, updated, duplicates, invalid`,
    [companyId, jobId, counts.imported, counts.updated, counts.duplicates, counts.invalid, job.complete],
  );
  if (job.complete) {
    await sql.query('DELETE FROM import_keys WHERE company_id = $1 AND job_id = $2', [companyId, jobId]);
    await deleteImportChunks(sql, companyId, jobId);
    await auditFinishedImport(sql, companyId, jobId, job, totals[0]!);
  }
  return job.complete;
}

/** A finished job's audit entry: who uploaded it and its counts, never a row's contents. */
async function auditFinishedImport(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  uploader: { user_id: number | null; actor_user_id: number | null },
  totals: BatchCounts & { read: number; kind: ImportKind },
): Promise<void> {
  await recordAudit(
    sql,
    { companyId, userId: uploader.user_id, actorUserId: uploader.actor_user_id },
    {
      action: 'create',
      entity: 'import_job',
      entityId: jobId,
      after: {
        kind: totals.kind,
        read: totals.read,
        imported: totals.imported,
        updated: totals.updated,
        duplicates: totals.duplicates,
        invalid: totals.invalid,
      },
    },
  );
}

/** How many rows are staged for a job: all while it runs, the rejected ones once it is done. */
export async function countStagedRows(sql: Sql, companyId: CompanyId, jobId: number): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM import_rows WHERE company_id = $1 AND job_id = $2',
    [companyId, jobId],
  );
  return rows[0]?.count ?? 0;
}

/** How many import jobs a company has, in any state. */
export async function countImportJobs(sql: Sql, companyId: CompanyId): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM import_jobs WHERE company_id = $1',
    [companyId],
  );
  return rows[0]?.count ?? 0;
}

/**
 * Removes the staged rows (the rejected rows' contents) of jobs finished more than `retentionDays` ago: the
 * download has served its purpose, and personal data is not kept longer than needed. Also removes any noted
 * emails left by a job that ended or is gone (its own end removes them; this is the safety net). Returns rows
 * removed.
 */
export async function purgeFinishedImportRows(sql: Sql, retentionDays: number): Promise<number> {
  const { rowCount } = await sql.query(
    `DELETE FROM import_rows r USING import_jobs j
     WHERE j.company_id = r.company_id AND j.id = r.job_id
       AND j.status IN ('done', 'failed') AND j.finished_at < now() - $1 * interval '1 day'`,
    [retentionDays],
  );
  await sql.query(
    `DELETE FROM import_keys k
     WHERE NOT EXISTS (SELECT 1 FROM import_jobs j
                       WHERE j.company_id = k.company_id AND j.id = k.job_id AND j.status IN ('queued', 'running'))`,
  );
  return rowCount;
}

/** Who a deleted guest or subscriber was, as imports would have staged them. */
export type StagedPerson =
  | { kind: 'subscriber'; email: string }
  | { kind: 'guest'; customer_name: string; last_four_digits: string; pos_id?: string };

/**
 * Inside a delete's transaction: removes the rows finished imports still keep of this person (accepted or
 * rejected, matched by dedupe key or by the cells as written), so the rejected-rows download cannot give
 * their personal data back. Rows of a job still merging are left alone; it finishes as uploaded.
 */
export async function forgetStagedPerson(
  sql: Sql,
  companyId: CompanyId,
  person: StagedPerson,
): Promise<void> {
  const finishedJobOfKind = `r.company_id = $1 AND j.company_id = $1 AND j.id = r.job_id AND j.kind = $2
      AND j.status IN ('done', 'failed')`;
  const hasCell = (param: string) =>
    `EXISTS (SELECT 1 FROM unnest(r.raw) AS cell WHERE lower(btrim(cell)) = lower(btrim(${param})))`;
  if (person.kind === 'subscriber') {
    await sql.query(
      `DELETE FROM import_rows r USING import_jobs j
       WHERE ${finishedJobOfKind} AND (r.key = lower(btrim($3)) OR ${hasCell('$3')})`,
      [companyId, person.kind, person.email],
    );
    return;
  }
  await sql.query(
    `DELETE FROM import_rows r USING import_jobs j
     WHERE ${finishedJobOfKind}
       AND (r.key = lower(btrim($3)) || '|' || btrim($4) OR (${hasCell('$3')} AND ${hasCell('$4')}))`,
    [companyId, person.kind, person.customer_name, person.last_four_digits],
  );
  // A checks file's rows name guests too: by name with card digits, or by POS id (blank values name nobody).
  await sql.query(
    `DELETE FROM import_rows r USING import_jobs j
     WHERE ${finishedJobOfKind.replace('$2', "'checks'")}
       AND ((btrim($2) <> '' AND btrim($3) <> '' AND ${hasCell('$2')} AND ${hasCell('$3')})
            OR (btrim($4) <> '' AND ${hasCell('$4')}))`,
    [companyId, person.customer_name, person.last_four_digits, person.pos_id ?? ''],
  );
}

// ───────────────────────────── POS checks files (server/imports/check-merge.ts) ─────────────────────────────

/** Who uploaded a job, for the scope its checks are stored under and its audit entry. */
export interface ClaimedBatch {
  /** The batch holds the file's last rows. */
  complete: boolean;
  user_id: number | null;
  actor_user_id: number | null;
}

/**
 * Claims the next `count` rows of a running checks job (the rows after the first `after`) for the caller's
 * transaction: its staged and processed counts, resume point and heartbeat move at once, under the job row's
 * lock. Throws ImportJobGoneError (nothing written) when another worker got there first or the job ended.
 */
export async function claimCheckBatch(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  after: number,
  count: number,
  resume: StagingResumePoint,
): Promise<ClaimedBatch> {
  const { rows } = await sql.query<ClaimedBatch>(
    `UPDATE import_jobs SET staged = staged + $4, processed = processed + $4, heartbeat_at = clock_timestamp(),
       resume_chunk = $5, resume_offset = $6, resume_line = $7
     WHERE company_id = $1 AND id = $2 AND status = 'running' AND kind = 'checks'
       AND staged = $3 AND processed = $3 AND staged + $4 <= read
     RETURNING staged = read AS complete, user_id, actor_user_id`,
    [companyId, jobId, after, count, resume.chunk, resume.offset, resume.line],
  );
  const batch = rows[0];
  if (!batch) throw new ImportJobGoneError();
  return batch;
}

/**
 * Notes the keys a batch of a job brings with the line each starts on; returns, for the keys an earlier batch
 * noted already, the line they were first noted at.
 */
export async function noteImportKeys(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  keys: readonly { key: string; line: number }[],
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const { rows: noted } = await sql.query<{ key: string }>(
    `INSERT INTO import_keys (company_id, job_id, key, line)
     SELECT $1, $2, x.key, x.line FROM json_to_recordset($3::json) AS x(key text, line integer)
     ON CONFLICT (job_id, key) DO NOTHING RETURNING key`,
    [companyId, jobId, JSON.stringify(keys)],
  );
  const fresh = new Set(noted.map((row) => row.key));
  const repeats = keys.filter((key) => !fresh.has(key.key)).map((key) => key.key);
  if (repeats.length === 0) return new Map();
  // Only the (rare) repeats are looked up, by the primary key: a join of the batch with every key noted so far
  // cost PGlite a second a turn by 10,000 checks.
  const { rows } = await sql.query<{ key: string; line: number }>(
    'SELECT key, line FROM import_keys WHERE company_id = $1 AND job_id = $2 AND key = ANY($3::text[])',
    [companyId, jobId, repeats],
  );
  return new Map(rows.map((row) => [row.key, row.line]));
}

/** A row a batch rejected, kept with its cells and why for the preview and the download. */
export interface RejectedImportRow {
  seq: number;
  line: number;
  raw: string[];
  outcome: 'invalid' | 'duplicate';
  problems: RowProblem[];
}

/** Keeps a batch's rejected rows (invalid, or duplicates) for the job's preview and rejected-rows download. */
export async function storeRejectedImportRows(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  rows: readonly RejectedImportRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql.query(
    `INSERT INTO import_rows (company_id, job_id, seq, line, raw, outcome, problems)
     SELECT $1, $2, x.seq, x.line, x.raw, x.outcome, x.problems
     FROM json_to_recordset($3::json) AS x(seq integer, line integer, raw text[], outcome text, problems jsonb)`,
    [companyId, jobId, JSON.stringify(rows)],
  );
}

/** A checks batch's outcome: rows by outcome, and whole checks. */
export interface CheckBatchCounts extends BatchCounts {
  checksCreated: number;
  checksUnchanged: number;
  checksRejected: number;
}

/**
 * Adds a checks batch's counts to its job; the last batch (`complete`) marks it done, removes its noted keys and
 * stored file, and audits it (counts only).
 */
export async function finishCheckBatch(
  sql: Sql,
  companyId: CompanyId,
  jobId: number,
  batch: ClaimedBatch,
  counts: CheckBatchCounts,
): Promise<void> {
  const { rows } = await sql.query<BatchCounts & { read: number; kind: ImportKind }>(
    `UPDATE import_jobs SET imported = imported + $3, duplicates = duplicates + $4, invalid = invalid + $5,
       checks_created = checks_created + $6, checks_unchanged = checks_unchanged + $7,
       checks_rejected = checks_rejected + $8,
       status = CASE WHEN $9 THEN 'done' ELSE status END, claimed = claimed AND NOT $9,
       finished_at = CASE WHEN $9 THEN now() ELSE finished_at END
     WHERE company_id = $1 AND id = $2
     RETURNING kind, read, imported, updated, duplicates, invalid`,
    [
      companyId,
      jobId,
      counts.imported,
      counts.duplicates,
      counts.invalid,
      counts.checksCreated,
      counts.checksUnchanged,
      counts.checksRejected,
      batch.complete,
    ],
  );
  if (!batch.complete) return;
  await sql.query('DELETE FROM import_keys WHERE company_id = $1 AND job_id = $2', [companyId, jobId]);
  await deleteImportChunks(sql, companyId, jobId);
  await auditFinishedImport(sql, companyId, jobId, batch, rows[0]!);
}
