/**
 * `npm run bench`: prints throughput figures as JSON lines, one figure per line. Figures only, never
 * pass/fail. PGlite always; PostgreSQL as well when BENCH_DATABASE_URL is set (a temporary database is
 * created on that server and dropped at the end). BENCH_ITERATIONS and BENCH_WARMUP change the loop sizes;
 * BENCH_IMPORT_ROWS the CSV import's size (bench/imports.ts); BENCH_UPLOAD_ROWS and BENCH_UPLOAD_PGLITE_ROWS the timed
 * upload's (bench/upload.ts); BENCH_GUEST_SCALE, BENCH_GUEST_ITERATIONS and
 * BENCH_GUEST_WARMUP the guest list's (bench/guest-list.ts), BENCH_GUEST_DATABASE_URL a pre-seeded database for
 * it; BENCH_LOAD_SECONDS, BENCH_LOAD_PAGE_SECONDS and BENCH_LOAD_ROWS the list load's (bench/load.ts); BENCH_ONLY a
 * comma-separated subset (size, start, replay, locations, upload, imports, guests, load, rollups, segments, rfm,
 * segment-preview, sending, guest-dashboards, customer-journey, basket, consumer-insights, dashboards); BENCH_SEND_RECIPIENTS and BENCH_SEND_BATCH the send's (bench/sending.ts); BENCH_ROLLUP_* the rollups' (bench/rollups.ts), BENCH_PREVIEW_* the starter segments' previews
 * (bench/segment-preview.ts, PostgreSQL only).
 */
import { buildApp } from '../server/app.js';
import type { Database } from '../server/db/database.js';
import { createCompany } from '../server/repositories/companies.repository.js';
import { createLocation } from '../server/repositories/locations.repository.js';
import { benchClv } from './clv.js';
import { benchCohorts } from './cohorts.js';
import { benchDashboards } from './dashboards.js';
import { benchFirstLoad } from './first-load.js';
import { benchGuestList } from './guest-list.js';
import { benchImports } from './imports.js';
import { benchLoad } from './load.js';
import { benchPosChecks } from './pos-checks.js';
import { benchPosChecksCsv } from './pos-checks-csv.js';
import { benchReplay } from './replay.js';
import { benchRollups } from './rollups.js';
import { benchCustomerJourney } from './customer-journey.js';
import { benchGuestDashboards } from './guest-dashboards.js';
import { benchConsumerInsights } from './consumer-insights.js';
import { benchBasket } from './basket.js';
import { benchSegmentDashboard } from './segment-dashboard.js';
import { benchSegmentExport } from './segment-export.js';
import { benchSegmentPreview } from './segment-preview.js';
import { benchSegments } from './segments.js';
import { benchRfm } from './rfm.js';
import { benchSending } from './sending.js';
import { benchFlows } from './flows.js';
import { benchCampaignFreeze } from './campaign-freeze.js';
import { benchStart } from './start.js';
import { benchUpload } from './upload.js';
import {
  benchDrivers,
  benchToken,
  envInt,
  openBenchDatabase,
  printFigure,
  round,
  timeLoop,
  type BenchDriver,
  type LoopOptions,
} from './support.js';

const LOCATION_COUNT = 50;
const PAGE_SIZE = 25;

/**
 * The count and page statements of `listLocations` (server/repositories/locations.repository.ts) with no
 * search and no group filter; keep in step with it so the two figures compare like with like.
 */
const LOCATIONS_WHERE = `l.company_id = $1
      AND ($2::text IS NULL OR l.name ILIKE $2 OR l.street ILIKE $2 OR l.city ILIKE $2 OR l.zip ILIKE $2)
      AND (cardinality($3::bigint[]) = 0 OR EXISTS (
        SELECT 1 FROM location_group_members m
        WHERE m.company_id = l.company_id AND m.location_id = l.id AND m.group_id = ANY($3::bigint[])))`;
const LOCATIONS_COUNT_SQL = `SELECT count(*)::int AS count FROM locations l WHERE ${LOCATIONS_WHERE}`;
const LOCATIONS_PAGE_SQL = `
  SELECT l.id, l.company_id, l.name, l.street, l.city, l.state, l.zip, l.latitude, l.longitude, l.time_zone,
         l.created_at, l.updated_at,
         coalesce((SELECT array_agg(m.group_id ORDER BY m.group_id) FROM location_group_members m
                   WHERE m.company_id = l.company_id AND m.location_id = l.id), '{}') AS group_ids
  FROM locations l WHERE ${LOCATIONS_WHERE} ORDER BY lower(l.name), l.id LIMIT $4 OFFSET $5`;

/** One company with its locations and an API key, as the endpoint sees a real caller. */
async function seedCompany(db: Database): Promise<{ companyId: number; headers: { authorization: string } }> {
  const company = await db.platform((sql) =>
    createCompany(sql, { name: 'Bench Bistro Group', slug: 'bench-bistro-group' }),
  );
  const scope = { companyId: company.id, userId: null, actorUserId: null };
  for (let i = 1; i <= LOCATION_COUNT; i++) {
    await db.tenant(scope.companyId, (sql) =>
      createLocation(sql, scope, {
        name: `Bench Bistro ${String(i).padStart(2, '0')}`,
        street: `${100 + i} Main St`,
        city: 'Portland',
        state: 'OR',
        zip: '97201',
        latitude: 45.5 + i / 1000,
        longitude: -122.6 - i / 1000,
        time_zone: 'America/Los_Angeles',
      }),
    );
  }
  return { companyId: company.id, headers: await benchToken(db, company.id) };
}

