/**
 * POS check ingestion through CSV (`POST /api/pos/checks/upload/`, in-process with `app.inject`): the same
 * generated checks as bench/pos-checks.ts (BENCH_CHECKS_ROWS on PostgreSQL, BENCH_CHECKS_PGLITE_ROWS on PGlite),
 * one row per line (two a check), uploaded as one file and timed from the request to the import being done (the
 * job worker in the same process, in its production turns). Beside it in the same run: the plain COPY of the same
 * check rows into `pos_checks`. Prints `pos_checks.csv`: checks/s of both and their ratio.
 */
import { buildApp } from '../server/app.js';
import type { ImportJob } from '../src/schemas/imports.js';
import { makeLocation } from '../tests/support/factories.js';
import { copyFloor, generatedCheck } from './pos-checks.js';
import { benchCompany, envInt, openBenchDatabase, printFigure, round, type BenchDriver } from './support.js';

const HEADER = 'location_id,check_number,opened_at,closed_at,total,pos_id,menu_item,category,quantity,amount';

/** The file: each generated check as its rows, the check's columns repeated on each. */
function checksFile(rows: number, locationId: number): string {
  const out: string[] = [HEADER];
  for (let index = 0; index < rows; index++) {
    const check = generatedCheck(index, locationId);
    const head = [locationId, check.check_number, check.opened_at, check.closed_at, check.total.toFixed(2)];
    for (const line of check.lines) {
      out.push(
        [
          ...head,
          check.guest.pos_id,
          line.menu_item,
          line.category,
          line.quantity,
          line.amount.toFixed(2),
        ].join(','),
      );
    }
  }
  return `${out.join('\n')}\n`;
}

/** Prints the POS checks CSV figure for one driver. */
export async function benchPosChecksCsv(driver: BenchDriver): Promise<void> {
  const rows =
    driver === 'postgres' ? envInt('BENCH_CHECKS_ROWS', 100_000) : envInt('BENCH_CHECKS_PGLITE_ROWS', 20_000);
  const bench = await openBenchDatabase(driver);
  const db = bench.db;
  // The upload answers once the import is done (or fails): its time is the whole ingestion's.
  const app = await buildApp({ db, logLevel: 'silent', clientDir: null, imports: { waitMs: 3_600_000 } });
  try {
    const company = await benchCompany(db, 'Bench Checks CSV');
    const location = await makeLocation(db, company.id, 'Bench');
    const file = checksFile(rows, location.id);

    const started = performance.now();
    const answer = await app.inject({
      method: 'POST',
      url: '/api/pos/checks/upload/?file_name=bench.csv',
      headers: { ...company.headers, 'content-type': 'text/csv' },
      payload: file,
    });
    const csvSeconds = (performance.now() - started) / 1000;
    const job = answer.json<ImportJob>();
    if (answer.statusCode !== 200 || job.checks?.created !== rows) {
      throw new Error(`The upload answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`);
    }

    const copySeconds = await copyFloor(db, rows);
    printFigure({
      bench: 'pos_checks.csv',
      driver,
      checks: rows,
      lines_per_check: 2,
      megabytes: round(Buffer.byteLength(file) / 1024 / 1024, 1),
      checks_per_second: round(rows / csvSeconds, 0),
      copy_checks_per_second: round(rows / copySeconds, 0),
      ratio_to_copy: round(copySeconds / csvSeconds, 2),
    });
  } finally {
    await app.close();
    await bench.drop();
  }
}
