/**
 * Subscriber CSV import: a generated file of BENCH_IMPORT_ROWS rows on PostgreSQL (1,000,000 by default) and
 * BENCH_IMPORT_PGLITE_ROWS on PGlite (50,000) uploaded through the real app in-process (`POST /api/subscriptions/subscribers/upload/`:
 * streamed over a socket, stored, then checked, staged and merged by the job worker in turns). The worker runs as
 * production runs it: on PostgreSQL as a process of its own (`dist/server/worker.mjs`, `npm run worker`) beside
 * an API built with `runJobs: false`; on PGlite inside the API process. Prints:
 * - the upload's answer: its status, seconds from the request to the answer and from the body's end to it;
 * - the guest list (`GET /api/pos/guests/`, first page, BENCH_IMPORT_GUESTS guests) called one request after
 *   another while the import runs: p50, p95 and max, beside the same calls with no import running;
 * - the import's rate (upload to done) beside a baseline in the same run: plain COPY of the same file into a
 *   staging table and one INSERT … ON CONFLICT into subscribers (no checks, no dedupe report, one transaction),
 *   as a ratio. Both are timed alone (the same file uploaded again for another company, nothing else running),
 *   like with like; the rate while the guest list is called is printed beside it. And the process's peak
 *   resident memory while importing.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { buildApp } from '../server/app.js';
import type { Database } from '../server/db/database.js';
import type { ImportJob } from '../src/schemas/imports.js';
import { timedUpload } from './http-upload.js';
import { benchCompany, envInt, openBenchDatabase, printFigure, round, type BenchDriver } from './support.js';
import { startWorkerProcess, type WorkerProcess } from './worker-process.js';

const HEADER = 'email,first_name,last_name,phone,zip,birthday,pos_id,subscribed';
const COLUMNS = ['email', 'first_name', 'last_name', 'phone', 'zip', 'birthday', 'pos_id', 'subscribed'];
const FIRST = ['Ann', 'Bo', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun'];
const LAST = ['Lee', 'Okafor', 'Smith, Jr.', 'Novak', 'García', 'Ito', 'Brown', 'Khan'];

/** One generated subscriber line (about 100 bytes); every email is unique, every value valid. */
function line(i: number): string {
  const last = LAST[i % LAST.length]!;
  const lastCell = last.includes(',') ? `"${last}"` : last;
  const month = String((i % 12) + 1).padStart(2, '0');
  const day = String((i % 28) + 1).padStart(2, '0');
  return (
    `guest${i}@bench.example.com,${FIRST[i % FIRST.length]},${lastCell},555-${String(i % 1000).padStart(3, '0')}-` +
    `${String(i % 10000).padStart(4, '0')},${String(10000 + (i % 89999))},19${50 + (i % 50)}-${month}-${day},` +
    `POS-${i},${i % 7 === 0 ? 'no' : 'yes'}\n`
  );
}

