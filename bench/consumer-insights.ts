/**
 * The consumer insights call (docs/dashboards.md "Consumer insights") at demo scale: the demo data at SEED_SCALE
 * (small) on PGlite, and on PostgreSQL when BENCH_DATABASE_URL names a server. p50/p95 of the service behind
 * `GET /api/analytics/consumer-insights/` over the data's last 90 days (every guest, and the first saved segment),
 * and the weekday × hour, party-size and day-part figures from the hourly rollup (`pos_location_hours`) beside
 * the same figures from raw `pos_checks` (answers compared first). BENCH_CONSUMER_INSIGHTS_ITERATIONS (20) the
 * timed loops.
 */
import { loadDemoData } from '../server/seed/load.js';
import {
  hourFigures,
  type HourRow,
  type HourSource,
} from '../server/repositories/consumer-insights.repository.js';
import { segmentChoices } from '../server/repositories/segments.repository.js';
import { consumerInsightsService } from '../server/services/consumer-insights.service.js';
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
    const range = await lastDaysWithChecks(bench.db, companyId, 90);
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
    await compareRollupWithRaw(
      { bench: 'consumer-insights.hour-figures', driver, data: `demo-${scale}` },
      figures,
      { rollup: loop, raw: loop },
    );
  } finally {
    await bench.drop();
  }
}
