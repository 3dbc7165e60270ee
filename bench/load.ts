/**
 * Load on the list calls through the real HTTP server (listening on a local port, 50 keep-alive connections): 50
 * connections for BENCH_LOAD_SECONDS (30) on a mix of three list calls (guests, subscribers, locations),
 * then 50 connections for BENCH_LOAD_PAGE_SECONDS (10) on each list's first page and on a deep page (the
 * `next` link of a page half-way down, which carries a keyset cursor when the list gives one), and on the
 * locations list alone as the baseline of the same HTTP stack. Figures: requests/s, p50, p95, p99 and errors.
 * The callers run in a worker thread of the same process.
 *
 * PGlite: the demo data at SEED_SCALE (what `npm start` loads; default small). PostgreSQL: one company with
 * BENCH_LOAD_ROWS (1,000,000) guests and as many subscribers in the database `regulars_bench_load` on the
 * BENCH_DATABASE_URL server, generated in the server by INSERT … SELECT over generate_series and kept for
 * the next run (it is only rebuilt when its row counts differ), so it is loaded once and not every time.
 */
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../server/app.js';
import type { Database } from '../server/db/database.js';
import { migrate } from '../server/db/migrate.js';
import { openPglite } from '../server/db/pglite.js';
import { createCompany } from '../server/repositories/companies.repository.js';
import { setCompanyFeatures } from '../server/repositories/company-features.repository.js';
import { createLocation } from '../server/repositories/locations.repository.js';
import { SCALES, type Scale } from '../server/seed/blueprints.js';
import { loadDemoData } from '../server/seed/load.js';
import { ALL_FEATURES } from '../src/schemas/features.js';
import {
  benchToken,
  openKeptDatabase,
  envInt,
  keptCompanyRows,
  printFigure,
  round,
  type BenchDriver,
} from './support.js';

const CONNECTIONS = 50;
const LOAD_DATABASE = 'regulars_bench_load';
const LOAD_SLUG = 'bench-load';
const LOAD_LOCATIONS = 10;

