/**
 * The guest dashboards' calls (docs/dashboards.md "Guest analytics", "Demographics") at demo scale: the demo
 * data at SEED_SCALE (small) on PGlite, and on PostgreSQL when BENCH_DATABASE_URL names a server. p50/p95 of the
 * services behind `GET /api/analytics/guests/` and `/api/analytics/demographics/` over the data's last 90 days,
 * and the guest totals and visit frequency from the rollup (`pos_guest_days`) beside the same figures from raw
 * `pos_checks` (answers compared first). BENCH_GUEST_DASHBOARD_ITERATIONS (20) the timed loops.
 */
import { loadDemoData } from '../server/seed/load.js';
import {
  guestTotals,
  visitCounts,
  type GuestSource,
} from '../server/repositories/guest-dashboard.repository.js';
import { demographicsDashboardService } from '../server/services/demographics-dashboard.service.js';
import { guestAnalyticsDashboardService } from '../server/services/guest-analytics-dashboard.service.js';
import { TOP_VISIT_COUNT } from '../src/schemas/guest-analytics-dashboard.js';
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

/** Times both dashboards, then the guest figures from the rollup and from raw checks, on one driver. */
export async function benchGuestDashboards(driver: BenchDriver): Promise<void> {
  const bench = await openBenchDatabase(driver);
  try {
    const scale = (process.env.SEED_SCALE ?? 'small') as 'small';
    const summary = await loadDemoData(bench.db, { scale });
    const companyId = summary.companies[0]!.id;
    const range = await lastDaysWithChecks(bench.db, companyId, 90);
    const loop = { warmup: 2, iterations: envInt('BENCH_GUEST_DASHBOARD_ITERATIONS', 20) };
    const query = {
      from_date: range.from,
      to_date: range.to,
      compare: 'previous' as const,
      location_id: [],
      location_group_id: [],
    };
    const guests = guestAnalyticsDashboardService(bench.db);
    const demographics = demographicsDashboardService(bench.db);
    for (const [call, run] of [
      ['analytics.guests', () => guests.figures(companyId, query)],
      ['analytics.demographics', () => demographics.figures(companyId, query)],
    ] as const) {
      const timed = await timeLoop(run, loop);
      printFigure({
        bench: `guest-dashboards.${call}`,
        driver,
        data: `demo-${scale}`,
        p50_ms: round(timed.p50Ms),
        p95_ms: round(timed.p95Ms),
      });
    }
    const figures = (source: GuestSource) =>
      bench.db.tenant(companyId, async (sql) => ({
        totals: await guestTotals(sql, companyId, null, range, source),
        frequency: await visitCounts(sql, companyId, null, range, TOP_VISIT_COUNT, source),
      }));
    await compareRollupWithRaw(
      { bench: 'guest-dashboards.guest-figures', driver, data: `demo-${scale}` },
      figures,
      { rollup: loop, raw: loop },
    );
  } finally {
    await bench.drop();
  }
}
