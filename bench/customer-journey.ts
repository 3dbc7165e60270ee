/**
 * The customer journey call (docs/dashboards.md "Customer journey") at demo scale: the demo data at SEED_SCALE
 * (small) on PGlite, and on PostgreSQL when BENCH_DATABASE_URL names a server. p50/p95 of the service behind
 * `GET /api/analytics/customer-journey/` over the data's last 30 and 90 days with the previous period, and the
 * whole answer from the rollups (`pos_guest_visits`, `pos_guest_days`) beside the same answer from raw
 * `pos_checks` (answers compared first). BENCH_JOURNEY_ITERATIONS (20) the timed loops.
 */
import type { Database } from '../server/db/database.js';
import { loadDemoData } from '../server/seed/load.js';
import type { JourneySource } from '../server/repositories/customer-journey.repository.js';
import { customerJourneyService, journeyFigures } from '../server/services/customer-journey.service.js';
import { addDays } from '../src/schemas/dashboard-query.js';
import { envInt, openBenchDatabase, printFigure, round, timeLoop, type BenchDriver } from './support.js';

/** The demo company's last day with checks. */
async function lastDay(db: Database, companyId: number): Promise<string> {
  return db.tenant(companyId, async (sql) => {
    const { rows } = await sql.query<{ day: string }>(
      `SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM pos_location_days WHERE company_id = $1`,
      [companyId],
    );
    return rows[0]!.day;
  });
}

/** Times the journey call on 30 and 90 days, then its answer from the rollups and from raw checks. */
export async function benchCustomerJourney(driver: BenchDriver): Promise<void> {
  const bench = await openBenchDatabase(driver);
  try {
    const scale = (process.env.SEED_SCALE ?? 'small') as 'small';
    const summary = await loadDemoData(bench.db, { scale });
    const companyId = summary.companies[0]!.id;
    const last = await lastDay(bench.db, companyId);
    const loop = { warmup: 2, iterations: envInt('BENCH_JOURNEY_ITERATIONS', 20) };
    const service = customerJourneyService(bench.db);
    for (const days of [30, 90]) {
      const query = {
        from_date: addDays(last, 1 - days),
        to_date: last,
        compare: 'previous' as const,
        location_id: [],
        location_group_id: [],
      };
      const timed = await timeLoop(() => service.figures(companyId, query), loop);
      printFigure({
        bench: `customer-journey.analytics.customer-journey.${days}d`,
        driver,
        data: `demo-${scale}`,
        p50_ms: round(timed.p50Ms),
        p95_ms: round(timed.p95Ms),
      });
      const figures = (source: JourneySource) =>
        bench.db.tenant(companyId, (sql) => journeyFigures(sql, companyId, query, source));
      const same = JSON.stringify(await figures('rollup')) === JSON.stringify(await figures('raw'));
      const rollup = await timeLoop(() => figures('rollup'), loop);
      const raw = await timeLoop(() => figures('raw'), {
        warmup: 1,
        iterations: Math.min(loop.iterations, 5),
      });
      printFigure({
        bench: `customer-journey.rollup-vs-raw.${days}d`,
        driver,
        data: `demo-${scale}`,
        same_answer: same,
        rollup_p95_ms: round(rollup.p95Ms),
        raw_p95_ms: round(raw.p95Ms),
        raw_over_rollup: round(raw.p95Ms / rollup.p95Ms, 1),
      });
    }
  } finally {
    await bench.drop();
  }
}
