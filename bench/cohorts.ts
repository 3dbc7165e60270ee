/**
 * The cohort calls (`GET /api/bigdata/cohort/`, `GET /api/benchmark/cohort/`, in-process with `app.inject`) on
 * PostgreSQL: p50/p95 from the cohort rollups beside the same cells worked out from raw `pos_checks` in one
 * statement, and their ratio. One company of BENCH_COHORT_GUESTS guests (default 100,000) and
 * BENCH_COHORT_CHECKS checks (default 1,000,000) at eight locations over three years: each guest starts in
 * some month and comes back less and less (a cohort shape), a few regulars bring most checks.
 * BENCH_COHORT_DATABASE_URL names a database to keep the data in: built there once (1M guests / 10M checks
 * take several minutes; BENCH_COHORT_BUILD_ONLY=1 builds and stops, so the build runs outside the bench lock), then
 * measured as it is on later runs. Otherwise a scratch database is built and dropped.
 */
import { buildApp } from '../server/app.js';
import type { Database } from '../server/db/database.js';
import { migrate } from '../server/db/migrate.js';
import { openPostgres } from '../server/db/postgres.js';
import { rebuildCohortRollups } from '../server/repositories/cohort-rollups.repository.js';
import { makeTestLocationGroup } from '../tests/support/marketing.js';
import {
  benchCompany,
  benchToken,
  envInt,
  openBenchDatabase,
  printFigure,
  round,
  timeLoop,
  type LoopResult,
} from './support.js';

const COMPANY = 'Bench Cohorts';
const LOCATIONS = 8;
const MONTHS = 36;

/** The bench company as built: its id, API header, locations and a group of three of them. */
interface CohortBenchCompany {
  id: number;
  headers: { authorization: string };
  locations: number[];
  groupId: number;
}

/** Builds the bench company's guests and checks straight in SQL (no API: only the volume matters here). */
async function buildCompany(db: Database, guests: number, checks: number): Promise<void> {
  const company = await benchCompany(db, COMPANY);
  const ids = await db.tenant(company.id, async (sql) => {
    const { rows } = await sql.query<{ id: number }>(
      `INSERT INTO locations (company_id, name) SELECT $1, 'Bench ' || n FROM generate_series(1, $2) n RETURNING id`,
      [company.id, LOCATIONS],
    );
    return rows.map((row) => row.id).sort((a, b) => a - b);
  });
  await makeTestLocationGroup(db, company.id, 'Bench three', ids.slice(0, 3));
  await db.owner(async (sql) => {
    await sql.query(`SELECT set_config('app.platform', 'on', true)`);
    await sql.query(
      `INSERT INTO guests (company_id, pos_id, hashid)
       SELECT $1, 'BG-' || n, 'bh' || n FROM generate_series(1, $2) n`,
      [company.id, guests],
    );
    // Guest n: home location n % 8, first month (n * 7919) % 36; each check picks a guest skewed to low n (the
    // regulars), a month after the guest's first that is more often soon than late, and mostly the home location.
    await sql.query(
      `WITH g AS (SELECT min(id) AS first_id FROM guests WHERE company_id = $1)
       INSERT INTO pos_checks (company_id, location_id, guest_id, check_number, opened_at, closed_at, subtotal_cents,
                               total_cents)
       SELECT $1, loc[1 + (CASE WHEN random() < 0.8 THEN k.guest ELSE k.n END) % $4], g.first_id + k.guest,
              'BC-' || k.n, k.at - interval '1 hour', k.at, k.total, k.total
       FROM g, (SELECT n, guest, (1000 + (random() * 9000)::int) AS total,
                       timestamptz '2023-01-01 12:00+00'
                         + make_interval(months => least($5 - 1, start + (-ln(1 - random()) * 6)::int)::int)
                         + random() * interval '27 days' AS at
                FROM (SELECT n, guest, ((guest::bigint * 7919) % $5)::int AS start
                      FROM (SELECT n, (($2 - 1) * power(random(), 2))::int AS guest
                            FROM generate_series(1, $3) n) a) b) k,
            (SELECT $6::bigint[] AS loc) l`,
      [company.id, guests, checks, LOCATIONS, MONTHS, ids],
    );
    await rebuildCohortRollups(sql, company.id);
  });
  await db.owner((sql) => sql.exec('ANALYZE'));
}

/** The bench company of the database, built first when it has none. */
async function benchData(db: Database, guests: number, checks: number): Promise<CohortBenchCompany> {
  const find = () =>
    db.platform(async (sql) => {
      const { rows } = await sql.query<{ id: number; locations: number[]; group_id: number }>(
        `SELECT c.id, (SELECT array_agg(id ORDER BY id) FROM locations WHERE company_id = c.id) AS locations,
                (SELECT min(id) FROM location_groups WHERE company_id = c.id) AS group_id
         FROM companies c WHERE c.name = $1`,
        [COMPANY],
      );
      return rows[0];
    });
  let found = await find();
  if (!found) {
    const started = performance.now();
    await buildCompany(db, guests, checks);
    printFigure({
      bench: 'cohorts.build',
      guests,
      checks,
      seconds: round((performance.now() - started) / 1000, 1),
    });
    found = (await find())!;
  }
  return {
    id: found.id,
    headers: await benchToken(db, found.id),
    locations: found.locations.map(Number),
    groupId: found.group_id,
  };
}

/**
 * The cohort cells of a filter straight from raw checks: each guest's months at the locations, their first
 * month, then guests, checks and revenue per cohort and month (the repository's definition, without rollups).
 */
