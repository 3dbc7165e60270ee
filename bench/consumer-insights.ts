import type { DayBounds } from '../src/schemas/dashboard-query.js';
/**
 * The consumer insights call (docs/dashboards.md "Consumer insights") at demo scale: the demo data at SEED_SCALE
 * (small) on PGlite, and on PostgreSQL when BENCH_DATABASE_URL names a server. p50/p95 of the service behind
 * `GET /api/analytics/consumer-insights/` over the data's last 90 days (every guest, and the first saved segment),
 * and the weekday × hour, party-size and day-part figures from the hourly rollup (`pos_location_hours`) beside
 * the same figures from raw `pos_checks` (answers compared first). BENCH_CONSUMER_INSIGHTS_ITERATIONS (20) the
 * timed loops.
 */
import type { Database } from '../server/db/database.js';
import { loadDemoData } from '../server/seed/load.js';
import {
  hourFigures,
  segmentChoices,
  type HourRow,
  type HourSource,
} from '../server/repositories/consumer-insights.repository.js';
import { consumerInsightsService } from '../server/services/consumer-insights.service.js';
import { addDays } from '../src/schemas/dashboard-query.js';
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

/** Hour rows in one order, so the rollup's and the raw answer compare as text. */
const ordered = (rows: HourRow[]) =>
  [...rows].sort((a, b) => a.weekday - b.weekday || a.hour - b.hour || a.day_part.localeCompare(b.day_part));

/** Times the call, then the hour figures from the rollup and from raw checks, on one driver. */
export async function benchConsumerInsights(driver: BenchDriver): Promise<void> {
  const bench = await openBenchDatabase(driver);
  try {
    const scale = (process.env.SEED_SCALE ?? 'small') as 'small';
    const summary = await loadDemoData(bench.db, { scale });
    const companyId = summary.companies[0]!.id;
    const range = await lastNinetyDays(bench.db, companyId);
    const loop = { warmup: 2, iterations: envInt('BENCH_CONSUMER_INSIGHTS_ITERATIONS', 20) };
    const segment = (await bench.db.tenant(companyId, (sql) => segmentChoices(sql, companyId)))[0];
    const query = {
      from_date: range.from,
      to_date: range.to,
      compare: 'previous' as const,
      location_id: [],
      location_group_id: [],
    };
    const service = consumerInsightsService(bench.db);
    for (const [call, run] of [
      ['all-guests', () => service.figures(companyId, query)],
      ...(segment
        ? [['segment', () => service.figures(companyId, { ...query, segment_id: segment.id })] as const]
        : []),
    ] as const) {
      const timed = await timeLoop(run, loop);
      printFigure({
        bench: `consumer-insights.${call}`,
        driver,
        data: `demo-${scale}`,
        p50_ms: round(timed.p50Ms),
        p95_ms: round(timed.p95Ms),
      });
    }
    const figures = (source: HourSource) =>
      bench.db.tenant(companyId, async (sql) =>
        ordered(await hourFigures(sql, companyId, null, range, source)),
      );
    const same = JSON.stringify(await figures('rollup')) === JSON.stringify(await figures('raw'));
    const rollup = await timeLoop(() => figures('rollup'), loop);
    const raw = await timeLoop(() => figures('raw'), loop);
    printFigure({
      bench: 'consumer-insights.hour-figures',
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
