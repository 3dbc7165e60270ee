import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import {
  claimImportJob,
  countImportJobs,
  countStagedRows,
  createImportJob,
  discardImportJob,
  failAbandonedUploads,
  findImportJob,
  ImportJobGoneError,
  listImportRowErrors,
  mergeImportBatch,
  purgeFinishedImportRows,
  queueImportJob,
  rejectedRowsAfter,
  stageImportRows,
  type StagedRow,
} from '../../server/repositories/imports.repository.js';
import { listSubscribers } from '../../server/repositories/subscribers.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

/** A staged subscriber row: valid with an email, or invalid with a problem. */
function subscriberRow(seq: number, email: string | null): StagedRow {
  return email === null
    ? {
        seq,
        line: seq + 1,
        fields: null,
        raw: ['bad'],
        problems: [{ field: 'email', code: 'invalid', params: {}, message: 'Email is not valid' }],
      }
    : {
        seq,
        line: seq + 1,
        fields: [email, '', '', '', '', '', 'true', '', `H${String(seq).padStart(9, '0')}`],
        raw: [email],
        problems: null,
      };
}

/** A job of `companyId` holding the rows, queued and claimed by a runner. */
async function runningJob(db: Database, companyId: number, rows: StagedRow[]): Promise<number> {
  const id = await db.tenant(companyId, (sql) =>
    createImportJob(sql, systemScope(companyId), {
      kind: 'subscriber',
      fileName: 'f.csv',
      header: ['email'],
    }),
  );
  await db.tenant(companyId, (sql) => stageImportRows(sql, companyId, id, rows, 100));
  await db.tenant(companyId, (sql) => queueImportJob(sql, companyId, id, 100));
  expect((await db.platform((sql) => claimImportJob(sql, 60_000)))?.id).toBe(id);
  return id;
}

describe('imports repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('merges in batches that each commit rows, outcomes and progress, and audits the finished job once', async () => {
    const id = await runningJob(db, companyA, [
      subscriberRow(1, 'one@example.com'),
      subscriberRow(2, null),
      subscriberRow(3, 'ONE@example.com'),
      subscriberRow(4, 'two@example.com'),
    ]);
    expect(await db.tenant(companyA, (sql) => mergeImportBatch(sql, companyA, id, 3))).toBe(false);
    expect(await db.tenant(companyA, (sql) => findImportJob(sql, companyA, id))).toMatchObject({
      status: 'running',
      processed: 3,
      imported: 1,
      duplicates: 1,
      invalid: 1,
    });
    expect(await db.tenant(companyA, (sql) => mergeImportBatch(sql, companyA, id, 3))).toBe(true);
    expect(await db.tenant(companyA, (sql) => findImportJob(sql, companyA, id))).toMatchObject({
      status: 'done',
      processed: 4,
      imported: 2,
    });
    // A finished job merges nothing more.
    expect(await db.tenant(companyA, (sql) => mergeImportBatch(sql, companyA, id, 3))).toBe(true);
    expect(
      (await db.tenant(companyA, (sql) => listSubscribers(sql, companyA, { limit: 10, offset: 0 }))).count,
    ).toBe(2);
    expect(await db.tenant(companyA, (sql) => listImportRowErrors(sql, companyA, id, 10))).toEqual([
      { line: 3, field: 'email', code: 'invalid', params: {}, message: 'Email is not valid' },
      {
        line: 4,
        field: 'email',
        code: 'duplicate_in_file',
        params: { line: 2 },
        message: 'Duplicate of line 2',
      },
    ]);
    expect(
      (await db.tenant(companyA, (sql) => rejectedRowsAfter(sql, companyA, id, 2, 10))).map((row) => row.seq),
    ).toEqual([3]);
    // Only the rejected rows stay staged, and only until their retention ends.
    expect(await db.tenant(companyA, (sql) => countStagedRows(sql, companyA, id))).toBe(2);
    expect(await db.platform((sql) => purgeFinishedImportRows(sql, 30))).toBe(0);
    expect(await db.platform((sql) => purgeFinishedImportRows(sql, 0))).toBe(2);
    expect(await db.tenant(companyA, (sql) => countStagedRows(sql, companyA, id))).toBe(0);
  });

  it('refuses rows for a job no longer receiving, and gives up abandoned uploads with their rows', async () => {
    const id = await db.tenant(companyA, (sql) =>
      createImportJob(sql, systemScope(companyA), {
        kind: 'subscriber',
        fileName: 'cut.csv',
        header: ['email'],
      }),
    );
    await db.tenant(companyA, (sql) =>
      stageImportRows(sql, companyA, id, [subscriberRow(1, 'cut@example.com')], 10),
    );
    expect(await db.platform((sql) => failAbandonedUploads(sql, 0, [id]))).toBe(0);
    expect(await db.platform((sql) => failAbandonedUploads(sql, 0))).toBe(1);
    expect(await db.tenant(companyA, (sql) => findImportJob(sql, companyA, id))).toMatchObject({
      status: 'failed',
      failure: 'The upload was interrupted',
    });
    expect(await db.tenant(companyA, (sql) => countStagedRows(sql, companyA, id))).toBe(0);
    await expect(
      db.tenant(companyA, (sql) =>
        stageImportRows(sql, companyA, id, [subscriberRow(2, 'x@example.com')], 20),
      ),
    ).rejects.toThrow(ImportJobGoneError);
  });

  it("keeps every read and write to the company's own jobs, even without row-level security", async () => {
    const bare = withoutRowLevelSecurity(db);
    const id = await runningJob(db, companyB, [subscriberRow(1, null)]);
    const before = await bare.tenant(companyA, (sql) => countImportJobs(sql, companyA));
    expect(await bare.tenant(companyA, (sql) => findImportJob(sql, companyA, id))).toBeNull();
    expect(await bare.tenant(companyA, (sql) => listImportRowErrors(sql, companyA, id, 10))).toEqual([]);
    expect(await bare.tenant(companyA, (sql) => rejectedRowsAfter(sql, companyA, id, 0, 10))).toEqual([]);
    expect(await bare.tenant(companyA, (sql) => countStagedRows(sql, companyA, id))).toBe(0);
    expect(await bare.tenant(companyA, (sql) => mergeImportBatch(sql, companyA, id, 10))).toBe(true);
    await bare.tenant(companyA, (sql) => discardImportJob(sql, companyA, id));
    expect(await bare.tenant(companyB, (sql) => findImportJob(sql, companyB, id))).toMatchObject({
      status: 'running',
      processed: 0,
    });
    expect(await bare.tenant(companyB, (sql) => countStagedRows(sql, companyB, id))).toBe(1);
    expect(await bare.tenant(companyA, (sql) => countImportJobs(sql, companyA))).toBe(before);
  });
});
