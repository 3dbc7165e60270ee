import { describe, expect, it } from 'vitest';
import type { CustomerKind } from '../../src/schemas/customers.js';
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
  readImportChunk,
  rejectedRowsAfter,
  releaseImportJob,
  stageImportRows,
  storeImportChunk,
  type StagedRow,
} from '../../server/repositories/imports.repository.js';
import { listSubscribers } from '../../server/repositories/subscribers.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeGuest, makeSubscriber, systemScope } from '../support/factories.js';
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

/** A staged guest row: name, card digits and POS id, valid. */
function guestRow(seq: number, name: string, digits: string, posId: string): StagedRow {
  return {
    seq,
    line: seq + 1,
    fields: [name, digits, posId, `G${String(seq).padStart(9, '0')}`],
    raw: [name, digits, posId],
    problems: null,
  };
}

/** A job of `companyId` holding the rows, queued and claimed by a runner. */
async function runningJob(
  db: Database,
  companyId: number,
  rows: StagedRow[],
  kind: CustomerKind = 'subscriber',
): Promise<number> {
  const id = await db.tenant(companyId, (sql) =>
    createImportJob(sql, systemScope(companyId), {
      kind,
      fileName: 'f.csv',
      header: kind === 'subscriber' ? ['email'] : ['customer_name', 'last_four_digits', 'pos_id'],
    }),
  );
  await db.tenant(companyId, (sql) => queueImportJob(sql, companyId, id, { bytes: 100, read: rows.length }));
  await db.tenant(companyId, (sql) => stageImportRows(sql, companyId, id, rows, 0));
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
    const chunk = { seq: 1, text: 'email\ncut@example.com\n' };
    await db.tenant(companyA, (sql) => storeImportChunk(sql, companyA, id, chunk, { bytes: 24, read: 1 }));
    expect(await db.platform((sql) => failAbandonedUploads(sql, 0, [id]))).toBe(0);
    expect(await db.platform((sql) => failAbandonedUploads(sql, 0))).toBe(1);
    expect(await db.tenant(companyA, (sql) => findImportJob(sql, companyA, id))).toMatchObject({
      status: 'failed',
      failure: 'The upload was interrupted',
    });
    expect(await db.tenant(companyA, (sql) => readImportChunk(sql, companyA, id, 1))).toBeNull();
    await expect(
      db.tenant(companyA, (sql) => storeImportChunk(sql, companyA, id, null, { bytes: 30, read: 2 })),
    ).rejects.toThrow(ImportJobGoneError);
    await expect(
      db.tenant(companyA, (sql) =>
        stageImportRows(sql, companyA, id, [subscriberRow(1, 'x@example.com')], 0),
      ),
    ).rejects.toThrow(ImportJobGoneError);
  });

  it('stages each row once, in order, and drops the stored file once every row is staged', async () => {
    const id = await db.tenant(companyA, (sql) =>
      createImportJob(sql, systemScope(companyA), {
        kind: 'subscriber',
        fileName: 's.csv',
        header: ['email'],
      }),
    );
    const file = 'email\na@example.com\nb@example.com\n';
    await db.tenant(companyA, (sql) =>
      storeImportChunk(sql, companyA, id, { seq: 1, text: file }, { bytes: file.length, read: 2 }),
    );
    await db.tenant(companyA, (sql) => queueImportJob(sql, companyA, id, { bytes: file.length, read: 2 }));
    const stored = await db.tenant(companyA, (sql) => readImportChunk(sql, companyA, id, 1));
    expect(stored).toBe(file);
    await db.tenant(companyA, (sql) =>
      stageImportRows(sql, companyA, id, [subscriberRow(1, 'a@example.com')], 0),
    );
    // A second worker staging from the same point finds the rows taken: nothing is staged twice.
    await expect(
      db.tenant(companyA, (sql) =>
        stageImportRows(sql, companyA, id, [subscriberRow(1, 'a@example.com')], 0),
      ),
    ).rejects.toThrow(ImportJobGoneError);
    expect(await db.tenant(companyA, (sql) => readImportChunk(sql, companyA, id, 1))).not.toBeNull();
    await db.tenant(companyA, (sql) =>
      stageImportRows(sql, companyA, id, [subscriberRow(2, 'b@example.com')], 1),
    );
    expect(await db.tenant(companyA, (sql) => readImportChunk(sql, companyA, id, 1))).toBeNull();
    expect(await db.tenant(companyA, (sql) => countStagedRows(sql, companyA, id))).toBe(2);
    await db.tenant(companyA, (sql) => discardImportJob(sql, companyA, id));
  });

  it("gives the next turn to another company's job: a job released after a batch goes to the back", async () => {
    const row = subscriberRow(1, 'turn-a1@example.com');
    // Its own hashid: the other tests' rows are in the same company.
    row.fields![8] = 'HTURN00001';
    const first = await runningJob(db, companyA, [row]);
    await db.tenant(companyA, (sql) => releaseImportJob(sql, companyA, first));
    const other = await db.tenant(companyB, (sql) =>
      createImportJob(sql, systemScope(companyB), {
        kind: 'subscriber',
        fileName: 'b.csv',
        header: ['email'],
      }),
    );
    await db.tenant(companyB, (sql) => queueImportJob(sql, companyB, other, { bytes: 10, read: 0 }));
    // The new job of the other company goes first, then the released one.
    expect(await db.platform((sql) => claimImportJob(sql, 60_000))).toEqual({
      id: other,
      company_id: companyB,
    });
    await db.tenant(companyB, (sql) => releaseImportJob(sql, companyB, other));
    expect(await db.platform((sql) => claimImportJob(sql, 60_000))).toEqual({
      id: first,
      company_id: companyA,
    });
    // A job held by a live worker is not handed out twice.
    expect(await db.platform((sql) => claimImportJob(sql, 60_000))).toEqual({
      id: other,
      company_id: companyB,
    });
    expect(await db.platform((sql) => claimImportJob(sql, 60_000))).toBeNull();
    for (const [company, id] of [
      [companyA, first],
      [companyB, other],
    ] as const) {
      expect(await db.tenant(company, (sql) => mergeImportBatch(sql, company, id, 10))).toBe(true);
    }
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
  it("matches only the company's own subscribers and guests when merging, even without row-level security", async () => {
    const bare = withoutRowLevelSecurity(db);
    await makeSubscriber(db, companyB, { email: 'both@example.com', first_name: 'B' });
    await makeGuest(db, companyB, { customer_name: 'Both Places', last_four_digits: '2468', pos_id: 'B-1' });
    // Its own hashid: the other tests' rows are in the same company.
    const both = subscriberRow(1, 'BOTH@example.com');
    both.fields![8] = 'HBOTH00001';
    const subscriberJob = await runningJob(db, companyA, [both]);
    const guestJob = await runningJob(db, companyA, [guestRow(1, 'both places', '2468', 'A-1')], 'guest');
    for (const id of [subscriberJob, guestJob]) {
      expect(await bare.tenant(companyA, (sql) => mergeImportBatch(sql, companyA, id, 10))).toBe(true);
      expect(await bare.tenant(companyA, (sql) => findImportJob(sql, companyA, id))).toMatchObject({
        imported: 1,
        updated: 0,
      });
    }
    const stored = await db.owner((sql) =>
      sql.query<{ company_id: number; who: string; value: string }>(
        `SELECT company_id::int, email AS who, first_name AS value FROM subscribers
         WHERE company_id IN ($1, $2) AND lower(email) = 'both@example.com'
         UNION ALL
         SELECT company_id::int, customer_name, pos_id FROM guests
         WHERE company_id IN ($1, $2) AND last_four_digits = '2468'
         ORDER BY 1, 2`,
        [companyA, companyB],
      ),
    );
    expect(stored.rows).toEqual([
      { company_id: companyA, who: 'BOTH@example.com', value: '' },
      { company_id: companyA, who: 'both places', value: 'A-1' },
      { company_id: companyB, who: 'Both Places', value: 'B-1' },
      { company_id: companyB, who: 'both@example.com', value: 'B' },
    ]);
  });
});