/** What one load run measured. */
interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/** The data a load runs on: the database, the company and a description of its size. */
interface LoadData {
  db: Database;
  companyId: number;
  data: string;
  close: () => Promise<void>;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

// The callers run in a worker thread, so making requests does not take the server's own event loop; plain
// JavaScript, evaluated as it is, so the worker needs no TypeScript loader. Each caller keeps one connection
// open (a keep-alive node:http agent with one socket per caller): 50 callers are 50 concurrent connections,
// and the generator spends little of the machine's CPU (fetch in a worker took about as much as the server).
const CALLERS_SOURCE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { origin, paths, headers, seconds, connections } = workerData;
const { hostname, port } = new URL(origin);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const samples = [];
let errors = 0;
let turn = 0;
const until = performance.now() + seconds * 1000;
function get(path) {
  return new Promise((resolve) => {
    const request = http.get({ host: hostname, port, path, agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
      response.on('error', () => resolve(0));
    });
    request.on('error', () => resolve(0));
  });
}
async function caller() {
  while (performance.now() < until) {
    const path = paths[turn++ % paths.length];
    const before = performance.now();
    if ((await get(path)) !== 200) errors++;
    samples.push(performance.now() - before);
  }
}
Promise.all(Array.from({ length: connections }, caller)).then(() => {
  agent.destroy();
  parentPort.postMessage({ samples, errors });
});
`;

/**
 * `CONNECTIONS` callers, each sending the next of `paths` (in turn) as soon as its last answer is read, for
 * `seconds`. A non-200 answer or a failed request counts as an error.
 */
async function loadLoop(
  origin: string,
  paths: readonly string[],
  headers: Record<string, string>,
  seconds: number,
): Promise<LoadResult> {
  const started = performance.now();
  const worker = new Worker(CALLERS_SOURCE, {
    eval: true,
    workerData: { origin, paths, headers, seconds, connections: CONNECTIONS },
  });
  const { samples, errors } = await new Promise<{ samples: number[]; errors: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  const elapsed = (performance.now() - started) / 1000;
  samples.sort((a, b) => a - b);
  return {
    requests: samples.length,
    errors,
    rps: samples.length / elapsed,
    p50Ms: percentile(samples, 0.5),
    p95Ms: percentile(samples, 0.95),
    p99Ms: percentile(samples, 0.99),
  };
}

/** The figure of one load run. */
function loadFigure(bench: string, driver: BenchDriver, data: string, seconds: number, result: LoadResult) {
  return {
    bench,
    driver,
    data,
    connections: CONNECTIONS,
    seconds,
    requests: result.requests,
    rps: round(result.rps, 1),
    p50_ms: round(result.p50Ms, 1),
    p95_ms: round(result.p95Ms, 1),
    p99_ms: round(result.p99Ms, 1),
    errors: result.errors,
  };
}

/** The demo data on in-memory PGlite at SEED_SCALE, as `npm start` loads it. */
async function pgliteData(): Promise<LoadData> {
  const scale = (process.env.SEED_SCALE ?? 'small') as Scale;
  if (!SCALES.includes(scale)) throw new Error(`SEED_SCALE must be one of ${SCALES.join(', ')}`);
  const db = await openPglite('memory://');
  await migrate(db);
  const summary = await loadDemoData(db, { scale });
  return { db, companyId: summary.companies[0]!.id, data: `demo-${scale}`, close: () => db.close() };
}

/** One company with `rows` guests (each at one location) and `rows` subscribers, half linked to a guest. */
async function generateLarge(db: Database, rows: number): Promise<number> {
  const company = await db.platform((sql) =>
    createCompany(sql, { name: 'Bench Load Group', slug: LOAD_SLUG }),
  );
  const scope = { companyId: company.id, userId: null, actorUserId: null };
  const locationIds: number[] = [];
  for (let i = 1; i <= LOAD_LOCATIONS; i++) {
    const location = await db.tenant(company.id, (sql) =>
      createLocation(sql, scope, {
        name: `Load Bistro ${String(i).padStart(2, '0')}`,
        street: `${100 + i} Main St`,
        city: 'Portland',
        state: 'OR',
        zip: '97201',
        latitude: 45.5,
        longitude: -122.6,
        time_zone: 'America/Los_Angeles',
      }),
    );
    locationIds.push(location.id);
  }
  const names = `ARRAY['Ava','Ben','Chloe','Diego','Emma','Farah','Gus','Hana','Ivan','Jade','Kai','Lena','Milo','Nia','Omar','Pia','Quinn','Rosa','Sam','Tara']`;
  const surnames = `ARRAY['Garcia','Smith','Nguyen','Müller','Rossi','Tanaka','Martin','Kim','Silva','Brown','Lopez','Chen','Dubois','Ivanova','Khan','Haddad','Olsen','Park','Reyes','Walsh']`;
  await db.owner(async (sql) => {
    // created_at repeats every three rows, so the orderings' tie-breaker (the id) is exercised too.
    await sql.query(
      `INSERT INTO guests (company_id, pos_id, hashid, customer_name, last_four_digits, first_location_id,
                           visit_count, total_spend_cents, first_visit_at, last_visit_at, created_at)
       SELECT $1, 'LP' || i, 'lg' || i, (${names})[1 + i % 20] || ' ' || (${surnames})[1 + (i / 20) % 20],
              lpad(((i::bigint * 7919) % 10000)::text, 4, '0'), ($2::bigint[])[1 + i % $3], 1 + i % 9, (i % 9000) * 100,
              timestamptz '2024-01-01' + (i / 3) * interval '30 seconds',
              timestamptz '2024-01-01' + (i / 3) * interval '30 seconds',
              timestamptz '2024-01-01' + (i / 3) * interval '30 seconds'
       FROM generate_series(1, $4::int) AS i`,
      [company.id, locationIds, LOAD_LOCATIONS, rows],
    );
    await sql.query(
      `INSERT INTO guest_locations (company_id, guest_id, location_id)
       SELECT company_id, id, first_location_id FROM guests WHERE company_id = $1`,
      [company.id],
    );
    await sql.query(
      `INSERT INTO subscribers (company_id, email, first_name, last_name, phone, zip, pos_id, hashid, guest_id,
                                source_location_id, consent_at, created_at)
       SELECT $1, 'guest' || i || '@example.com', (${names})[1 + i % 20], (${surnames})[1 + (i / 20) % 20],
              '+1503555' || lpad((i % 10000)::text, 4, '0'), '97201', 'LS' || i, 'ls' || i,
              CASE WHEN i % 2 = 0 THEN g.id END, ($2::bigint[])[1 + i % $3],
              timestamptz '2024-01-01' + (i / 3) * interval '30 seconds',
              timestamptz '2024-01-01' + (i / 3) * interval '30 seconds'
       FROM generate_series(1, $4::int) AS i
       LEFT JOIN guests g ON g.company_id = $1 AND g.hashid = 'lg' || i`,
      [company.id, locationIds, LOAD_LOCATIONS, rows],
    );
  });
  return company.id;
}

/** The large data set on PostgreSQL: reused when it holds `rows` guests and subscribers, else rebuilt. */
async function postgresData(serverUrl: string): Promise<LoadData> {
  const rows = envInt('BENCH_LOAD_ROWS', 1_000_000);
  const { db, buildSeconds } = await openKeptDatabase(
    serverUrl,
    LOAD_DATABASE,
    async (kept) => {
      const counted = await keptCompanyRows(kept, LOAD_SLUG, ['guests', 'subscribers']);
      return counted.guests === rows && counted.subscribers === rows;
    },
    (empty) => generateLarge(empty, rows),
  );
  if (buildSeconds !== null) {
    printFigure({ bench: 'load.generate', driver: 'postgres', rows, seconds: buildSeconds });
  }
  const found = await keptCompanyRows(db, LOAD_SLUG, []);
  return { db, companyId: found.companyId, data: `large-${rows}`, close: () => db.close() };
}

/** A GET through the server; throws unless it answers 200. */
async function getJson<T>(origin: string, path: string, headers: Record<string, string>): Promise<T> {
  const response = await fetch(`${origin}${path}`, { headers });
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** The path of a deep page: the `next` link of the page half-way down the list. */
async function deepPagePath(
  origin: string,
  list: string,
  headers: Record<string, string>,
  pageSize: number,
): Promise<string> {
  const first = await getJson<{ count: number }>(origin, `${list}?page=1`, headers);
  const middle = Math.max(1, Math.floor(first.count / pageSize / 2));
  const page = await getJson<{ next: string | null }>(origin, `${list}?page=${middle}`, headers);
  if (!page.next) throw new Error(`${list}?page=${middle} has no next page`);
  // The link is absolute from the API's root (`/api/...`).
  return page.next;
}

/** The load figures of one driver. */
export async function benchLoad(driver: BenchDriver): Promise<void> {
  const seconds = envInt('BENCH_LOAD_SECONDS', 30);
  const pageSeconds = envInt('BENCH_LOAD_PAGE_SECONDS', 10);
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const data = driver === 'pglite' ? await pgliteData() : await postgresData(serverUrl!);
  // The upload worker's polling would only add noise here.
  const app = await buildApp({
    db: data.db,
    logLevel: 'silent',
    clientDir: null,
    imports: { runJobs: false },
  });
  try {
    // The lists belong to the Subscribers feature and the locations list to Locations; the demo has all.
    await data.db.tenant(data.companyId, (sql) =>
      setCompanyFeatures(sql, { companyId: data.companyId, userId: null, actorUserId: null }, ALL_FEATURES),
    );
    const headers = await benchToken(data.db, data.companyId);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const lists = {
      guests: { path: '/api/pos/guests/', pageSize: 10 },
      subscribers: { path: '/api/subscriptions/subscribers/', pageSize: 8 },
    };
    const locations = '/api/customers/locations/?page=1';
    const firstPages = Object.values(lists).map((list) => `${list.path}?page=1`);
    const counts: Record<string, number> = {};
    for (const [name, list] of Object.entries(lists)) {
      counts[name] = (await getJson<{ count: number }>(origin, `${list.path}?page=1`, headers)).count;
    }
    await getJson(origin, locations, headers);

    const mix = await loadLoop(origin, [...firstPages, locations], headers, seconds);
    printFigure({ ...loadFigure('load.lists_mix', driver, data.data, seconds, mix), ...counts });
    // The baseline: the same stack (HTTP, token, feature check, transaction) on a ten-row list alone.
    const baseline = await loadLoop(origin, [locations], headers, pageSeconds);
    printFigure(loadFigure('load.locations.first_page', driver, data.data, pageSeconds, baseline));

    for (const [name, list] of Object.entries(lists)) {
      const deep = await deepPagePath(origin, list.path, headers, list.pageSize);
      const cases = { first_page: `${list.path}?page=1`, deep_page: deep };
      for (const [page, path] of Object.entries(cases)) {
        const result = await loadLoop(origin, [path], headers, pageSeconds);
        printFigure({
          ...loadFigure(`load.${name}.${page}`, driver, data.data, pageSeconds, result),
          rows: counts[name]!,
          paging: path.includes('cursor=') ? 'keyset' : 'offset',
        });
      }
    }
  } finally {
    await app.close();
    await data.close();
  }
}