const RAW_CELLS = `
  WITH m AS (
    SELECT c.guest_id, date_trunc('month', c.closed_at AT TIME ZONE co.time_zone)::date AS month,
           count(*) AS checks, sum(c.total_cents) AS revenue
    FROM pos_checks c JOIN companies co ON co.id = c.company_id
    WHERE c.company_id = $1 AND c.guest_id IS NOT NULL
      AND (cardinality($2::bigint[]) = 0 OR c.location_id = ANY($2::bigint[]))
    GROUP BY 1, 2
  ), g AS (SELECT *, min(month) OVER (PARTITION BY guest_id) AS cohort FROM m)
  SELECT to_char(cohort, 'YYYY-MM') AS cohort, to_char(month, 'YYYY-MM') AS month, count(*)::int AS guests,
         sum(checks)::int AS checks, sum(revenue)::bigint AS revenue_cents
  FROM g WHERE month < cohort + make_interval(months => $3::int)
  GROUP BY cohort, month ORDER BY cohort, month`;

interface RawCell {
  cohort: string;
  month: string;
  guests: number;
  checks: number;
  revenue_cents: string | number;
}

/** The API answer's cells, to set beside the raw ones. */
function answerCells(body: {
  results: { cohort: string; months: { month: string; active: number; checks: number; revenue: number }[] }[];
}) {
  return body.results
    .flatMap((row) =>
      row.months
        .filter((month) => month.active > 0)
        .map(
          (month) =>
            `${row.cohort}/${month.month}/${month.active}/${month.checks}/${Math.round(month.revenue * 100)}`,
        ),
    )
    .join('\n');
}

function rawCells(rows: readonly RawCell[]): string {
  return rows
    .map((row) => `${row.cohort}/${row.month}/${row.guests}/${row.checks}/${Number(row.revenue_cents)}`)
    .join('\n');
}

/** Prints the cohort calls' figures (PostgreSQL only: the volume is the point). */
export async function benchCohorts(): Promise<void> {
  const guests = envInt('BENCH_COHORT_GUESTS', 100_000);
  const checks = envInt('BENCH_COHORT_CHECKS', 1_000_000);
  const loop = {
    warmup: envInt('BENCH_COHORT_WARMUP', 2),
    iterations: envInt('BENCH_COHORT_ITERATIONS', 20),
  };
  const rawLoop = { warmup: 1, iterations: envInt('BENCH_COHORT_RAW_ITERATIONS', 3) };
  const keptUrl = process.env.BENCH_COHORT_DATABASE_URL;
  let db: Database;
  let drop: () => Promise<void>;
  if (keptUrl) {
    db = await openPostgres({ connectionString: keptUrl });
    await migrate(db);
    drop = () => db.close();
  } else {
    const bench = await openBenchDatabase('postgres');
    db = bench.db;
    drop = () => bench.drop();
  }
  const app = await buildApp({ db, logLevel: 'silent', clientDir: null, imports: { runJobs: false } });
  try {
    const company = await benchData(db, guests, checks);
    // Building a kept database is no timing: BENCH_COHORT_BUILD_ONLY builds it outside the bench lock.
    if (process.env.BENCH_COHORT_BUILD_ONLY) return;
    const size = await db.platform(
      async (sql) =>
        (
          await sql.query<{ guests: number; checks: number }>(
            `SELECT (SELECT count(*)::int FROM guests WHERE company_id = $1) AS guests,
                    (SELECT count(*)::int FROM pos_checks WHERE company_id = $1) AS checks`,
            [company.id],
          )
        ).rows[0]!,
    );
    const months = 12;
    const cases: { name: string; path: string; locations: number[]; raw: boolean }[] = [
      { name: 'bigdata.company', path: '/api/bigdata/cohort/', locations: [], raw: true },
      {
        name: 'bigdata.location',
        path: `/api/bigdata/cohort/?location_id=${company.locations[0]}`,
        locations: [company.locations[0]!],
        raw: true,
      },
      {
        name: 'bigdata.group_of_3',
        path: `/api/bigdata/cohort/?location_group_id=${company.groupId}`,
        locations: company.locations.slice(0, 3),
        raw: false,
      },
      {
        name: 'benchmark.location',
        path: `/api/benchmark/cohort/?location_id=${company.locations[0]}`,
        locations: [company.locations[0]!],
        raw: false,
      },
    ];
    for (const item of cases) {
      const call = async () => {
        const answer = await app.inject({ method: 'GET', url: item.path, headers: company.headers });
        if (answer.statusCode !== 200) throw new Error(`${item.path} answered ${answer.statusCode}`);
        return answer.json<Parameters<typeof answerCells>[0]>();
      };
      const rollups: LoopResult = await timeLoop(call, loop);
      const figure: Record<string, string | number | boolean | null> = {
        bench: `cohorts.${item.name}`,
        driver: 'postgres',
        guests: size.guests,
        checks: size.checks,
        rollups_p50_ms: round(rollups.p50Ms, 1),
        rollups_p95_ms: round(rollups.p95Ms, 1),
      };
      if (item.raw) {
        const raw = () =>
          db.tenant(company.id, (sql) => sql.query<RawCell>(RAW_CELLS, [company.id, item.locations, months]));
        const rawResult = await timeLoop(raw, rawLoop);
        figure.raw_p50_ms = round(rawResult.p50Ms, 1);
        figure.raw_p95_ms = round(rawResult.p95Ms, 1);
        figure.raw_over_rollups_p95 = round(rawResult.p95Ms / rollups.p95Ms, 1);
        figure.same_cells = answerCells(await call()) === rawCells((await raw()).rows);
      }
      printFigure(figure);
    }
  } finally {
    await app.close();
    await drop();
  }
}
