import pg from 'pg';
import { generateCompanyKey } from '../server/auth/company-token.js';
import type { Database } from '../server/db/database.js';
import { createCompany, listCompanies } from '../server/repositories/companies.repository.js';
import { setCompanyFeatures } from '../server/repositories/company-features.repository.js';
import { createCompanyToken } from '../server/repositories/company-tokens.repository.js';
import { ALL_FEATURES } from '../src/schemas/features.js';
import { migrate } from '../server/db/migrate.js';
import { addDays, type DayBounds } from '../src/schemas/dashboard-query.js';
import { openPostgres } from '../server/db/postgres.js';
import { openPglite } from '../server/db/pglite.js';
import { openScratchPostgres } from '../tests/support/database.js';

/** How many times an operation runs untimed, then timed. */
export interface LoopOptions {
  warmup: number;
  iterations: number;
  /** Run before each operation, outside its timing (a cache emptied, so each call is a first one). */
  beforeEach?: () => Promise<unknown>;
}

/** What one timing loop measured. */
export interface LoopResult {
  iterations: number;
  totalMs: number;
  /** Completed operations per second, one at a time (no concurrency). */
  opsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
}

/** A whole number from the environment, or the default; lets a longer run be asked for without edits. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer; got ${raw}`);
  return value;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

/** Rounds for printing: figures carry no more digits than the measurement can support. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * Runs `operation` sequentially: `warmup` times untimed (JIT, caches, query plans), then `iterations`
 * times timed one by one.
 */
export async function timeLoop(operation: () => Promise<unknown>, options: LoopOptions): Promise<LoopResult> {
  for (let i = 0; i < options.warmup; i++) {
    await options.beforeEach?.();
    await operation();
  }
  const samples = new Array<number>(options.iterations);
  for (let i = 0; i < options.iterations; i++) {
    await options.beforeEach?.();
    const before = process.hrtime.bigint();
    await operation();
    samples[i] = Number(process.hrtime.bigint() - before) / 1e6;
  }
  // The samples' sum, so the untimed step before each operation is left out here too.
  const totalMs = samples.reduce((sum, sample) => sum + sample, 0);
  samples.sort((a, b) => a - b);
  return {
    iterations: options.iterations,
    totalMs,
    opsPerSecond: (options.iterations * 1000) / totalMs,
    p50Ms: percentile(samples, 0.5),
    p95Ms: percentile(samples, 0.95),
  };
}

/** Prints one figure as a single JSON line on stdout, so runs can be collected and compared by tools. */
export function printFigure(figure: Record<string, string | number | boolean | null>): void {
  process.stdout.write(`${JSON.stringify(figure)}\n`);
}

/** Which database a bench runs on. */
export type BenchDriver = 'pglite' | 'postgres';

/** A migrated, empty database for one bench and how to throw it away. */
export interface BenchDatabase {
  driver: BenchDriver;
  db: Database;
  /** The database's connection URL on PostgreSQL, for another process (a worker) to open; none on PGlite. */
  url?: string;
  drop(): Promise<void>;
}

/** The drivers to run: PGlite always, PostgreSQL too when BENCH_DATABASE_URL names a server. */
export function benchDrivers(): BenchDriver[] {
  return process.env.BENCH_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * Opens a fresh database: in-memory PGlite, or a new temporary database on the BENCH_DATABASE_URL server
 * (dropped again by `drop`). The real migrations run either way.
 */
export async function openBenchDatabase(driver: BenchDriver): Promise<BenchDatabase> {
  if (driver === 'pglite') {
    const db = await openPglite('memory://');
    await migrate(db);
    return { driver, db, drop: () => db.close() };
  }
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) throw new Error('BENCH_DATABASE_URL is not set');
  return { driver, ...(await openScratchPostgres(serverUrl, 'regulars_bench')) };
}

/** A company API token for a bench company, as the `Authorization` header a caller sends. */
export async function benchToken(db: Database, companyId: number): Promise<{ authorization: string }> {
  const key = generateCompanyKey();
  await db.tenant(companyId, (sql) =>
    createCompanyToken(sql, companyId, {
      name: 'bench',
      keyPrefix: key.keyPrefix,
      keyHash: key.keyHash,
      createdBy: null,
    }),
  );
  return { authorization: `Token ${key.key}` };
}

