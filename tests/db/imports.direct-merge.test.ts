import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { fileStager } from '../../server/imports/staging.js';
import {
  claimImportJob,
  countStagedRows,
  createImportJob,
  findImportJob,
  ImportJobGoneError,
  listImportRowErrors,
  mergeSubscriberRows,
  queueImportJob,
  storeImportChunk,
  type StagedRow,
} from '../../server/repositories/imports.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeSubscriber, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

/** A claimed subscriber job whose stored file is `file`, holding `read` data rows. */
async function claimedJob(db: Database, companyId: number, file: string, read: number): Promise<number> {
  const id = await db.tenant(companyId, (sql) =>
    createImportJob(sql, systemScope(companyId), {
      kind: 'subscriber',
      fileName: 's.csv',
      header: ['email'],
    }),
  );
  await db.tenant(companyId, (sql) =>
    storeImportChunk(sql, companyId, id, { seq: 1, text: file }, { bytes: file.length, read }),
  );
  await db.tenant(companyId, (sql) => queueImportJob(sql, companyId, id, { bytes: file.length, read }));
  expect((await db.platform((sql) => claimImportJob(sql, 60_000)))?.id).toBe(id);
  return id;
}

/** A checked subscriber row with only an email and the given hashid. */
function checkedRow(seq: number, email: string, hashid: string): StagedRow {
  return {
    seq,
    line: seq + 1,
    fields: [email, '', '', '', '', '', 'true', '', hashid],
    raw: [email],
    problems: null,
  };
}

/** The emails a job has noted so far (platform view, so any company's). */
async function notedKeys(db: Database, jobId: number): Promise<number> {
  const { rows } = await db.platform((sql) =>
    sql.query<{ count: number }>('SELECT count(*)::int AS count FROM import_keys WHERE job_id = $1', [jobId]),
  );
  return rows[0]!.count;
}

describe('subscriber files merged straight from their batches', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('names the first line of a repeat within a batch and across batches, and keeps only rejected rows', async () => {
    const file = 'email\na@d.com\nb@d.com\n A@D.COM\nc@d.com\nb@d.com\nC@d.com\nnot-an-email\n';
    const id = await claimedJob(db, companyA, file, 7);
    const stager = fileStager(db);
    expect(await stager.stageNext(companyA, id, 3)).toBe('staged');
    expect(await db.tenant(companyA, (sql) => findImportJob(sql, companyA, id))).toMatchObject({
      status: 'running',
      processed: 3,
      imported: 2,
      duplicates: 1,
    });
    expect(await notedKeys(db, id)).toBe(2);
    // Another worker's batch from the same point is refused, and nothing of it is written.
    await expect(
      db.tenant(companyA, (sql) =>
        mergeSubscriberRows(sql, companyA, id, [checkedRow(1, 'late@d.com', 'HLATE00001')], 0, {
          chunk: 1,
          offset: 0,
          line: 2,
        }),
      ),
    ).rejects.toThrow(ImportJobGoneError);

    expect(await stager.stageNext(companyA, id, 10)).toBe('done');
    expect(await db.tenant(companyA, (sql) => findImportJob(sql, companyA, id))).toMatchObject({
      status: 'done',
      read: 7,
      processed: 7,
      imported: 3,
      updated: 0,
      duplicates: 3,
      invalid: 1,
    });
    const errors = await db.tenant(companyA, (sql) => listImportRowErrors(sql, companyA, id, 10));
    expect(errors.map(({ line, code, params }) => ({ line, code, params }))).toEqual([
      { line: 4, code: 'duplicate_in_file', params: { line: 2 } },
      { line: 6, code: 'duplicate_in_file', params: { line: 3 } },
      { line: 7, code: 'duplicate_in_file', params: { line: 5 } },
      { line: 8, code: 'invalid', params: {} },
    ]);
    expect(await db.tenant(companyA, (sql) => countStagedRows(sql, companyA, id))).toBe(4);
    // The emails noted for finding repeats go with the job's end.
    expect(await notedKeys(db, id)).toBe(0);
  });

  it('leaves nothing of a batch that fails: no subscriber, no noted email, no rejected row, no progress', async () => {
    const taken = await makeSubscriber(db, companyA, { email: 'taken@d.com' });
    const id = await claimedJob(db, companyA, 'email\nnew@d.com\nbad\n', 2);
    const rows: StagedRow[] = [
      // The hashid of a stored subscriber: the insert breaks the unique (company, hashid) rule.
      checkedRow(1, 'new@d.com', taken.hashid),
      { seq: 2, line: 3, fields: null, raw: ['bad'], problems: [] },
    ];
    await expect(
      db.tenant(companyA, (sql) =>
        mergeSubscriberRows(sql, companyA, id, rows, 0, { chunk: 1, offset: 20, line: 3 }),
      ),
    ).rejects.toThrow();
    expect(await db.tenant(companyA, (sql) => findImportJob(sql, companyA, id))).toMatchObject({
      status: 'running',
      processed: 0,
      imported: 0,
      invalid: 0,
    });
    expect(await notedKeys(db, id)).toBe(0);
    expect(await db.tenant(companyA, (sql) => countStagedRows(sql, companyA, id))).toBe(0);
    const { rows: found } = await db.platform((sql) =>
      sql.query("SELECT 1 FROM subscribers WHERE company_id = $1 AND email = 'new@d.com'", [companyA]),
    );
    expect(found).toEqual([]);
  });

  it("merges into the company's own subscribers only, even without row-level security", async () => {
    await makeSubscriber(db, companyB, { email: 'shared@d.com', first_name: 'B' });
    const id = await claimedJob(db, companyA, 'email\nSHARED@d.com\n', 1);
    const bare = withoutRowLevelSecurity(db);
    expect(await fileStager(bare).stageNext(companyA, id, 10)).toBe('done');
    expect(await db.tenant(companyA, (sql) => findImportJob(sql, companyA, id))).toMatchObject({
      imported: 1,
      updated: 0,
    });
    const { rows } = await db.owner((sql) =>
      sql.query<{ company_id: number; first_name: string }>(
        `SELECT company_id::int, first_name FROM subscribers
         WHERE company_id IN ($1, $2) AND lower(email) = 'shared@d.com' ORDER BY company_id`,
        [companyA, companyB],
      ),
    );
    expect(rows).toEqual([
      { company_id: companyA, first_name: '' },
      { company_id: companyB, first_name: 'B' },
    ]);
  });
});
