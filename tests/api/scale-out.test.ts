import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppWithServices } from '../../server/app.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import { hashPassword } from '../../server/auth/passwords.js';
import type { Database } from '../../server/db/database.js';
import { importRunner } from '../../server/jobs/import-runner.js';
import { jobWorkers, startWorkers, stopWorkers } from '../../server/jobs/workers.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  createImportJob,
  findImportJob,
  queueImportJob,
  storeImportChunk,
  type ImportJobRow,
} from '../../server/repositories/imports.repository.js';
import { setCompanyFeatures } from '../../server/repositories/company-features.repository.js';
import { listSubscribers } from '../../server/repositories/subscribers.repository.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import type { ImportJob } from '../../src/schemas/imports.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeUser, systemScope } from '../support/factories.js';
import { spawnWorker, startApi, startWorker, type ServerProcess } from '../support/processes.js';

/**
 * Scale-out: API processes with their job workers off (RUN_JOBS=false) and separate workers, on one database.
 * On PostgreSQL (`npm run test:db`), real child processes: two APIs and a `npm run worker`, plus a second
 * worker in this process competing for the same jobs. On PGlite (one process's database), the same roles in
 * one process: an API with its workers off and two worker registries; and `npm run worker` refuses to start.
 */

const ROWS = 5000;
const PASSWORD = 'scale-out-password';
const UPLOAD_URL = '/api/subscriptions/subscribers/upload/';
const silentLog = { error: () => undefined };

/** A file of `ROWS` distinct subscribers. */
function subscribersFile(prefix: string): string {
  return `email,first_name\n${Array.from({ length: ROWS }, (_, i) => `${prefix}${i}@example.com,P${i}`).join('\n')}\n`;
}

/** A company with every feature and a marketer who signs in with a password. */
async function marketer(db: Database, name: string): Promise<{ companyId: number; email: string }> {
  const company = await makeCompany(db, name);
  await db.tenant(company.id, (sql) => setCompanyFeatures(sql, systemScope(company.id), [...ALL_FEATURES]));
  const user = await makeUser(db, company.id, { password_hash: await hashPassword(PASSWORD) });
  return { companyId: company.id, email: user.email };
}

/** The job imported every row exactly once: counts, stored subscribers and a single audit entry. */
async function expectImportedOnce(
  db: Database,
  companyId: number,
  job: ImportJob | ImportJobRow,
): Promise<void> {
  expect(job).toMatchObject({ status: 'done', read: ROWS, processed: ROWS, imported: ROWS, updated: 0 });
  expect(job).toMatchObject({ duplicates: 0, invalid: 0 });
  const stored = await db.tenant(companyId, (sql) =>
    listSubscribers(sql, companyId, { limit: 1, offset: 0 }),
  );
  expect(stored.count).toBe(ROWS);
  const audit = await db.tenant(companyId, (sql) => listAudit(sql, companyId, { entity: 'import_job' }));
  expect(audit).toHaveLength(1);
}

/** Defines the suite only on the database it is for, so no test is ever skipped; CI runs both. */
function suiteIf(applies: boolean, name: string, body: () => void): void {
  if (applies) describe(name, body);
}

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.drop());

describe('two runners taking a job from each other', () => {
  it('imports every row once and never fails the job when a turn is taken over before it commits', async () => {
    const db = database.db;
    const { companyId } = await marketer(db, 'Takeover Co');
    const file = subscribersFile('takeover');
    const id = await db.tenant(companyId, (sql) =>
      createImportJob(sql, systemScope(companyId), {
        kind: 'subscriber',
        fileName: 't.csv',
        header: ['email'],
      }),
    );
    // The stored file in three chunks, so turns read on across chunk boundaries.
    const third = Math.ceil(file.length / 3);
    for (const seq of [1, 2, 3]) {
      const text = file.slice((seq - 1) * third, seq * third);
      await db.tenant(companyId, (sql) =>
        storeImportChunk(sql, companyId, id, { seq, text }, { bytes: 0, read: ROWS }),
      );
    }
    await db.tenant(companyId, (sql) =>
      queueImportJob(sql, companyId, id, { bytes: file.length, read: ROWS }),
    );

    // A job counts as abandoned a millisecond after its last beat: each runner keeps taking it from the other.
    const failures: string[] = [];
    const log = { error: (_details: object, message: string) => failures.push(message) };
    const settings = { batchRows: 250, stageRows: 250, restRatio: 0, pollMs: 5, staleAfterMs: 1 };
    const runners = [importRunner(db, log, settings), importRunner(db, log, settings)];
    runners.forEach((runner) => runner.start());
    try {
      let job = await db.tenant(companyId, (sql) => findImportJob(sql, companyId, id));
      while (job?.status !== 'done' && job?.status !== 'failed') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        job = await db.tenant(companyId, (sql) => findImportJob(sql, companyId, id));
      }
      expect(failures).toEqual([]);
      await expectImportedOnce(db, companyId, job);
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
    }
  });
});

