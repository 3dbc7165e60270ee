/**
 * Guest list latency: `GET /api/pos/guests/` through the whole HTTP stack in-process (first page, a page in
 * the middle, a name search, one location), p50 and p95 over BENCH_GUEST_ITERATIONS calls each, beside the
 * list's own SQL called directly (the repository's count and page statements in one transaction, no HTTP,
 * authentication or serialising). The data is the demo data set seeded with the seed module at
 * BENCH_GUEST_SCALE (default 'small'; 'large' is a million guests and takes about 20 minutes on PostgreSQL).
 * BENCH_GUEST_DATABASE_URL names a PostgreSQL database already seeded with `npm run seed` instead: it is
 * migrated, measured as it is and left in place (so the large set is seeded once, not on every run).
 */
import { buildApp } from '../server/app.js';
import type { Database } from '../server/db/database.js';
import { migrate } from '../server/db/migrate.js';
import { openPostgres } from '../server/db/postgres.js';
import { listCompanies } from '../server/repositories/companies.repository.js';
import { listGuests, type GuestFilter } from '../server/repositories/guests.repository.js';
import { listLocations } from '../server/repositories/locations.repository.js';
import { SCALES, type Scale } from '../server/seed/blueprints.js';
import { LAST_NAMES } from '../server/seed/catalog.js';
import { loadDemoData } from '../server/seed/load.js';
import { LIMITS } from '../src/schemas/constants.js';
import {
  envInt,
  benchToken,
  openBenchDatabase,
  printFigure,
  round,
  timeLoop,
  type BenchDriver,
  type LoopOptions,
} from './support.js';

/** One list call measured: its query string and the same filter as the repository takes it. */
interface ListCase {
  name: string;
  query: string;
  filter: GuestFilter;
  page: number;
}

/** The seed scale to bench on, from BENCH_GUEST_SCALE. */
function guestScale(): Scale {
  const scale = (process.env.BENCH_GUEST_SCALE ?? 'small') as Scale;
  if (!SCALES.includes(scale)) throw new Error(`BENCH_GUEST_SCALE must be one of ${SCALES.join(', ')}`);
  return scale;
}

/** The database to bench on: a scratch one seeded at BENCH_GUEST_SCALE, or the given pre-seeded one. */
async function benchData(driver: BenchDriver): Promise<{
  db: Database;
  companyId: number;
  scale: string;
  seedSeconds: number;
  drop: () => Promise<void>;
}> {
  const seededUrl = driver === 'postgres' ? process.env.BENCH_GUEST_DATABASE_URL : undefined;
  if (seededUrl) {
    const db = await openPostgres({ connectionString: seededUrl });
    await migrate(db);
    // The demo's first company is the largest (Harbor & Vine).
    const company = (await db.platform((sql) => listCompanies(sql))).find(
      (row) => row.slug === 'harbor-vine',
    );
    if (!company) throw new Error('BENCH_GUEST_DATABASE_URL has no demo data: run npm run seed first');
    return { db, companyId: company.id, scale: 'pre-seeded', seedSeconds: 0, drop: () => db.close() };
  }
  const scale = guestScale();
  const bench = await openBenchDatabase(driver);
  const seeded = performance.now();
  const summary = await loadDemoData(bench.db, { scale });
  return {
    db: bench.db,
    companyId: summary.companies[0]!.id,
    scale,
    seedSeconds: (performance.now() - seeded) / 1000,
    drop: () => bench.drop(),
  };
}

/** Benches the guest list of the demo's largest company on one driver. */
export async function benchGuestList(driver: BenchDriver): Promise<void> {
  const loop: LoopOptions = {
    warmup: envInt('BENCH_GUEST_WARMUP', 20),
    iterations: envInt('BENCH_GUEST_ITERATIONS', 200),
  };
  const bench = await benchData(driver);
  const { scale, seedSeconds } = bench;
  // No uploads here: the import runner's polling would only add noise to the timings.
  const app = await buildApp({
    db: bench.db,
    logLevel: 'silent',
    clientDir: null,
    imports: { runJobs: false },
  });
  try {
    const company = { id: bench.companyId };
    const headers = await benchToken(bench.db, company.id);
    const location = (
      await bench.db.tenant(company.id, (sql) => listLocations(sql, company.id, { limit: 1, offset: 0 }))
    ).rows[0]!;
    await app.ready();

    const pageSize = LIMITS.guestsPageSize;
    const total = (
      await bench.db.tenant(company.id, (sql) => listGuests(sql, company.id, { limit: 1, offset: 0 }))
    ).count;
    const middle = Math.max(2, Math.floor(total / pageSize / 2));
    const surname = LAST_NAMES[0];
    const cases: ListCase[] = [
      { name: 'first_page', query: 'page=1', filter: {}, page: 1 },
      { name: 'middle_page', query: `page=${middle}`, filter: {}, page: middle },
      { name: 'search', query: `page=1&q=${surname}`, filter: { q: surname }, page: 1 },
      {
        name: 'location',
        query: `page=1&location_id=${location.id}`,
        filter: { locationIds: [location.id] },
        page: 1,
      },
    ];

    for (const listCase of cases) {
      const url = `/api/pos/guests/?page_size=${pageSize}&${listCase.query}`;
      // A figure for a failing endpoint would be meaningless, so check the answer once before timing.
      const probe = await app.inject({ method: 'GET', url, headers });
      if (probe.statusCode !== 200) throw new Error(`${url} answered ${probe.statusCode}: ${probe.body}`);
      const count = probe.json<{ count: number }>().count;

      const endpoint = await timeLoop(async () => {
        const response = await app.inject({ method: 'GET', url, headers });
        if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
      }, loop);
      const window = { limit: pageSize, offset: (listCase.page - 1) * pageSize };
      const direct = await timeLoop(
        () =>
          bench.db.tenant(company.id, (sql) =>
            listGuests(sql, company.id, { ...listCase.filter, ...window }),
          ),
        loop,
      );

      printFigure({
        bench: `guests.list.${listCase.name}`,
        driver,
        scale,
        guests: total,
        matching: count,
        page: listCase.page,
        endpoint_p50_ms: round(endpoint.p50Ms, 3),
        endpoint_p95_ms: round(endpoint.p95Ms, 3),
        direct_sql_p50_ms: round(direct.p50Ms, 3),
        direct_sql_p95_ms: round(direct.p95Ms, 3),
        p50_ratio: round(endpoint.p50Ms / direct.p50Ms, 3),
        requests: loop.iterations,
        warmup: loop.warmup,
        seed_s: round(seedSeconds, 1),
      });
    }
  } finally {
    await app.close();
    await bench.drop();
  }
}
