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
        problems: [{ field: 'email', message: 'Email is not valid' }],
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
  const id = await createImportJob(db, systemScope(companyId), {
    kind: 'subscriber',
    fileName: 'f.csv',
    header: ['email'],
  });
  await stageImportRows(db, companyId, id, rows, 100);
  await queueImportJob(db, companyId, id, 100);
  expect((await claimImportJob(db, 60_000))?.id).toBe(id);
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
    expect(await mergeImportBatch(db, companyA, id, 3)).toBe(false);
    expect(await findImportJob(db, companyA, id)).toMatchObject({
      status: 'running',
      processed: 3,
      imported: 1,
      duplicates: 1,
      invalid: 1,
    });
    expect(await mergeImportBatch(db, companyA, id, 3)).toBe(true);
    expect(await findImportJob(db, companyA, id)).toMatchObject({
      status: 'done',
      processed: 4,
      imported: 2,
    });
    // A finished job merges nothing more.
    expect(await mergeImportBatch(db, companyA, id, 3)).toBe(true);
    expect((await listSubscribers(db, companyA, { limit: 10, offset: 0 })).count).toBe(2);
    expect(await listImportRowErrors(db, companyA, id, 10)).toEqual([
      { line: 3, field: 'email', message: 'Email is not valid' },
      { line: 4, field: 'email', message: 'Duplicate of line 2' },
    ]);
    expect((await rejectedRowsAfter(db, companyA, id, 2, 10)).map((row) => row.seq)).toEqual([3]);
    // Only the rejected rows stay staged, and only until their retention ends.
    expect(await countStagedRows(db, companyA, id)).toBe(2);
    expect(await purgeFinishedImportRows(db, 30)).toBe(0);
    expect(await purgeFinishedImportRows(db, 0)).toBe(2);
    expect(await countStagedRows(db, companyA, id)).toBe(0);
  });

  it('refuses rows for a job no longer receiving, and gives up abandoned uploads with their rows', async () => {
    const id = await createImportJob(db, systemScope(companyA), {
      kind: 'subscriber',
      fileName: 'cut.csv',
      header: ['email'],
    });
    await stageImportRows(db, companyA, id, [subscriberRow(1, 'cut@example.com')], 10);
    expect(await failAbandonedUploads(db, 0, [id])).toBe(0);
    expect(await failAbandonedUploads(db, 0)).toBe(1);
    expect(await findImportJob(db, companyA, id)).toMatchObject({
      status: 'failed',
      failure: 'The upload was interrupted',
    });
    expect(await countStagedRows(db, companyA, id)).toBe(0);
    await expect(stageImportRows(db, companyA, id, [subscriberRow(2, 'x@example.com')], 20)).rejects.toThrow(
      ImportJobGoneError,
    );
  });

  it("keeps every read and write to the company's own jobs, even without row-level security", async () => {
    const bare = withoutRowLevelSecurity(db);
    const id = await runningJob(db, companyB, [subscriberRow(1, null)]);
    const before = await countImportJobs(bare, companyA);
    expect(await findImportJob(bare, companyA, id)).toBeNull();
    expect(await listImportRowErrors(bare, companyA, id, 10)).toEqual([]);
    expect(await rejectedRowsAfter(bare, companyA, id, 0, 10)).toEqual([]);
    expect(await countStagedRows(bare, companyA, id)).toBe(0);
    expect(await mergeImportBatch(bare, companyA, id, 10)).toBe(true);
    await discardImportJob(bare, companyA, id);
    expect(await findImportJob(bare, companyB, id)).toMatchObject({ status: 'running', processed: 0 });
    expect(await countStagedRows(bare, companyB, id)).toBe(1);
    expect(await countImportJobs(bare, companyA)).toBe(before);
  });
});