/** Writes the CSV file with backpressure, so generating a million rows takes little memory. */
export async function writeCsv(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  if (!out.write(`${HEADER}\n`)) await once(out, 'drain');
  for (let i = 0; i < rows; i++) {
    if (!out.write(line(i))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return (await stat(path)).size;
}

/** Samples resident memory every 50 ms while `work` runs; returns its result and the highest sample. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMb: number; ms: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, peakRssMb: peak / 1024 / 1024, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

/** The file's data lines as text chunks, header dropped, for COPY. */
async function* dataText(path: string): AsyncGenerator<string> {
  let headerSkipped = false;
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = chunk as string;
    if (headerSkipped) {
      yield text;
      continue;
    }
    headerSkipped = true;
    yield text.slice(text.indexOf('\n') + 1);
  }
}

/**
 * The baseline: COPY into a temporary table and one INSERT … ON CONFLICT, as the owner with the platform
 * flag (the application role may not COPY into tables under row-level security). Returns rows inserted.
 */
async function copyBaseline(db: Database, companyId: number, path: string): Promise<number> {
  return db.owner(async (sql) => {
    await sql.query("SELECT set_config('app.platform', 'on', true)");
    await sql.exec(
      `CREATE TEMPORARY TABLE bench_subscriber_staging (email text, first_name text, last_name text, phone text,
         zip text, birthday text, pos_id text, subscribed text) ON COMMIT DROP`,
    );
    await sql.copyFrom('bench_subscriber_staging', COLUMNS, dataText(path));
    const { rowCount } = await sql.query(
      `INSERT INTO subscribers (company_id, email, first_name, last_name, phone, zip, birthday, subscribed, pos_id,
                                hashid)
       SELECT $1, btrim(email), first_name, last_name, phone, zip, nullif(birthday, '')::date,
              lower(subscribed) IN ('yes', 'true', '1', ''), nullif(pos_id, ''), md5(email)
       FROM bench_subscriber_staging
       ON CONFLICT (company_id, lower(email)) DO NOTHING`,
      [companyId],
    );
    return rowCount;
  });
}

/** Uploads the file for the company and follows the job (every 100 ms) until it is done; throws otherwise. */
async function importAlone(
  app: Awaited<ReturnType<typeof buildApp>>,
  headers: { authorization: string },
  path: string,
  rows: number,
): Promise<void> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/subscriptions/subscribers/upload/?file_name=subscribers.csv',
    headers: { ...headers, 'content-type': 'text/csv' },
    payload: createReadStream(path, { highWaterMark: 64 * 1024 }),
  });
  let job = response.json<ImportJob>();
  while (job.status !== 'done' && job.status !== 'failed') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const polled = await app.inject({ method: 'GET', url: `/api/imports/${job.id}/`, headers });
    job = polled.json<ImportJob>();
  }
  if (job.imported !== rows)
    throw new Error(`the import ended ${job.status} with ${job.imported} of ${rows} rows`);
}

/** Adds `count` guests to the company in one statement (the list's data; not timed). */
async function seedGuests(db: Database, companyId: number, count: number): Promise<void> {
  await db.tenant(companyId, (sql) =>
    sql.query(
      `INSERT INTO guests (company_id, customer_name, last_four_digits, pos_id, hashid)
       SELECT $1, 'Guest ' || i, lpad((i % 10000)::text, 4, '0'), 'BENCH-' || i, 'B' || lpad(i::text, 9, '0')
       FROM generate_series(1, $2::int) AS i`,
      [companyId, count],
    ),
  );
}

/** Latencies of one request after another: p50, p95 and max in milliseconds. */
function latencyFigures(samples: number[]): { p50: number; p95: number; max: number; calls: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? 0, calls: sorted.length };
}

/**
 * Calls the guest list over HTTP one request after another until `until` says stop; answers each call's
 * milliseconds, from sending the request to reading the whole answer. The client shares the server's event
 * loop, so a statement that holds the loop (PGlite runs in-process) delays the answer as it would for anyone.
 */
async function timeGuestList(
  base: string,
  headers: { authorization: string },
  until: () => boolean,
): Promise<number[]> {
  const samples: number[] = [];
  while (!until()) {
    const started = performance.now();
    const response = await fetch(`${base}/api/pos/guests/?page=1&page_size=25`, { headers });
    await response.arrayBuffer();
    samples.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`the guest list answered ${response.status}`);
  }
  return samples;
}

