/**
 * The dashboard calls (docs/dashboards.md) at volume, PostgreSQL only: each call through the whole HTTP stack
 * in-process (`app.inject` with a bench token), reading the rollups, beside its headline figure computed from raw
 * `pos_checks` by hand-written SQL in the same run; the two answers are compared and p50/p95 of both printed with
 * their ratio, over the last 90 and 365 days, for all locations and for a group of five.
 *
 * One company of BENCH_DASHBOARD_GUESTS (1,000,000) guests and BENCH_DASHBOARD_CHECKS (10,000,000) checks of 1–4
 * lines over two years at 20 locations (bench/rollups.ts `generateLarge`, shape `dashboards`), in the database
 * `regulars_bench_dashboards` on the BENCH_DATABASE_URL server (BENCH_DASHBOARD_DATABASE another name), kept for
 * the next run and rebuilt only when its counts differ. BENCH_DASHBOARD_BUILD_ONLY=1 builds it and stops, so the
 * build runs outside the timed part. BENCH_DASHBOARD_ITERATIONS (20, after one untimed) and
 * BENCH_DASHBOARD_RAW_ITERATIONS (3) the timed loops; BENCH_DASHBOARD_CALLS a comma-separated subset of the calls
 * (`CALLS` below: summary, overview, chart_data …).
 */
import { buildApp } from '../server/app.js';
import { forgetKeptAudiences } from '../server/services/kept-audiences.js';
import type { Database } from '../server/db/database.js';
import { fillDerived, generateLarge } from './rollups.js';
import {
  benchToken,
  databaseUrl,
  type LoopResult,
  envInt,
  keptCompanyRows,
  onServer,
  openKeptDatabase,
  printFigure,
  round,
  timeLoop,
} from './support.js';

const DATABASE = process.env.BENCH_DASHBOARD_DATABASE ?? 'regulars_bench_dashboards';
const SLUG = 'bench-dashboards';

/**
 * The kept data set: its checks reused when it holds the counts asked for, else generated (the build's seconds
 * printed); what the product derives from them (guest totals, cohorts, rollups) filled again whenever the schema
 * moved on since they were filled (the last migration's name is kept as the database's comment), so a new rollup
 * costs its fill, not ten million checks.
 */
async function dashboardData(serverUrl: string): Promise<{ db: Database; companyId: number; data: string }> {
  const guests = envInt('BENCH_DASHBOARD_GUESTS', 1_000_000);
  const checks = envInt('BENCH_DASHBOARD_CHECKS', 10_000_000);
  const { db, buildSeconds } = await openKeptDatabase(
    serverUrl,
    DATABASE,
    async (kept) => {
      // The location group is made last of the generated rows: a build stopped before it is built again.
      const rows = await keptCompanyRows(kept, SLUG, ['guests', 'pos_checks', 'location_groups']);
      return (
        rows.guests === guests &&
        rows.pos_checks === checks &&
        rows.location_groups > 0 &&
        (await guestsMove(kept, rows.companyId))
      );
    },
    async (empty) => {
      const companyId = await generateLarge(empty, guests, checks, 'dashboards');
      await markDerived(empty);
      return companyId;
    },
  );
  if (buildSeconds !== null) {
    printFigure({ bench: 'dashboards.build', driver: 'postgres', guests, checks, seconds: buildSeconds });
  }
  const found = await keptCompanyRows(db, SLUG, []);
  if (!(await derivedIsCurrent(db))) {
    const started = performance.now();
    await fillDerived(db, found.companyId, 'dashboards');
    await markDerived(db);
    await onServer(databaseUrl(serverUrl, DATABASE), 'VACUUM ANALYZE');
    printFigure({
      bench: 'dashboards.refill',
      driver: 'postgres',
      guests,
      checks,
      seconds: round((performance.now() - started) / 1000, 1),
    });
  }
  return { db, companyId: found.companyId, data: `${guests}-guests-${checks}-checks` };
}

/**
 * Whether the kept data's guests move between locations, read from the checks of the first hundred guests (so a
 * data set whose derived rows need filling again is not taken for an old one): data generated before the
 * generator sent a tenth of a guest's checks elsewhere had none, and is generated again.
 */
