/**
 * Subscriber CSV import: a generated file of BENCH_IMPORT_ROWS rows (1,000,000 on PostgreSQL, 50,000 on
 * PGlite by default) through the real import service (streamed, checked row by row, staged, merged by the
 * job runner in batches), beside a baseline in the same run: plain COPY of the same file into a staging
 * table and one INSERT … ON CONFLICT into subscribers (no checks, no dedupe report, one transaction).
 * Prints rows per second, the ratio, and the process's peak resident memory while importing.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import type { Database } from '../server/db/database.js';
import { importRunner } from '../server/jobs/import-runner.js';
import { createCompany } from '../server/repositories/companies.repository.js';
import { importsService } from '../server/services/imports.service.js';
import { envInt, openBenchDatabase, printFigure, round, type BenchDriver } from './support.js';

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
async function writeCsv(path: string, rows: number): Promise<number> {
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

/** Runs the import benchmark on one driver and prints one figure. */
export async function benchImports(driver: BenchDriver): Promise<void> {
  const rows = envInt('BENCH_IMPORT_ROWS', driver === 'postgres' ? 1_000_000 : 50_000);
  const dir = await mkdtemp(join(tmpdir(), 'regulars-bench-import-'));
  const bench = await openBenchDatabase(driver);
  const runner = importRunner(bench.db, { error: (details, message) => console.error(message, details) });
  try {
    const path = join(dir, 'subscribers.csv');
    const bytes = await writeCsv(path, rows);
    const service = importsService(bench.db, runner, { maxBytes: bytes + 1, waitMs: 24 * 3600 * 1000 });
    runner.start();
    const pipelineCompany = await bench.db.platform((sql) =>
      createCompany(sql, { name: 'Bench Import', slug: 'bench-import' }),
    );
    const baselineCompany = await bench.db.platform((sql) =>
      createCompany(sql, { name: 'Bench Copy', slug: 'bench-copy' }),
    );
    const rssBeforeMb = process.memoryUsage().rss / 1024 / 1024;

    const pipeline = await withPeakRss(() =>
      service.upload(
        { companyId: pipelineCompany.id, userId: null, actorUserId: null },
        {
          kind: 'subscriber',
          fileName: 'subscribers.csv',
          source: createReadStream(path, { highWaterMark: 64 * 1024 }),
        },
      ),
    );
    const job = pipeline.result.job;
    if (job.status !== 'done' || job.imported !== rows) {
      throw new Error(`the import ended ${job.status} with ${job.imported} of ${rows} rows imported`);
    }
    const baseline = await withPeakRss(() => copyBaseline(bench.db, baselineCompany.id, path));
    if (baseline.result !== rows)
      throw new Error(`the COPY baseline inserted ${baseline.result} of ${rows} rows`);

    const pipelineRps = (rows * 1000) / pipeline.ms;
    const baselineRps = (rows * 1000) / baseline.ms;
    printFigure({
      bench: 'imports.subscribers_csv',
      driver,
      rows,
      file_mb: round(bytes / 1024 / 1024, 1),
      pipeline_rows_per_s: round(pipelineRps, 0),
      copy_baseline_rows_per_s: round(baselineRps, 0),
      ratio: round(pipelineRps / baselineRps, 3),
      pipeline_s: round(pipeline.ms / 1000, 2),
      copy_baseline_s: round(baseline.ms / 1000, 2),
      rss_before_mb: round(rssBeforeMb, 0),
      pipeline_peak_rss_mb: round(pipeline.peakRssMb, 0),
      copy_baseline_peak_rss_mb: round(baseline.peakRssMb, 0),
      process_max_rss_mb: round(process.resourceUsage().maxRSS / 1024, 0),
    });
  } finally {
    await runner.stop();
    await bench.drop();
    await rm(dir, { recursive: true, force: true });
  }
}