suiteIf(
  Boolean(process.env.TEST_DATABASE_URL),
  'two API processes and a worker process on one PostgreSQL',
  () => {
    const started: ServerProcess[] = [];
    afterAll(() => Promise.all(started.map((child) => child.stop())));

    /** Signs in on `api` with a password, answering the bearer token. */
    async function signIn(api: ServerProcess, email: string): Promise<string> {
      const response = await fetch(`${api.url}/api/accounts/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { access_token: string }).access_token;
    }

    it('signs in on either API, runs an import once, and follows it from the other API', async () => {
      const db = database.db;
      const url = database.url!;
      const caller = await marketer(db, 'Scale Out Co');
      // Both APIs stand behind one address, as behind a load balancer; neither runs jobs.
      const env = { DATABASE_URL: url, RUN_JOBS: 'false', PUBLIC_URL: 'http://127.0.0.1:3999' };
      const [first, second] = await Promise.all([startApi(env), startApi(env)]);
      started.push(first, second);

      // Sign-in keys live in the database: a token from either API works on the other.
      const fromFirst = await signIn(first, caller.email);
      const fromSecond = await signIn(second, caller.email);
      for (const [api, token] of [
        [second, fromFirst],
        [first, fromSecond],
      ] as const) {
        const me = await fetch(`${api.url}/api/imports/999999999/`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(me.status).toBe(404);
      }

      const upload = await fetch(`${first.url}${UPLOAD_URL}?file_name=scale.csv`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fromFirst}`, 'content-type': 'text/csv' },
        body: subscribersFile('scale'),
      });
      // No worker runs yet, so the job waits, queued.
      expect(upload.status).toBe(202);
      const queued = (await upload.json()) as ImportJob;
      expect(queued).toMatchObject({ status: 'queued', read: ROWS, processed: 0 });

      // A worker process and a second worker in this process compete for the same job's turns.
      started.push(await startWorker({ DATABASE_URL: url }));
      const local = jobWorkers(db, silentLog, { batchRows: 500, stageRows: 500 });
      startWorkers(local);
      try {
        let job = queued;
        while (job.status !== 'done' && job.status !== 'failed') {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const response = await fetch(`${second.url}/api/imports/${queued.id}/`, {
            headers: { authorization: `Bearer ${fromSecond}` },
          });
          expect(response.status).toBe(200);
          job = (await response.json()) as ImportJob;
        }
        await expectImportedOnce(db, caller.companyId, job);
      } finally {
        await stopWorkers(local);
      }
    });
  },
);

suiteIf(!process.env.TEST_DATABASE_URL, 'an API with its workers off and two workers on PGlite', () => {
  it('runs an uploaded import once with two worker registries taking turns', async () => {
    const db = database.db;
    const caller = await marketer(db, 'One Process Co');
    const built = await buildAppWithServices({
      db,
      logLevel: 'silent',
      clientDir: null,
      auth: authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' }),
      imports: { runJobs: false, waitMs: 0 },
    });
    const workers = [1, 2].map(() => jobWorkers(db, silentLog, { batchRows: 500, stageRows: 500 }));
    try {
      const signIn = await built.app.inject({
        method: 'POST',
        url: '/api/accounts/login/',
        payload: { email: caller.email, password: PASSWORD },
      });
      expect(signIn.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${signIn.json<{ access_token: string }>().access_token}` };
      const upload = await built.app.inject({
        method: 'POST',
        url: UPLOAD_URL,
        payload: subscribersFile('pglite'),
        headers: { ...headers, 'content-type': 'text/csv' },
      });
      // The API's own workers are off: nothing merges until a worker runs.
      expect(upload.statusCode).toBe(202);
      const queued = upload.json<ImportJob>();
      expect(queued).toMatchObject({ status: 'queued', read: ROWS, processed: 0 });
      workers.forEach(startWorkers);
      let job = queued;
      while (job.status !== 'done' && job.status !== 'failed') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        job = (
          await built.app.inject({ method: 'GET', url: `/api/imports/${queued.id}/`, headers })
        ).json<ImportJob>();
      }
      await expectImportedOnce(db, caller.companyId, job);
    } finally {
      await Promise.all(workers.map(stopWorkers));
      await built.app.close();
    }
  });

  it('refuses to start `npm run worker` without PostgreSQL', async () => {
    const worker = spawnWorker({});
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain('npm run worker needs DATABASE_URL');
  });
});