/** Runs the import benchmark on one driver and prints one figure. */
export async function benchImports(driver: BenchDriver): Promise<void> {
  const rows =
    driver === 'postgres'
      ? envInt('BENCH_IMPORT_ROWS', 1_000_000)
      : envInt('BENCH_IMPORT_PGLITE_ROWS', 50_000);
  const guests = envInt('BENCH_IMPORT_GUESTS', 10_000);
  const dir = await mkdtemp(join(tmpdir(), 'regulars-bench-import-'));
  const bench = await openBenchDatabase(driver);
  let worker: WorkerProcess | null = null;
  try {
    const path = join(dir, 'subscribers.csv');
    const bytes = await writeCsv(path, rows);
    // On PGlite the worker runs in this process, as the API's own, so it competes with the list calls; on
    // PostgreSQL it is a process of its own and the API leaves the job to it.
    const apart = driver === 'postgres';
    const app = await buildApp({
      db: bench.db,
      logLevel: 'silent',
      clientDir: null,
      imports: { maxBytes: bytes + 1, runJobs: !apart },
    });
    if (apart) {
      if (!bench.url) throw new Error('the PostgreSQL bench database has no URL for the worker');
      worker = await startWorkerProcess(bench.url);
    }
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const importer = await benchCompany(bench.db, 'Bench Import');
    const reader = await benchCompany(bench.db, 'Bench Reader');
    const baselineCompany = await benchCompany(bench.db, 'Bench Copy');
    await seedGuests(bench.db, reader.id, guests);
    // The list alone first: the same calls for two seconds with nothing else running.
    const quietUntil = performance.now() + 2000;
    const quiet = latencyFigures(
      await timeGuestList(base, reader.headers, () => performance.now() > quietUntil),
    );
    const rssBeforeMb = process.memoryUsage().rss / 1024 / 1024;

    let job: ImportJob | null = null;
    let answerMs = 0;
    let afterBodyEndMs = 0;
    let answerStatus = 0;
    const pipeline = await withPeakRss(async () => {
      const upload = await timedUpload(
        `${base}/api/subscriptions/subscribers/upload/?file_name=subscribers.csv`,
        importer.headers,
        path,
      );
      answerMs = upload.answerMs;
      afterBodyEndMs = upload.answerMs - upload.bodyEndMs;
      answerStatus = upload.status;
      if (answerStatus !== 200 && answerStatus !== 202)
        throw new Error(`the upload answered ${answerStatus}`);
      job = JSON.parse(upload.body) as ImportJob;
      const id = job.id;
      // While the worker imports, the guest list is called one request after another; the job is polled
      // between list calls, every 500 ms, as the app does.
      let polledAt = performance.now();
      const busy = await timeGuestList(base, reader.headers, () => {
        if (job?.status === 'done' || job?.status === 'failed') return true;
        if (performance.now() - polledAt >= 500) {
          polledAt = performance.now();
          void app
            .inject({ method: 'GET', url: `/api/imports/${id}/`, headers: importer.headers })
            .then((polled) => (job = polled.json<ImportJob>()));
        }
        return false;
      });
      return busy;
    });
    const finished = job as ImportJob | null;
    if (finished?.status !== 'done' || finished.imported !== rows) {
      throw new Error(
        `the import ended ${finished?.status} with ${finished?.imported} of ${rows} rows imported`,
      );
    }
    const busy = latencyFigures(pipeline.result);
    const baseline = await withPeakRss(() => copyBaseline(bench.db, baselineCompany.id, path));
    if (baseline.result !== rows)
      throw new Error(`the COPY baseline inserted ${baseline.result} of ${rows} rows`);
    // The same file again for a company of its own, timed alone as the baseline was.
    const quietCompany = await benchCompany(bench.db, 'Bench Quiet');
    const alone = await withPeakRss(() => importAlone(app, quietCompany.headers, path, rows));
    await app.close();

    const pipelineRps = (rows * 1000) / alone.ms;
    const busyRps = (rows * 1000) / pipeline.ms;
    const baselineRps = (rows * 1000) / baseline.ms;
    printFigure({
      bench: 'imports.subscribers_csv',
      driver,
      rows,
      file_mb: round(bytes / 1024 / 1024, 1),
      upload_status: answerStatus,
      worker: apart ? 'own process' : 'in the API process',
      upload_answer_s: round(answerMs / 1000, 2),
      upload_after_body_end_s: round(afterBodyEndMs / 1000, 2),
      guest_list_during_import_p50_ms: round(busy.p50, 1),
      guest_list_during_import_p95_ms: round(busy.p95, 1),
      guest_list_during_import_max_ms: round(busy.max, 1),
      guest_list_during_import_calls: busy.calls,
      guest_list_quiet_p50_ms: round(quiet.p50, 1),
      guest_list_quiet_p95_ms: round(quiet.p95, 1),
      guests,
      pipeline_rows_per_s: round(pipelineRps, 0),
      copy_baseline_rows_per_s: round(baselineRps, 0),
      ratio: round(pipelineRps / baselineRps, 3),
      pipeline_s: round(alone.ms / 1000, 2),
      pipeline_during_list_calls_rows_per_s: round(busyRps, 0),
      copy_baseline_s: round(baseline.ms / 1000, 2),
      rss_before_mb: round(rssBeforeMb, 0),
      pipeline_peak_rss_mb: round(pipeline.peakRssMb, 0),
      copy_baseline_peak_rss_mb: round(baseline.peakRssMb, 0),
      process_max_rss_mb: round(process.resourceUsage().maxRSS / 1024, 0),
    });
  } finally {
    await worker?.stop();
    await bench.drop();
    await rm(dir, { recursive: true, force: true });
  }
}
