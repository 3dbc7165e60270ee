/**
 * The customer journey call (docs/dashboards.md "Customer journey") at demo scale: the demo data at SEED_SCALE
 * (small) on PGlite, and on PostgreSQL when BENCH_DATABASE_URL names a server. p50/p95 of the service behind
 * `GET /api/analytics/customer-journey/` over the data's last 30 and 90 days with the previous period, and the
 * whole answer from the rollups (`pos_guest_visits`, `pos_guest_days`) beside the same answer from raw
 * `pos_checks` (answers compared first). BENCH_JOURNEY_ITERATIONS (20) the timed loops.
 */
import { loadDemoData } from '../server/seed/load.js';
import type { JourneySource } from '../server/repositories/customer-journey.repository.js';
import { customerJourneyService, journeyFigures } from '../server/services/customer-journey.service.js';
import {
  compareRollupWithRaw,
  envInt,
  lastDaysWithChecks,
  openBenchDatabase,
  printFigure,
  round,
  timeLoop,
  type BenchDriver,
} from './support.js';

/** Times the journey call on 30 and 90 days, then its answer from the rollups and from raw checks. */
export async function benchCustomerJourney(driver: BenchDriver): Promise<void> {
  const bench = await openBenchDatabase(driver);
  try {
    const scale = (process.env.SEED_SCALE ?? 'small') as 'small';
    const summary = await loadDemoData(bench.db, { scale });
    const companyId = summary.companies[0]!.id;
    const loop = { warmup: 2, iterations: envInt('BENCH_JOURNEY_ITERATIONS', 20) };
    const service = customerJourneyService(bench.db);
    for (const days of [30, 90]) {
      const range = await lastDaysWithChecks(bench.db, companyId, days);
      const query = {
        from_date: range.from,
        to_date: range.to,
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
      await compareRollupWithRaw(
        { bench: `customer-journey.rollup-vs-raw.${days}d`, driver, data: `demo-${scale}` },
        figures,
        { rollup: loop, raw: { warmup: 1, iterations: Math.min(loop.iterations, 5) } },
      );
    }
  } finally {
    await bench.drop();
  }
}
