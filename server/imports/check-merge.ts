import type { Database } from '../db/database.js';
import { noteChecksStored } from '../db/planner-statistics.js';
import {
  claimCheckBatch,
  finishCheckBatch,
  noteImportKeys,
  storeRejectedImportRows,
  type RejectedImportRow,
  type StagingResumePoint,
} from '../repositories/imports.repository.js';
import { ingestChecks } from '../repositories/pos-ingestion.repository.js';
import { missingIds } from '../repositories/references.js';
import { FUTURE_TOLERANCE_MS } from '../services/pos-checks.service.js';
import { checkCheckRow, groupCheckRows, rejectAsRepeat, rejectGroup } from './check-rows.js';
import type { ColumnMap } from './columns.js';
import type { CsvRecord } from './csv-reader.js';

/**
 * Merges one batch of a POS checks file (whole checks: ./staging.ts never cuts a check's rows in two) in one
 * transaction: the batch is claimed (the job's progress and resume point), its checks' keys noted so a check
 * whose rows come back later in the file is refused, checks at another company's (or no) location refused, the
 * rest stored through `ingestChecks` (idempotent: a check stored before is left unchanged, and the guests'
 * running figures move with it, as with `POST /pos/checks/`), and rejected rows kept for the download.
 * Returns true when the batch was the file's last.
 */
export async function mergeCheckBatch(
  db: Database,
  companyId: number,
  jobId: number,
  columns: ColumnMap,
  records: readonly CsvRecord[],
  after: number,
  resume: StagingResumePoint,
  now: Date = new Date(),
): Promise<boolean> {
  const latest = now.getTime() + FUTURE_TOLERANCE_MS;
  const rows = records.map((record, index) => checkCheckRow(columns, record, after + index + 1, latest));
  const groups = groupCheckRows(rows);
  let created = 0;
  const complete = await db.tenant(companyId, async (sql) => {
    const batch = await claimCheckBatch(sql, companyId, jobId, after, rows.length, resume);
    const firsts = new Map<string, number>();
    for (const group of groups) if (!firsts.has(group.key)) firsts.set(group.key, group.line);
    const earlier = await noteImportKeys(
      sql,
      companyId,
      jobId,
      [...firsts].map(([key, line]) => ({ key, line })),
    );
    for (const group of groups) {
      const line = earlier.get(group.key);
      if (line !== undefined) rejectAsRepeat(group, line);
    }
    const storable = groups.filter((group) => group.check !== null);
    const unknown = new Set(
      await missingIds(
        sql,
        companyId,
        'locations',
        storable.map((group) => group.check!.location_id),
      ),
    );
    for (const group of storable) {
      const location = group.check!.location_id;
      // Another company's location reads as no location at all.
      if (unknown.has(location)) {
        rejectGroup(group, {
          field: 'location_id',
          code: 'invalid',
          params: {},
          message: `location ${location} does not exist`,
        });
      }
    }
    const storing = groups.filter((group) => group.check !== null);
    const scope = { companyId, userId: batch.user_id, actorUserId: batch.actor_user_id };
    const stored = await ingestChecks(
      sql,
      scope,
      storing.map((group) => group.check!),
    );
    const rejected: RejectedImportRow[] = [];
    for (const index of stored.unchanged) {
      for (const row of storing[index]!.rows) {
        const message = 'The check is stored already (same location, check number and closed_at): unchanged';
        rejected.push({
          seq: row.seq,
          line: row.line,
          raw: row.raw,
          outcome: 'duplicate',
          problems: [{ field: 'check_number', code: 'already_exists', params: {}, message }],
        });
      }
    }
    const refused = groups.filter((group) => group.check === null);
    for (const row of refused.flatMap((group) => group.rows)) {
      const repeat = row.problems[0]?.code === 'duplicate_in_file';
      rejected.push({
        seq: row.seq,
        line: row.line,
        raw: row.raw,
        outcome: repeat ? 'duplicate' : 'invalid',
        problems: row.problems,
      });
    }
    rejected.sort((a, b) => a.seq - b.seq);
    await storeRejectedImportRows(sql, companyId, jobId, rejected);
    const duplicates = rejected.filter((row) => row.outcome === 'duplicate').length;
    const invalid = rejected.length - duplicates;
    await finishCheckBatch(sql, companyId, jobId, batch, {
      imported: rows.length - rejected.length,
      updated: 0,
      duplicates,
      invalid,
      checksCreated: stored.created.length,
      checksUnchanged: stored.unchanged.length,
      // A repeat of an earlier check's rows is not another check.
      checksRejected: refused.filter((group) => group.rows[0]!.problems[0]?.code !== 'duplicate_in_file')
        .length,
    });
    created = stored.created.length;
    return batch.complete;
  });
  // Upkeep after the batch's commit: a failure must not fail the turn that stored it (the next one retries).
  await noteChecksStored(db, created).catch(() => undefined);
  return complete;
}
