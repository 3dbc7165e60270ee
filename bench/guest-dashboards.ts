/**
 * The guest dashboards' calls (docs/dashboards.md "Guest analytics", "Demographics") at demo scale: the demo
 * data at SEED_SCALE (small) on PGlite, and on PostgreSQL when BENCH_DATABASE_URL names a server. p50/p95 of the
 * services behind `GET /api/analytics/guests/` and `/api/analytics/demographics/` over the data's last 90 days,
 * and the guest totals and visit frequency from the rollup (`pos_guest_days`) beside the same figures from raw
 * `pos_checks` (answers compared first). BENCH_GUEST_DASHBOARD_ITERATIONS (20) the timed loops.
 */
import type { Database } from '../server/db/database.js';
import type { DayBounds } from '../src/schemas/dashboard-query.js';
import { loadDemoData } from '../server/seed/load.js';
import {
  guestTotals,
  visitCounts,
  type GuestSource,
} from '../server/repositories/guest-dashboard.repository.js';
import { demographicsDashboardService } from '../server/services/demographics-dashboard.service.js';
import { guestAnalyticsDashboardService } from '../server/services/guest-analytics-dashboard.service.js';
import { addDays } from '../src/schemas/dashboard-query.js';
import { TOP_VISIT_COUNT } from '../src/schemas/guest-analytics-dashboard.js';
import { envInt, openBenchDatabase, printFigure, round, timeLoop, type BenchDriver } from './support.js';

/** The demo company's last 90 days with checks. */
async function lastNinetyDays(db: Database, companyId: number): Promise<DayBounds> {
  const last = await db.tenant(companyId, async (sql) => {
    const { rows } = await sql.query<{ day: string }>(
      `SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM pos_location_days WHERE company_id = $1`,
      [companyId],
    );
    return rows[0]!.day;
  });
  return { from: addDays(last, -89), to: last };
}

/** Times both dashboards, then the guest figures from the rollup and from raw checks, on one driver. */
export async function benchGuestDashboards(driver: BenchDriver): Promise<void> {
  const bench = await openBenchDatabase(driver);
  try {
    const scale = (process.env.SEED_SCALE ?? 'small') as 'small';
    const summary = await loadDemoData(bench.db, { scale });
    const companyId = summary.companies[0]!.id;
    const range = await lastNinetyDays(bench.db, companyId);
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
    const same = JSON.stringify(await figures('rollup')) === JSON.stringify(await figures('raw'));
    const rollup = await timeLoop(() => figures('rollup'), loop);
    const raw = await timeLoop(() => figures('raw'), loop);
    printFigure({
      bench: 'guest-dashboards.guest-figures',
      driver,
      data: `demo-${scale}`,
      same_answer: same,
      rollup_p95_ms: round(rollup.p95Ms),
      raw_p95_ms: round(raw.p95Ms),
      raw_over_rollup: round(raw.p95Ms / rollup.p95Ms, 1),
    });
  } finally {
    await bench.drop();
  }
}
