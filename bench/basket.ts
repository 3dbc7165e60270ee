/**
 * The basket call (docs/dashboards.md, "Basket") at demo scale: `GET /api/analytics/basket/` through the whole
 * HTTP stack in-process (its pairs bounded to the items on most checks) beside the unbounded raw pair count of
 * every item over the same 30 days, and the items' checks beside those of the daily rollup `pos_menu_item_days`.
 * The pairs the call lists must equal the raw count's; p50/p95 of the call and of the raw statement are printed.
 * The demo data at SEED_SCALE (small) on each driver; BENCH_BASKET_ITERATIONS (20) the timed loops.
 */
import { buildApp } from '../server/app.js';
import { loadDemoData } from '../server/seed/load.js';
import type { Basket } from '../src/schemas/basket-analytics.js';
import {
  benchToken,
  envInt,
  openBenchDatabase,
  printFigure,
  round,
  timeLoop,
  type BenchDriver,
} from './support.js';

// Every pair of the range's checks, no bound: $1 company, $2 and $3 the range's local days.
const RAW_PAIRS = `
  WITH zone AS (SELECT time_zone AS tz FROM companies WHERE id = $1),
  lines AS MATERIALIZED (
    SELECT DISTINCT l.check_id, l.menu_item_id
    FROM pos_checks c JOIN pos_check_lines l ON l.company_id = $1 AND l.check_id = c.id
    WHERE c.company_id = $1 AND c.closed_at >= ($2::date::timestamp AT TIME ZONE (SELECT tz FROM zone))
      AND c.closed_at < (($3::date + 1)::timestamp AT TIME ZONE (SELECT tz FROM zone)))
  SELECT a.menu_item_id AS a, b.menu_item_id AS b, count(*)::int AS checks
  FROM lines a JOIN lines b ON b.check_id = a.check_id AND b.menu_item_id > a.menu_item_id
  GROUP BY 1, 2`;

// Checks with each item from the daily rollup.
const ROLLUP_ITEMS = `
  SELECT menu_item_id, sum(checks)::int AS checks FROM pos_menu_item_days
  WHERE company_id = $1 AND day BETWEEN $2::date AND $3::date GROUP BY 1`;

/** The call beside the raw pair count and the rollup's items, on the demo data of one driver. */
export async function benchBasket(driver: BenchDriver): Promise<void> {
  const bench = await openBenchDatabase(driver);
  const scale = (process.env.SEED_SCALE ?? 'small') as 'small';
  const app = await buildApp({
    db: bench.db,
    logLevel: 'silent',
    clientDir: null,
    imports: { runJobs: false },
  });
  try {
    const summary = await loadDemoData(bench.db, { scale });
    const companyId = summary.companies[0]!.id;
    const { from, to } = await bench.db.tenant(companyId, async (sql) => {
      const { rows } = await sql.query<{ from: string; to: string }>(
        `SELECT to_char(max(day) - 29, 'YYYY-MM-DD') AS from, to_char(max(day), 'YYYY-MM-DD') AS to
         FROM pos_location_days WHERE company_id = $1`,
        [companyId],
      );
      return rows[0]!;
    });
    await app.ready();
    const headers = await benchToken(bench.db, companyId);
    const url = `/api/analytics/basket/?from_date=${from}&to_date=${to}&min_support=0`;
    const call = async () => {
      const response = await app.inject({ method: 'GET', url, headers });
      if (response.statusCode !== 200)
        throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
      return response.json<Basket>();
    };
    const raw = () =>
      bench.db.tenant(
        companyId,
        async (sql) =>
          (await sql.query<{ a: string; b: string; checks: number }>(RAW_PAIRS, [companyId, from, to])).rows,
      );
    const answer = await call();
    const rawPairs = new Map((await raw()).map((row) => [`${row.a}|${row.b}`, row.checks]));
    const samePairs = answer.pairs.every((rule) => {
      const [a, b] = [rule.item_id, rule.with_item_id].sort((x, y) => x - y);
      return rawPairs.get(`${a}|${b}`) === rule.checks;
    });
    const rolled = await bench.db.tenant(
      companyId,
      async (sql) =>
        (await sql.query<{ menu_item_id: string; checks: number }>(ROLLUP_ITEMS, [companyId, from, to])).rows,
    );
    const rolledChecks = new Map(rolled.map((row) => [Number(row.menu_item_id), row.checks]));
    const sameItems = answer.items.every((item) => rolledChecks.get(item.menu_item_id) === item.checks);
    const loop = { warmup: 2, iterations: envInt('BENCH_BASKET_ITERATIONS', 20) };
    const bounded = await timeLoop(call, loop);
    const unbounded = await timeLoop(raw, loop);
    printFigure({
      bench: 'basket.analytics',
      driver,
      data: `demo-${scale}`,
      days: 30,
      checks: answer.totals.checks,
      items: answer.items.length,
      raw_pairs: rawPairs.size,
      listed_rules: answer.pairs.length,
      same_pairs_as_raw: samePairs,
      same_items_as_rollup: sameItems,
      call_p50_ms: round(bounded.p50Ms, 1),
      call_p95_ms: round(bounded.p95Ms, 1),
      raw_pairs_p50_ms: round(unbounded.p50Ms, 1),
      raw_pairs_p95_ms: round(unbounded.p95Ms, 1),
      iterations: bounded.iterations,
    });
  } finally {
    await app.close();
    await bench.drop();
  }
}
