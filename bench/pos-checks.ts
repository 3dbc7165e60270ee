/**
 * POS check ingestion through the API (`POST /api/pos/checks/`, in-process with `app.inject`, batches of 1,000):
 * BENCH_CHECKS_ROWS checks (PostgreSQL 100,000 by default, PGlite BENCH_CHECKS_PGLITE_ROWS 20,000), each with two
 * lines from a 40-item menu and a guest by POS id: one check in four brings a guest seen once, the other three
 * share a pool of a quarter as many guests who come back (about 0.44 guests per check in all).
 * Beside it in the same run: a plain COPY of the same check rows into `pos_checks` (no lines, guests, items or
 * totals), as the floor any ingestion is measured against. Prints checks/s of both and their ratio.
 */
import { buildApp } from '../server/app.js';
import type { Database } from '../server/db/database.js';
import { makeLocation } from '../tests/support/factories.js';
import { benchCompany, envInt, openBenchDatabase, printFigure, round, type BenchDriver } from './support.js';

const BATCH = 1000;

/** The bench's check number `index` at a location: two lines, a guest by POS id (returning three times in four). */
export function generatedCheck(index: number, locationId: number) {
  const closed = new Date(Date.UTC(2025, 0, 1) + index * 60_000);
  return {
    location_id: locationId,
    check_number: `B-${index}`,
    opened_at: new Date(closed.getTime() - 3_600_000).toISOString(),
    closed_at: closed.toISOString(),
    total: 30 + (index % 50),
    guest: { pos_id: `G-${index % 4 === 0 ? index : index >> 2}` },
    lines: [
      { menu_item: `Dish ${index % 40}`, category: `Course ${index % 4}`, quantity: 1, amount: 20 },
      { menu_item: `Drink ${index % 10}`, category: 'Drinks', quantity: 2, amount: 10 + (index % 50) },
    ],
  };
}

/** Prints the POS check ingestion figure for one driver. */
export async function benchPosChecks(driver: BenchDriver): Promise<void> {
  const rows =
    driver === 'postgres' ? envInt('BENCH_CHECKS_ROWS', 100_000) : envInt('BENCH_CHECKS_PGLITE_ROWS', 20_000);
  const bench = await openBenchDatabase(driver);
  const db = bench.db;
  const app = await buildApp({ db, logLevel: 'silent', clientDir: null, imports: { runJobs: false } });
  try {
    const company = await benchCompany(db, 'Bench Checks');
    const location = await makeLocation(db, company.id, 'Bench');

    const started = performance.now();
    for (let start = 0; start < rows; start += BATCH) {
      const checks = Array.from({ length: Math.min(BATCH, rows - start) }, (_, i) =>
        generatedCheck(start + i, location.id),
      );
      const answer = await app.inject({
        method: 'POST',
        url: '/api/pos/checks/',
        headers: company.headers,
        payload: { checks },
      });
      if (answer.statusCode !== 200 || answer.json<{ created: number }>().created !== checks.length) {
        throw new Error(`Batch at ${start} answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`);
      }
    }
    const apiSeconds = (performance.now() - started) / 1000;

    const copySeconds = await copyFloor(db, rows);
    printFigure({
      bench: 'pos_checks.api',
      driver,
      checks: rows,
      lines_per_check: 2,
      batch: BATCH,
      checks_per_second: round(rows / apiSeconds, 0),
      copy_checks_per_second: round(rows / copySeconds, 0),
      ratio_to_copy: round(copySeconds / apiSeconds, 2),
    });
  } finally {
    await app.close();
    await bench.drop();
  }
}

/**
 * The floor any ingestion is measured against: the same `rows` check rows COPYed straight into `pos_checks` of
 * a new company (no lines, guests, items or totals). Returns its seconds.
 */
export async function copyFloor(db: Database, rows: number): Promise<number> {
  const floor = await benchCompany(db, `Bench Copy ${Math.random().toString(36).slice(2, 8)}`);
  const floorLocation = await makeLocation(db, floor.id, 'Copy');
  const copyStarted = performance.now();
  await db.owner((sql) =>
    sql.copyFrom(
      'pos_checks',
      [
        'company_id',
        'location_id',
        'check_number',
        'opened_at',
        'closed_at',
        'subtotal_cents',
        'total_cents',
      ],
      (function* () {
        for (let index = 0; index < rows; index++) {
          const check = generatedCheck(index, floorLocation.id);
          const cents = check.total * 100;
          yield `${floor.id},${floorLocation.id},${check.check_number},${check.opened_at},${check.closed_at},${cents},${cents}\n`;
        }
      })(),
    ),
  );
  return (performance.now() - copyStarted) / 1000;
}