/** A new company with every feature and an API token (its slug from the name). */
export async function benchCompany(
  db: Database,
  name: string,
): Promise<{ id: number; headers: { authorization: string } }> {
  const company = await db.platform((sql) =>
    createCompany(sql, { name, slug: name.toLowerCase().replaceAll(' ', '-') }),
  );
  const scope = { companyId: company.id, userId: null, actorUserId: null };
  await db.tenant(company.id, (sql) => setCompanyFeatures(sql, scope, [...ALL_FEATURES]));
  return { id: company.id, headers: await benchToken(db, company.id) };
}

/** Runs one statement on a PostgreSQL server on a connection of its own (CREATE DATABASE, VACUUM). */
export async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * How many rows a kept bench company (by slug) has in each of `tables` (each with `company_id`), read as the
 * owner, so a bench can tell whether its kept data set is the size asked for; company 0 and zeros when absent.
 */
export async function keptCompanyRows<Table extends string>(
  db: Database,
  slug: string,
  tables: readonly Table[],
): Promise<{ companyId: number } & Record<Table, number>> {
  const company = (await db.platform((sql) => listCompanies(sql))).find((row) => row.slug === slug);
  const counts = Object.fromEntries(tables.map((table) => [table, 0])) as Record<Table, number>;
  if (!company) return { companyId: 0, ...counts };
  for (const table of tables) {
    const { rows } = await db.owner((sql) =>
      sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE company_id = $1`, [company.id]),
    );
    counts[table] = rows[0]!.n;
  }
  return { companyId: company.id, ...counts };
}

/**
 * A bench database kept between runs on the server of `serverUrl`: opened (migrated, then vacuumed if a migration
 * ran) as it is when `holdsWanted` says it holds the data asked for, otherwise dropped, created again and filled by
 * `build`.
 * `buildSeconds` is null when the kept data was used.
 */
export async function openKeptDatabase(
  serverUrl: string,
  name: string,
  holdsWanted: (db: Database) => Promise<boolean>,
  build: (db: Database) => Promise<unknown>,
): Promise<{ db: Database; buildSeconds: number | null }> {
  const url = databaseUrl(serverUrl, name);
  let migrated: string[] = [];
  const open = async () => {
    const db = await openPostgres({ connectionString: url });
    migrated = await migrate(db);
    return db;
  };
  let kept: Database | null = null;
  try {
    kept = await open();
  } catch {
    // No such database yet.
  }
  if (kept && (await holdsWanted(kept))) {
    // A migration that rewrote rows leaves pages autovacuum has not yet marked all-visible: settle them first,
    // or index-only scans read the heap and the figures time the migration's wake.
    if (migrated.length > 0) await onServer(url, 'VACUUM ANALYZE');
    return { db: kept, buildSeconds: null };
  }
  await kept?.close();
  await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const db = await open();
  const started = performance.now();
  await build(db);
  await onServer(url, 'VACUUM ANALYZE');
  return { db, buildSeconds: round((performance.now() - started) / 1000, 1) };
}

/** The `days` local days ending on the company's last day with checks (`pos_location_days`). */
export async function lastDaysWithChecks(db: Database, companyId: number, days: number): Promise<DayBounds> {
  const last = await db.tenant(companyId, async (sql) => {
    const { rows } = await sql.query<{ day: string }>(
      `SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM pos_location_days WHERE company_id = $1`,
      [companyId],
    );
    return rows[0]!.day;
  });
  return { from: addDays(last, 1 - days), to: last };
}

/**
 * Reads a figure from the rollups and from raw checks, compares the two answers (as JSON text, so `read` returns
 * them in one order), times both loops and prints one line: `same_answer`, both p95s and their ratio. `figure`
 * carries the bench's name and whatever else the line says (driver, data).
 */
export async function compareRollupWithRaw(
  figure: Record<string, string | number | boolean | null>,
  read: (source: 'rollup' | 'raw') => Promise<unknown>,
  loops: { rollup: LoopOptions; raw: LoopOptions },
): Promise<void> {
  const same = JSON.stringify(await read('rollup')) === JSON.stringify(await read('raw'));
  const rollup = await timeLoop(() => read('rollup'), loops.rollup);
  const raw = await timeLoop(() => read('raw'), loops.raw);
  printFigure({
    ...figure,
    same_answer: same,
    rollup_p95_ms: round(rollup.p95Ms),
    raw_p95_ms: round(raw.p95Ms),
    raw_over_rollup: round(raw.p95Ms / rollup.p95Ms, 1),
  });
}
