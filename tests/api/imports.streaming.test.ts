import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { generateCompanyKey } from '../../server/auth/company-token.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import type { Database } from '../../server/db/database.js';
import { setCompanyFeatures } from '../../server/repositories/company-features.repository.js';
import { createCompanyToken } from '../../server/repositories/company-tokens.repository.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import type { ImportJob } from '../../src/schemas/imports.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, systemScope } from '../support/factories.js';

/**
 * Uploads over a real socket, streamed in parts as a browser sends a large file: the text is stored in chunks
 * while the body still arrives, and a body cut short or refused part-way (binary, too large) leaves no job
 * and no stored chunk behind, however much was stored before. A whole file imports as any upload does.
 */

const URL_PATH = '/api/subscriptions/subscribers/upload/?file_name=big.csv';
/** Rows enough for a file of about 2 MB: a 1 MB chunk is stored before its end. */
const ROWS = 30_000;
/** Larger than the test file, smaller than three copies of it. */
const MAX_BYTES = 5 * 1024 * 1024;

/** The file: a header, then `rows` valid subscriber lines of about 85 bytes each. */
function csvFile(rows: number): Buffer {
  const lines = ['email,first_name,last_name,zip,pos_id,subscribed'];
  for (let i = 0; i < rows; i++) {
    lines.push(`streamed${i}@example.com,Streamed ${i},Uploader,${10000 + (i % 80000)},S-${i},yes`);
  }
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

/** What a streamed upload got back; `status` 0 when the client cut the body short (no answer). */
interface StreamedAnswer {
  status: number;
  body: string;
}

/**
 * Sends `head` of the body, waits until `between` resolves (the server has stored part of it), then either
 * sends `tail` and ends the body, or, with `cut`, destroys the socket mid-body. Resolves with the answer, or
 * status 0 once a cut body's socket is closed. Without `length` the body goes chunked (no declared size).
 */
function streamUpload(
  port: number,
  headers: Record<string, string>,
  parts: { head: Buffer; tail: Buffer; between: () => Promise<void>; cut?: boolean; length?: number },
): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const call = request({
      host: '127.0.0.1',
      port,
      path: URL_PATH,
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'text/csv',
        ...(parts.length === undefined ? {} : { 'content-length': String(parts.length) }),
      },
    });
    call.on('response', (response: IncomingMessage) => {
      answered = true;
      const pieces: Buffer[] = [];
      response.on('data', (piece: Buffer) => pieces.push(piece));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(pieces).toString('utf8') }),
      );
    });
    call.on('error', (error) => {
      // A refusal may close the socket while the rest is still being written, or a cut body ends here.
      if (parts.cut) resolve({ status: 0, body: '' });
      else if (!answered) reject(error);
    });
    call.write(parts.head);
    void parts.between().then(
      () => {
        if (parts.cut) call.destroy();
        else call.end(parts.tail);
      },
      (error: unknown) => {
        call.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Waits until `ready` holds, checking every 50 ms; fails after `seconds` with `what`. */
async function until(ready: () => Promise<boolean>, what: string, seconds = 20): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('CSV uploads streamed over a socket', () => {
  let database: TestDatabase;
  let db: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let port: number;
  const file = csvFile(ROWS);
  // The head holds at least one full chunk; the tail the rest.
  const split = 1_500_000;

  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db;
    app = await buildApp({
      db,
      logLevel: 'silent',
      clientDir: null,
      auth: authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' }),
      // Large turns without rests: the good file imports quickly on PGlite too (nothing else is timed here).
      imports: { maxBytes: MAX_BYTES, batchRows: 5000, stageRows: 5000, restRatio: 0 },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  /** A new company with every feature, calling with its API token. */
  async function newCaller(name: string): Promise<{ companyId: number; headers: Record<string, string> }> {
    const company = await makeCompany(db, name);
    await db.tenant(company.id, (sql) => setCompanyFeatures(sql, systemScope(company.id), [...ALL_FEATURES]));
    const key = generateCompanyKey();
    await db.tenant(company.id, (sql) =>
      createCompanyToken(sql, company.id, {
        name: 'tests',
        keyPrefix: key.keyPrefix,
        keyHash: key.keyHash,
        createdBy: null,
      }),
    );
    return { companyId: company.id, headers: { authorization: `Token ${key.key}` } };
  }

  /** The company's import jobs and stored chunks, read as the owner (whatever their state). */
  const leftovers = (companyId: number) =>
    db.owner(async (sql) => {
      const jobs = await sql.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM import_jobs WHERE company_id = $1',
        [companyId],
      );
      const chunks = await sql.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM import_file_chunks WHERE company_id = $1',
        [companyId],
      );
      return { jobs: jobs.rows[0]!.count, chunks: chunks.rows[0]!.count };
    });

  /** Resolves once the server has stored at least one chunk of the company's upload (the body still open). */
  const storedWhileStreaming = (companyId: number) => () =>
    until(async () => (await leftovers(companyId)).chunks > 0, 'a chunk stored while the body streams');

  it('stores chunks while the body streams, and a whole file imports every row', async () => {
    const caller = await newCaller('Streamed Whole Co');
    const answer = await streamUpload(port, caller.headers, {
      head: file.subarray(0, split),
      tail: file.subarray(split),
      between: storedWhileStreaming(caller.companyId),
      length: file.length,
    });
    expect([200, 202], answer.body).toContain(answer.status);
    const accepted = JSON.parse(answer.body) as ImportJob;
    expect(accepted).toMatchObject({ read: ROWS, bytes: file.length, file_name: 'big.csv' });
    let job = accepted;
    await until(
      async () => {
        const polled = await app.inject({ url: `/api/imports/${accepted.id}/`, headers: caller.headers });
        job = polled.json<ImportJob>();
        return job.status === 'done' || job.status === 'failed';
      },
      'the import to end',
      120,
    );
    expect(job).toMatchObject({ status: 'done', read: ROWS, imported: ROWS, invalid: 0, duplicates: 0 });
    const count = await db.tenant(caller.companyId, (sql) =>
      sql.query<{ count: number }>('SELECT count(*)::int AS count FROM subscribers WHERE company_id = $1', [
        caller.companyId,
      ]),
    );
    expect(count.rows[0]!.count).toBe(ROWS);
    // The stored text is removed once every row is staged.
    expect(await leftovers(caller.companyId)).toEqual({ jobs: 1, chunks: 0 });
  }, 180_000);

  it('leaves no job and no chunk when the body is cut short after chunks were stored', async () => {
    const caller = await newCaller('Streamed Cut Co');
    const answer = await streamUpload(port, caller.headers, {
      head: file.subarray(0, split),
      tail: Buffer.alloc(0),
      between: storedWhileStreaming(caller.companyId),
      cut: true,
      length: file.length,
    });
    expect(answer.status).toBe(0);
    await until(async () => {
      const left = await leftovers(caller.companyId);
      return left.jobs === 0 && left.chunks === 0;
    }, 'the cut upload to be removed');
    expect(await leftovers(caller.companyId)).toEqual({ jobs: 0, chunks: 0 });
  });

  it('refuses binary data past the stored chunks with 400 and leaves nothing behind', async () => {
    const caller = await newCaller('Streamed Binary Co');
    const tail = Buffer.concat([
      Buffer.from('late@example.com,\u0000,x,10000,P,yes\n'),
      file.subarray(split),
    ]);
    const answer = await streamUpload(port, caller.headers, {
      head: file.subarray(0, split),
      tail,
      between: storedWhileStreaming(caller.companyId),
    });
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { fields: { file: expect.any(String) } } });
    expect(await leftovers(caller.companyId)).toEqual({ jobs: 0, chunks: 0 });
  });

  it('refuses a chunked body that grows past the size limit with 413 and leaves nothing behind', async () => {
    const caller = await newCaller('Streamed Large Co');
    // Three copies of the file: past the 5 MB limit only after the first copy's chunk was stored.
    const answer = await streamUpload(port, caller.headers, {
      head: file.subarray(0, split),
      tail: Buffer.concat([file.subarray(split), file, file]),
      between: storedWhileStreaming(caller.companyId),
    });
    expect(answer.status, answer.body).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'file_too_large' } });
    expect(await leftovers(caller.companyId)).toEqual({ jobs: 0, chunks: 0 });
  });
});
