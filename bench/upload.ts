/**
 * The upload's answer time for a large file: a generated subscriber CSV of BENCH_UPLOAD_ROWS rows on
 * PostgreSQL (1,000,000 by default, about 81 MB) and BENCH_UPLOAD_PGLITE_ROWS on PGlite (1,000,000 too) posted
 * over a real socket to `POST /api/subscriptions/subscribers/upload/`, with the job workers off so only the
 * upload is timed (the job is left queued). Prints seconds from the call's start to the body's end and from the
 * body's end to the answer (the README promises 202 within 5 s of it), beside a baseline in the same run: the
 * same file posted to an HTTP server in this process that only reads the body and answers.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.js';
import type { ImportJob } from '../src/schemas/imports.js';
import { timedUpload, type TimedUpload } from './http-upload.js';
import { writeCsv } from './imports.js';
import { benchCompany, envInt, openBenchDatabase, printFigure, round, type BenchDriver } from './support.js';

/** The baseline: the same upload to a server that reads the body as fast as it comes and answers 202. */
async function drainBaseline(path: string): Promise<TimedUpload> {
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => response.writeHead(202).end('{}'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    return await timedUpload(`http://127.0.0.1:${port}/`, {}, path);
  } finally {
    server.close();
  }
}

/** Runs the upload benchmark on one driver and prints one figure. */
export async function benchUpload(driver: BenchDriver): Promise<void> {
  const rows =
    driver === 'postgres'
      ? envInt('BENCH_UPLOAD_ROWS', 1_000_000)
      : envInt('BENCH_UPLOAD_PGLITE_ROWS', 250_000);
  const dir = await mkdtemp(join(tmpdir(), 'regulars-bench-upload-'));
  const bench = await openBenchDatabase(driver);
  try {
    const path = join(dir, 'subscribers.csv');
    const bytes = await writeCsv(path, rows);
    const app = await buildApp({
      db: bench.db,
      logLevel: 'silent',
      clientDir: null,
      imports: { maxBytes: bytes + 1, runJobs: false },
    });
    try {
      const base = await app.listen({ host: '127.0.0.1', port: 0 });
      const company = await benchCompany(bench.db, 'Bench Upload');
      const baseline = await drainBaseline(path);
      const upload = await timedUpload(
        `${base}/api/subscriptions/subscribers/upload/?file_name=subscribers.csv`,
        company.headers,
        path,
      );
      if (upload.status !== 202) throw new Error(`the upload answered ${upload.status}: ${upload.body}`);
      const job = JSON.parse(upload.body) as ImportJob;
      if (job.read !== rows || job.bytes !== bytes) {
        throw new Error(`the upload counted ${job.read} rows and ${job.bytes} bytes of ${rows} and ${bytes}`);
      }
      printFigure({
        bench: 'imports.upload_answer',
        driver,
        rows,
        file_mb: round(bytes / 1024 / 1024, 1),
        upload_status: upload.status,
        after_body_end_s: round((upload.answerMs - upload.bodyEndMs) / 1000, 2),
        body_s: round(upload.bodyEndMs / 1000, 2),
        answer_s: round(upload.answerMs / 1000, 2),
        drain_baseline_body_s: round(baseline.bodyEndMs / 1000, 2),
        drain_baseline_answer_s: round(baseline.answerMs / 1000, 2),
        body_ratio: round(upload.bodyEndMs / baseline.bodyEndMs, 1),
      });
    } finally {
      await app.close();
    }
  } finally {
    await bench.drop();
    await rm(dir, { recursive: true, force: true });
  }
}