async function guestsMove(db: Database, companyId: number): Promise<boolean> {
  const { rows } = await db.owner((sql) =>
    sql.query<{ moves: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM pos_checks
         WHERE company_id = $1
           AND guest_id IN (SELECT id FROM guests WHERE company_id = $1 ORDER BY id LIMIT 100)
         GROUP BY guest_id HAVING count(DISTINCT location_id) > 1) AS moves`,
      [companyId],
    ),
  );
  return rows[0]?.moves === true;
}

/** The last migration applied: what the derived data were filled under. */
const LAST_MIGRATION = `(SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1)`;

/** Whether the derived data were filled under the schema's last migration. */
async function derivedIsCurrent(db: Database): Promise<boolean> {
  const { rows } = await db.owner((sql) =>
    sql.query<{ current: boolean }>(
      `SELECT coalesce(shobj_description(oid, 'pg_database') = ${LAST_MIGRATION}, false) AS current
       FROM pg_database WHERE datname = current_database()`,
    ),
  );
  return rows[0]?.current === true;
}

/** Records that the derived data are filled under the schema's last migration. */
async function markDerived(db: Database): Promise<void> {
  await db.owner(async (sql) => {
    const { rows } = await sql.query<{ name: string }>(`SELECT ${LAST_MIGRATION} AS name`);
    // COMMENT takes no parameters; the name is a migration file's, checked to be one.
    const name = rows[0]!.name;
    if (!/^[0-9a-z_.]+$/.test(name)) throw new Error(`unexpected migration name ${name}`);
    await sql.exec(`COMMENT ON DATABASE ${DATABASE} IS '${name}'`);
  });
}

// ───────────────────────────── the headline figures from raw pos_checks ─────────────────────────────

// $1 the company, $2 and $3 the range's first and last local days, $4 the locations (null: every location): the
// range's checks `r`, read straight from pos_checks.
const RANGE_CHECKS = `bounds AS MATERIALIZED (
    SELECT ($2::date::timestamp AT TIME ZONE time_zone) AS f, (($3::date + 1)::timestamp AT TIME ZONE time_zone) AS t
    FROM companies WHERE id = $1),
  r AS MATERIALIZED (
    SELECT c.id, c.guest_id, c.total_cents FROM pos_checks c
    WHERE c.company_id = $1 AND c.closed_at >= (SELECT f FROM bounds) AND c.closed_at < (SELECT t FROM bounds)
      AND ($4::bigint[] IS NULL OR c.location_id = ANY($4::bigint[])))`;

const RAW = {
  /** Revenue, checks, distinct guests and guests' checks of the range. */
  sales: `WITH ${RANGE_CHECKS}
    SELECT coalesce(sum(total_cents), 0)::bigint AS revenue_cents, count(*)::bigint AS checks,
           count(DISTINCT guest_id)::bigint AS guests, count(guest_id)::bigint AS visits FROM r`,
  /** The range's checks, and those holding both items $5 and $6 (a pair's support). */
  pair: `WITH ${RANGE_CHECKS}
    SELECT (SELECT count(*) FROM r)::bigint AS checks,
           (SELECT count(*) FROM r WHERE EXISTS (SELECT 1 FROM pos_check_lines l
              WHERE l.company_id = $1 AND l.check_id = r.id AND l.menu_item_id = $5::bigint)
            AND EXISTS (SELECT 1 FROM pos_check_lines l
              WHERE l.company_id = $1 AND l.check_id = r.id AND l.menu_item_id = $6::bigint))::bigint AS pair_checks`,
  /** The range's distinct guests with a check holding item $5. */
  itemGuests: `WITH ${RANGE_CHECKS}
    SELECT count(DISTINCT guest_id)::bigint AS guests FROM r WHERE EXISTS (SELECT 1 FROM pos_check_lines l
      WHERE l.company_id = $1 AND l.check_id = r.id AND l.menu_item_id = $5::bigint)`,
  /** The same at dinner (the check opened in the location's dinner hours). */
  itemGuestsAtDinner: `WITH ${RANGE_CHECKS}
    SELECT count(DISTINCT r.guest_id)::bigint AS guests
    FROM r JOIN pos_checks c ON c.company_id = $1 AND c.id = r.id JOIN locations loc ON loc.id = c.location_id
    WHERE day_part(c.opened_at, loc.time_zone) = 'dinner'
      AND EXISTS (SELECT 1 FROM pos_check_lines l
                  WHERE l.company_id = $1 AND l.check_id = r.id AND l.menu_item_id = $5::bigint)`,
  /** The range's checks opened at dinner (the location's dinner hours), and their distinct guests. */
  salesAtDinner: `WITH ${RANGE_CHECKS}
    SELECT count(*)::bigint AS checks, count(DISTINCT r.guest_id)::bigint AS guests
    FROM r JOIN pos_checks c ON c.company_id = $1 AND c.id = r.id JOIN locations loc ON loc.id = c.location_id
    WHERE day_part(c.opened_at, loc.time_zone) = 'dinner'`,
  /** The range's distinct guests, and those of them with a linked subscriber. */
  people: `WITH ${RANGE_CHECKS}, g AS MATERIALIZED (SELECT DISTINCT guest_id FROM r WHERE guest_id IS NOT NULL)
    SELECT (SELECT count(*) FROM g)::bigint AS guests,
           (SELECT count(*) FROM g WHERE EXISTS (SELECT 1 FROM subscribers s
              WHERE s.company_id = $1 AND s.guest_id = g.guest_id))::bigint AS subscribed`,
};

// Consumer insights: the range's checks (the weekday × hour heatmap's total) and its return visits — each local day a
// guest came to the locations, counted once, when the guest had a check on an earlier day at any location.
const INSIGHTS_RAW = `WITH zone AS MATERIALIZED (SELECT time_zone AS tz FROM companies WHERE id = $1),
  ${RANGE_CHECKS},
  d AS MATERIALIZED (
    SELECT DISTINCT c.guest_id, (c.closed_at AT TIME ZONE zone.tz)::date AS day
    FROM r JOIN pos_checks c ON c.company_id = $1 AND c.id = r.id CROSS JOIN zone WHERE r.guest_id IS NOT NULL)
  SELECT (SELECT count(*) FROM r)::bigint AS checks,
         (SELECT count(*) FROM d CROSS JOIN zone WHERE EXISTS (SELECT 1 FROM pos_checks p
            WHERE p.company_id = $1 AND p.guest_id = d.guest_id
              AND p.closed_at < (d.day::timestamp AT TIME ZONE zone.tz)))::bigint AS return_visits`;

// Customer journey: the range's visits (a guest's local day, at its lowest location id; at the picked locations),
// those of them followed by a later day with a check, whenever it came, and the guests with a check at the picked
// locations in the range who had checks at two or more locations in it.
const JOURNEY_RAW = `WITH zone AS MATERIALIZED (SELECT time_zone AS tz FROM companies WHERE id = $1),
  days AS MATERIALIZED (
    SELECT c.guest_id, (c.closed_at AT TIME ZONE zone.tz)::date AS day, min(c.location_id) AS location_id
    FROM pos_checks c CROSS JOIN zone
    WHERE c.company_id = $1 AND c.guest_id IS NOT NULL
      AND c.closed_at >= ($2::date::timestamp AT TIME ZONE zone.tz)
      AND c.closed_at < (($3::date + 1)::timestamp AT TIME ZONE zone.tz)
    GROUP BY 1, 2),
  visits AS MATERIALIZED (SELECT * FROM days WHERE $4::bigint[] IS NULL OR location_id = ANY($4::bigint[])),
  spread AS MATERIALIZED (
    SELECT count(DISTINCT c.location_id) AS places, bool_or($4::bigint[] IS NULL OR c.location_id = ANY($4::bigint[])) AS here
    FROM pos_checks c CROSS JOIN zone
    WHERE c.company_id = $1 AND c.guest_id IS NOT NULL
      AND c.closed_at >= ($2::date::timestamp AT TIME ZONE zone.tz)
      AND c.closed_at < (($3::date + 1)::timestamp AT TIME ZONE zone.tz)
    GROUP BY c.guest_id)
  SELECT (SELECT count(*) FROM spread WHERE here AND places > 1)::bigint AS multi_location_guests,
         count(*)::bigint AS visits,
         count(*) FILTER (WHERE EXISTS (SELECT 1 FROM pos_checks c WHERE c.company_id = $1
           AND c.guest_id = v.guest_id AND c.closed_at >= ((v.day + 1)::timestamp AT TIME ZONE zone.tz)))::bigint
           AS returned
  FROM visits v CROSS JOIN zone`;

type Row = Record<string, string | number>;
type Body = Record<string, unknown>;
const cents = (dollars: unknown) => Math.round(Number(dollars) * 100);
const numbers = (row: Row, keys: string[]) => keys.map((key) => Number(row[key]));
const field = (body: Body, key: string) => body[key] as Record<string, number>;

/**
 * One dashboard call: its path (the range and scope are added), the headline figures read from its answer,
 * the raw statement, the extra parameters it takes from the answer ($5, $6 …) and the same figures from its row.
 * One entry per call: a new dashboard is one more line here.
 */
interface DashboardCall {
  name: string;
  path: string;
  /** More of the query than the range and scope, from what the bench knows of the data. */
  extraQuery?: (known: { topItem: number }) => string;
  /** Run before each timed call, outside its timing. */
  beforeEach?: (db: Database, companyId: number) => Promise<void>;
  /** Asked again (every 25 ms, inside the timing) until the answer is whole, as the screen asks again. */
  untilWhole?: (body: Body) => boolean;
  figures: string;
  fromApi: (body: Body) => number[];
  raw: string;
  rawArgs?: (body: Body) => unknown[];
  fromRaw: (row: Row) => number[];
}

const SALES = (row: Row) => [Number(row.revenue_cents), ...numbers(row, ['checks', 'guests'])];
const totals = (key: string) => (body: Body) => {
  const t = field(body, key);
  return [cents(t.revenue), t.checks!, t.guests!];
};

const CALLS: DashboardCall[] = [
  {
    name: 'summary',
    path: '/api/analytics/summary/',
    figures: 'revenue, checks, guests',
    fromApi: totals('totals'),
    raw: RAW.sales,
    fromRaw: SALES,
  },
  {
    name: 'overview',
    path: '/api/analytics/overview/',
    figures: 'revenue, checks, guests',
    fromApi: totals('totals'),
    raw: RAW.sales,
    fromRaw: SALES,
  },
  {
    name: 'chart_data',
    path: '/api/analytics/chart-data/',
    figures: 'revenue',
    fromApi: (body) => [cents(body.revenue)],
    raw: RAW.sales,
    fromRaw: (row) => [Number(row.revenue_cents)],
  },
  {
    name: 'recommendations',
    path: '/api/analytics/recommendations/',
    figures: 'revenue, checks, guests',
    fromApi: totals('kpis'),
    raw: RAW.sales,
    fromRaw: SALES,
  },
  {
    // The day's first call (or the first after the company's refresh): the kept audiences forgotten before each
    // (the forget waits for the previous call's background count). It answers without the audiences it could not
    // count in its wait (audiences_counting), which go on being counted in the background.
    name: 'recommendations_first_read',
    path: '/api/analytics/recommendations/',
    beforeEach: forgetKeptAudiences,
    figures: 'revenue, checks, guests',
    fromApi: totals('kpis'),
    raw: RAW.sales,
    fromRaw: SALES,
  },
  {
    // The same, timed until the answer is whole: the background count the screen waits for, asking again.
    name: 'recommendations_first_read_whole',
    path: '/api/analytics/recommendations/',
    beforeEach: forgetKeptAudiences,
    untilWhole: (body) => body.audiences_counting === false,
    figures: 'revenue, checks, guests',
    fromApi: totals('kpis'),
    raw: RAW.sales,
    fromRaw: SALES,
  },
  {
    name: 'basket',
    path: '/api/analytics/basket/',
    figures: 'checks, top pair checks',
    fromApi: (body) => [field(body, 'totals').checks!, (body.pairs as { checks: number }[])[0]?.checks ?? 0],
    raw: RAW.pair,
    rawArgs: (body) => {
      const top = (body.pairs as { item_id: number; with_item_id: number }[])[0];
      return [top?.item_id ?? 0, top?.with_item_id ?? 0];
    },
    fromRaw: (row) => numbers(row, ['checks', 'pair_checks']),
  },
  {
    name: 'basket_item_guests',
    path: '/api/analytics/basket/item-guests/',
    extraQuery: ({ topItem }) => `&menu_item_id=${topItem}`,
    figures: 'guests who ordered the most ordered item',
    fromApi: (body) => [Number(body.guests)],
    raw: RAW.itemGuests,
    rawArgs: (body) => [body.menu_item_id],
    fromRaw: (row) => numbers(row, ['guests']),
  },
  {
    // A day part: the item presence rows' dinner rows (migration 0057).
    name: 'basket_item_guests_dinner',
    path: '/api/analytics/basket/item-guests/',
    extraQuery: ({ topItem }) => `&menu_item_id=${topItem}&day_part=dinner`,
    figures: 'guests who ordered the most ordered item at dinner',
    fromApi: (body) => [Number(body.guests)],
    raw: RAW.itemGuestsAtDinner,
    rawArgs: (body) => [body.menu_item_id],
    fromRaw: (row) => numbers(row, ['guests']),
  },
  {
    // The basket at dinner: its guests are the item presence rows of any check at dinner (migration 0057).
    name: 'basket_dinner',
    path: '/api/analytics/basket/',
    extraQuery: () => '&day_part=dinner',
    figures: 'checks, guests at dinner',
    fromApi: (body) => [field(body, 'totals').checks!, field(body, 'totals').guests!],
    raw: RAW.salesAtDinner,
    fromRaw: (row) => numbers(row, ['checks', 'guests']),
  },
  {
    name: 'guests',
    path: '/api/analytics/guests/',
    figures: 'guests, visits',
    fromApi: (body) => [field(body, 'totals').guests!, field(body, 'totals').visits!],
    raw: RAW.sales,
    fromRaw: (row) => numbers(row, ['guests', 'visits']),
  },
  {
    name: 'demographics',
    path: '/api/analytics/demographics/',
    figures: 'guests, guests subscribed',
    fromApi: (body) => {
      const share = field(body, 'share');
      return [share.guests_subscribed! + share.guests_only!, share.guests_subscribed!];
    },
    raw: RAW.people,
    fromRaw: (row) => numbers(row, ['guests', 'subscribed']),
  },
  {
    name: 'consumer_insights',
    path: '/api/analytics/consumer-insights/',
    figures: 'checks in the weekday × hour heatmap, return visits',
    fromApi: (body) => [
      (body.hours as { checks: number }[]).reduce((total, cell) => total + cell.checks, 0),
      field(body, 'visit_gaps').visits!,
    ],
    raw: INSIGHTS_RAW,
    fromRaw: (row) => numbers(row, ['checks', 'return_visits']),
  },
  {
    name: 'customer_journey',
    path: '/api/analytics/customer-journey/',
    figures: 'visits in the range, of them followed by another; guests at two or more locations',
    fromApi: (body) => {
      const gaps = body.gaps as { visits: number; returned: number }[];
      return [
        gaps.reduce((total, gap) => total + gap.visits, 0),
        gaps.reduce((total, gap) => total + gap.returned, 0),
        field(body, 'totals').multi_location_guests!,
      ];
    },
    raw: JOURNEY_RAW,
    fromRaw: (row) => numbers(row, ['visits', 'returned', 'multi_location_guests']),
  },
];

/** The last day of the generated data (two years from 2024-01-01), and the ranges measured ending on it. */
const LAST_DAY = '2025-12-30';
const RANGE_DAYS = [90, 365];

function rangeOf(days: number): { from: string; to: string } {
  const from = new Date(`${LAST_DAY}T00:00:00Z`);
  from.setUTCDate(from.getUTCDate() - days + 1);
  return { from: from.toISOString().slice(0, 10), to: LAST_DAY };
}

/** Every location, and the group of five the generator made (its id and locations). */
async function scopes(db: Database, companyId: number) {
  const group = await db.tenant(companyId, async (sql) => {
    const { rows } = await sql.query<{ id: number; locations: number[] }>(
      `SELECT g.id, array_agg(m.location_id ORDER BY m.location_id) AS locations
       FROM location_groups g JOIN location_group_members m ON m.company_id = g.company_id AND m.group_id = g.id
       WHERE g.company_id = $1 GROUP BY g.id ORDER BY g.id LIMIT 1`,
      [companyId],
    );
    return rows[0]!;
  });
  return [
    { scope: 'all_locations', query: '', locations: null },
    { scope: 'group_of_5', query: `&location_group_id=${group.id}`, locations: group.locations.map(Number) },
  ];
}

/** The item the generator puts on most checks: a check's first item is skewed to the menu's first ("Dish 1"). */
async function mostOrderedItem(db: Database, companyId: number): Promise<number> {
  return db.tenant(companyId, async (sql) => {
    const { rows } = await sql.query<{ id: string }>(
      `SELECT id FROM menu_items WHERE company_id = $1 AND name = 'Dish 1'`,
      [companyId],
    );
    if (!rows[0]) throw new Error('The bench company has no menu item "Dish 1": rebuild its data set');
    return Number(rows[0].id);
  });
}

/** Prints every dashboard call's figures on the kept data set (PostgreSQL only: the volume is the point). */
export async function benchDashboards(serverUrl: string): Promise<void> {
  const data = await dashboardData(serverUrl);
  try {
    // Building the kept database is no timing: BENCH_DASHBOARD_BUILD_ONLY builds it and stops.
    if (process.env.BENCH_DASHBOARD_BUILD_ONLY) return;
    await benchCalls(data);
  } finally {
    await data.db.close();
  }
}

/** Each call × range × scope: the call's p50/p95 beside the raw figure's, and whether the two agree. */
async function benchCalls(data: { db: Database; companyId: number; data: string }): Promise<void> {
  const { db, companyId } = data;
  const app = await buildApp({ db, logLevel: 'silent', clientDir: null, imports: { runJobs: false } });
  try {
    await app.ready();
    const headers = await benchToken(db, companyId);
    const loop = { warmup: 1, iterations: envInt('BENCH_DASHBOARD_ITERATIONS', 20) };
    const rawLoop = { warmup: 0, iterations: envInt('BENCH_DASHBOARD_RAW_ITERATIONS', 3) };
    const only = process.env.BENCH_DASHBOARD_CALLS?.split(',');
    // The scopes' ids once, not inside every call's loop.
    const scopesToTime = await scopes(db, companyId);
    const known = { topItem: await mostOrderedItem(db, companyId) };
    for (const call of CALLS.filter((item) => !only || only.includes(item.name))) {
      for (const days of RANGE_DAYS) {
        const { from, to } = rangeOf(days);
        for (const scope of scopesToTime) {
          const url = `${call.path}?from_date=${from}&to_date=${to}${scope.query}${call.extraQuery?.(known) ?? ''}`;
          const ask = async () => {
            const response = await app.inject({ method: 'GET', url, headers });
            if (response.statusCode !== 200)
              throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
            return response.json<Body>();
          };
          const whole = call.untilWhole;
          const get = async () => {
            let body = await ask();
            for (let asked = 1; whole && !whole(body); asked += 1) {
              if (asked > 2_400) throw new Error(`${url}: still not whole after a minute of asking`);
              await new Promise((resolve) => setTimeout(resolve, 25));
              body = await ask();
            }
            return body;
          };
          const answer = await get();
          const args = [companyId, from, to, scope.locations, ...(call.rawArgs?.(answer) ?? [])];
          let rawRow: Row | undefined;
          const raw = () =>
            db.tenant(companyId, async (sql) => {
              rawRow = (await sql.query<Row>(call.raw, args)).rows[0];
            });
          const before = call.beforeEach;
          const timed: LoopResult = await timeLoop(
            get,
            before ? { ...loop, beforeEach: () => before(db, companyId) } : loop,
          );
          const direct: LoopResult = await timeLoop(raw, rawLoop);
          const api = call.fromApi(answer);
          const fromRaw = call.fromRaw(rawRow!);
          printFigure({
            bench: `dashboards.${call.name}`,
            driver: 'postgres',
            data: data.data,
            days,
            scope: scope.scope,
            figures: call.figures,
            api_figures: api.join(' '),
            same_answer: JSON.stringify(api) === JSON.stringify(fromRaw),
            p50_ms: round(timed.p50Ms, 1),
            p95_ms: round(timed.p95Ms, 1),
            within_300_ms: timed.p95Ms <= 300,
            raw_p50_ms: round(direct.p50Ms, 1),
            raw_p95_ms: round(direct.p95Ms, 1),
            raw_over_call_p95: round(direct.p95Ms / timed.p95Ms, 1),
            iterations: loop.iterations,
            raw_iterations: rawLoop.iterations,
          });
        }
      }
    }
  } finally {
    await app.close();
  }
}
