import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { openPglite } from '../../server/db/pglite.js';
import { mailRunsService } from '../../server/services/mail-runs.service.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, systemScope } from '../support/factories.js';
import { startRunSink, type RunSink } from '../support/run-sink.js';
import { startSendWorker, type SendWorkerProcess } from '../support/send-worker-process.js';

/**
 * The kill test of issue 15: a worker process sends a 20 000-recipient run to a real SMTP sink and is killed
 * with SIGKILL at five random points, a new one started each time. In the end the sink has every recipient,
 * and the duplicates are at most the batches each dead worker had in flight (two lanes of BATCH_SIZE). On PostgreSQL
 * (TEST_DATABASE_URL) the workers share the test database; on PGlite they open one data directory in turn.
 */

const RECIPIENTS = 20_000;
const BATCH_SIZE = 100;
// The runner's default lanes: two batches in flight at once.
const IN_FLIGHT = 2 * BATCH_SIZE;
const LEASE_MS = 1000;
const KILLS = 5;

describe('sending survives kill -9', () => {
  let test: TestDatabase | null = null;
  let dataDir: string | null = null;
  let sink: RunSink;
  let runId: number;
  let expected: string[];
  let workerEnv: Record<string, string>;

  /** The database the parent reads: the shared test database, or the PGlite directory once no child holds it. */
  async function withDatabase<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    if (test) return fn(test.db);
    const db = await openPglite(join(dataDir!, 'pglite'));
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  beforeAll(async () => {
    sink = await startRunSink({ keep: false });
    const template = inject('databaseTemplate');
    if (template.kind === 'postgres') {
      test = await openTestDatabase();
      workerEnv = { DATABASE_URL: test.url! };
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'regulars-send-kill-'));
      const db = await openPglite(join(dataDir, 'pglite'), new Blob([readFileSync(template.tarball)]));
      await db.close();
      workerEnv = { DATA_DIR: dataDir };
    }
    workerEnv = {
      ...workerEnv,
      SINK_URL: sink.url,
      BATCH_SIZE: String(BATCH_SIZE),
      LEASE_MS: String(LEASE_MS),
    };
    await withDatabase(async (db) => {
      const company = await makeCompany(db, 'Kill Test Co');
      const service = mailRunsService(db, 'localhost');
      await service.setPostalAddress(systemScope(company.id), '1 Test Street');
      const ids = await db.owner(async (sql) => {
        const { rows } = await sql.query<{ id: number }>(
          `INSERT INTO subscribers (company_id, email, hashid, first_name)
           SELECT $1, 'kill' || g || '@example.com', 'kill' || g, 'N' || g FROM generate_series(1, $2::int) g
           RETURNING id::int`,
          [company.id, RECIPIENTS],
        );
        return rows.map((row) => row.id);
      });
      const frozen = await service.freezeRun(systemScope(company.id), {
        kind: 'campaign',
        sourceId: null,
        runKey: 'kill-test',
        content: {
          from: 'news@example.com',
          subject: 'Hi {{first_name}}',
          html: '<p>Hi</p>',
          text: 'Hi',
          tracking: false,
        },
        audience: { subscriberIds: ids },
      });
      runId = frozen.run.id;
      expect(frozen.recipients).toBe(RECIPIENTS);
      // The Message-IDs the run must produce, written here from the ids rather than read from the outbox.
      expected = ids.map((id) => `<r${runId}.s${id}@localhost>`);
    });
  }, 120_000);

  afterAll(async () => {
    await sink.stop();
    await test?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const distinct = () => new Set(sink.received.map((message) => message.messageId)).size;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  // Fails only when deliveries stop moving for a minute: a busy machine is slow, a stuck worker is still.
  async function until(condition: () => boolean, what: string, stallMs = 60_000) {
    let deadline = Date.now() + stallMs;
    let delivered = distinct();
    while (!condition()) {
      if (distinct() > delivered) {
        delivered = distinct();
        deadline = Date.now() + stallMs;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} (${delivered} delivered)`);
      await sleep(5);
    }
  }

  it('delivers every recipient with at most the in-flight batch sent twice per kill', async () => {
    const points = Array.from({ length: KILLS }, () =>
      Math.floor(RECIPIENTS * (0.05 + 0.85 * Math.random())),
    ).sort((a, b) => a - b);
    const killedAt: number[] = [];
    let worker: SendWorkerProcess = await startSendWorker(workerEnv);
    for (const point of points) {
      await until(() => distinct() >= point, `the sink to reach ${point}`);
      await sleep(Math.random() * 20);
      await worker.killHard();
      killedAt.push(sink.received.length);
      worker = await startSendWorker(workerEnv);
    }
    await until(() => distinct() >= RECIPIENTS, 'every recipient');
    // Quiet for longer than a lease: no claim of a dead worker is left to take over.
    let seen = sink.received.length;
    for (;;) {
      await sleep(LEASE_MS * 2);
      if (sink.received.length === seen) break;
      seen = sink.received.length;
    }
    expect(await worker.stop()).toBe(0);

    const counts = new Map<string, number>();
    for (const message of sink.received)
      counts.set(message.messageId!, (counts.get(message.messageId!) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...expected].sort());
    const duplicates = sink.received.length - counts.size;
    expect(killedAt, `kills at ${points.join(', ')}`).toHaveLength(KILLS);
    expect(duplicates).toBeLessThanOrEqual(KILLS * IN_FLIGHT);
    // Each extra copy of one message is a worker that died holding it: two kills close together can both catch the
    // same batch (the second while re-sending the first's), so a copy per kill at most, never more.
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(1 + KILLS);

    const final = await withDatabase((db) =>
      db.owner(async (sql) => ({
        outbox: (
          await sql.query<{ status: string; n: number }>(
            'SELECT status, count(*)::int AS n FROM mail_outbox WHERE run_id = $1 GROUP BY status',
            [runId],
          )
        ).rows,
        run: (await sql.query<{ status: string }>('SELECT status FROM mail_runs WHERE id = $1', [runId]))
          .rows[0],
      })),
    );
    expect(final).toEqual({ outbox: [{ status: 'sent', n: RECIPIENTS }], run: { status: 'sent' } });
    // A correctness test, not a speed one: 20,000 real SMTP deliveries and five restarts need room on a busy machine.
  }, 300_000);
});