/** `GET /api/customers/locations/` through the whole HTTP stack in-process, beside its SQL alone. */
async function benchLocationsList(driver: BenchDriver, loop: LoopOptions): Promise<void> {
  const bench = await openBenchDatabase(driver);
  // No uploads here: the import runner's polling would only add noise to the timings.
  const app = await buildApp({
    db: bench.db,
    logLevel: 'silent',
    clientDir: null,
    imports: { runJobs: false },
  });
  try {
    const { companyId, headers } = await seedCompany(bench.db);
    await app.ready();

    const request = {
      method: 'GET' as const,
      url: `/api/customers/locations/?page=1&page_size=${PAGE_SIZE}`,
      headers,
    };
    // A figure for a failing endpoint would be meaningless, so check the answer once before timing.
    const probe = await app.inject(request);
    if (probe.statusCode !== 200)
      throw new Error(`${request.url} answered ${probe.statusCode}: ${probe.body}`);
    const body = probe.json<{ count: number; results: unknown[] }>();
    if (body.count !== LOCATION_COUNT || body.results.length !== PAGE_SIZE) {
      throw new Error(`${request.url} returned count ${body.count} with ${body.results.length} rows`);
    }

    const endpoint = await timeLoop(async () => {
      const response = await app.inject(request);
      if (response.statusCode !== 200) throw new Error(`${request.url} answered ${response.statusCode}`);
    }, loop);
    const direct = await timeLoop(
      () =>
        bench.db.tenant(companyId, async (sql) => {
          const params = [companyId, null, []];
          await sql.query(LOCATIONS_COUNT_SQL, params);
          await sql.query(LOCATIONS_PAGE_SQL, [...params, PAGE_SIZE, 0]);
        }),
      loop,
    );

    printFigure({
      bench: 'locations.list',
      driver,
      endpoint_rps: round(endpoint.opsPerSecond, 1),
      direct_sql_rps: round(direct.opsPerSecond, 1),
      ratio: round(endpoint.opsPerSecond / direct.opsPerSecond, 3),
      endpoint_p50_ms: round(endpoint.p50Ms, 3),
      direct_sql_p50_ms: round(direct.p50Ms, 3),
      endpoint_p95_ms: round(endpoint.p95Ms, 3),
      direct_sql_p95_ms: round(direct.p95Ms, 3),
      requests: loop.iterations,
      warmup: loop.warmup,
      locations: LOCATION_COUNT,
      page_size: PAGE_SIZE,
    });
  } finally {
    await app.close();
    await bench.drop();
  }
}

const loop: LoopOptions = {
  warmup: envInt('BENCH_WARMUP', 200),
  iterations: envInt('BENCH_ITERATIONS', 1000),
};
// BENCH_ONLY=guests,imports runs a subset (the names below; the README lists them); all by default.
const only = new Set(
  (
    process.env.BENCH_ONLY ??
    'size,start,replay,clv,cohorts,locations,upload,imports,checks,guests,load,rollups,segments,rfm,segment-preview,segment-export,sending,campaign-freeze,flows,guest-dashboards,customer-journey,basket,consumer-insights,dashboards'
  ).split(','),
);
if (only.has('size')) await benchFirstLoad();
if (only.has('start')) await benchStart();
if (only.has('replay')) {
  benchReplay({ entries: envInt('BENCH_REPLAY_ENTRIES', 2000), runs: envInt('BENCH_REPLAY_RUNS', 5) });
}
if (only.has('clv')) benchClv();
// The cohort calls measure volume on PostgreSQL only (bench/cohorts.ts).
if (only.has('cohorts') && (process.env.BENCH_DATABASE_URL ?? process.env.BENCH_COHORT_DATABASE_URL)) {
  await benchCohorts();
}
// The segment dashboard reads the kept million-guest load database as it is (bench/segment-dashboard.ts).
if (only.has('segments') && process.env.BENCH_DATABASE_URL) {
  await benchSegmentDashboard(process.env.BENCH_DATABASE_URL);
}
// The RFM dashboard measures a million guests on PostgreSQL only (bench/rfm.ts).
if (only.has('rfm') && process.env.BENCH_DATABASE_URL) await benchRfm(process.env.BENCH_DATABASE_URL);
// The flow engine on PostgreSQL only (bench/flows.ts).
if (only.has('flows')) await benchFlows();
// Every dashboard call at 1M guests / 10M checks on PostgreSQL only (bench/dashboards.ts).
if (only.has('dashboards') && process.env.BENCH_DATABASE_URL)
  await benchDashboards(process.env.BENCH_DATABASE_URL);
for (const driver of benchDrivers()) {
  if (only.has('locations')) await benchLocationsList(driver, loop);
  if (only.has('upload')) await benchUpload(driver);
  if (only.has('imports')) await benchImports(driver);
  if (only.has('checks')) {
    await benchPosChecks(driver);
    await benchPosChecksCsv(driver);
  }
  if (only.has('guests')) await benchGuestList(driver);
  if (only.has('load')) await benchLoad(driver);
  if (only.has('rollups')) await benchRollups(driver);
  if (only.has('guest-dashboards')) await benchGuestDashboards(driver);
  if (only.has('customer-journey')) await benchCustomerJourney(driver);
  if (only.has('consumer-insights')) await benchConsumerInsights(driver);
  if (only.has('basket')) await benchBasket(driver);
  if (only.has('segments')) await benchSegments(driver);
  if (only.has('segment-preview')) await benchSegmentPreview(driver);
  if (only.has('segment-export')) await benchSegmentExport(driver);
  if (only.has('sending')) await benchSending(driver);
  if (only.has('campaign-freeze')) await benchCampaignFreeze(driver);
}
