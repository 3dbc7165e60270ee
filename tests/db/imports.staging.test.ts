import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { fileStager } from '../../server/imports/staging.js';
import {
  claimImportJob,
  countStagedRows,
  createImportJob,
  findImportJob,
  findStagingState,
  queueImportJob,
  rejectedRowsAfter,
  storeImportChunk,
} from '../../server/repositories/imports.repository.js';
import { systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

/** A queued subscriber job whose stored file is `chunks`, in order, holding `read` data rows. */
async function storedJob(db: Database, companyId: number, chunks: string[], read: number): Promise<number> {
  const id = await db.tenant(companyId, (sql) =>
    createImportJob(sql, systemScope(companyId), {
      kind: 'subscriber',
      fileName: 's.csv',
      header: ['email'],
    }),
  );
  for (const [index, text] of chunks.entries()) {
    await db.tenant(companyId, (sql) =>
      storeImportChunk(sql, companyId, id, { seq: index + 1, text }, { bytes: 0, read }),
    );
  }
  await db.tenant(companyId, (sql) => queueImportJob(sql, companyId, id, { bytes: 100, read }));
  return id;
}

describe('staging a stored file in turns', () => {
  let db: Database;
  let companyA: number;
  useTwoCompanies((opened) => ({ db, companyA } = opened));

  it('reads on from the committed resume point when another worker takes the next turn', async () => {
    // Records cross chunk boundaries; line 5 is invalid, so its line shows in the rejected rows.
    const chunks = [
      'email\r\na0@x.com\r\na1@',
      'x.com\r\na2@x.com\r\nbroken\r\na4',
      '@x.com\r\n\r\na5@x.com\r\n',
    ];
    const id = await storedJob(db, companyA, chunks, 6);
    expect((await db.platform((sql) => claimImportJob(sql, 60_000)))?.id).toBe(id);

    expect(await fileStager(db).stageNext(companyA, id, 2)).toBe('staged');
    const state = await db.tenant(companyA, (sql) => findStagingState(sql, companyA, id));
    // a1's record ends on the CR after it, in the second chunk, on line 3.
    expect(state).toMatchObject({ staged: 2, resume: { chunk: 2, offset: 5, line: 3 } });

    // The first chunk is gone: a worker reading the file again from its start could not stage a single row.
    await db.platform((sql) =>
      sql.query('DELETE FROM import_file_chunks WHERE company_id = $1 AND job_id = $2 AND seq = 1', [
        companyA,
        id,
      ]),
    );
    expect(await fileStager(db).stageNext(companyA, id, 2)).toBe('staged');
    const last = fileStager(db);
    // A subscriber file merges straight from each batch: its last batch finishes the job.
    expect(await last.stageNext(companyA, id, 10)).toBe('done');
    expect(await last.stageNext(companyA, id, 10)).toBe('complete');
    // Only the rejected row is kept.
    expect(await db.tenant(companyA, (sql) => countStagedRows(sql, companyA, id))).toBe(1);
    const job = await db.tenant(companyA, (sql) => findImportJob(sql, companyA, id));
    expect(job).toMatchObject({
      status: 'done',
      read: 6,
      processed: 6,
      imported: 5,
      invalid: 1,
      duplicates: 0,
    });
    const rejected = await db.tenant(companyA, (sql) => rejectedRowsAfter(sql, companyA, id, 0, 10));
    expect(rejected.map(({ seq, line, raw }) => ({ seq, line, raw }))).toEqual([
      { seq: 4, line: 5, raw: ['broken'] },
    ]);
  });
});
