import { mkdirSync } from 'node:fs';
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  PLATFORM_PREAMBLE,
  tenantPreamble,
  type CompanyId,
  type Database,
  type QueryResult,
  type Sql,
} from './database.js';

/** Values come back as plain numbers and ISO dates, the same as the PostgreSQL driver gives. */
const parsers = {
  [types.INT8]: (value: string) => Number(value),
  [types.NUMERIC]: (value: string) => Number(value),
  [types.DATE]: (value: string) => value,
};

/** Wraps a PGlite transaction as the shared `Sql` interface. */
function wrap(tx: Transaction | PGlite): Sql {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await tx.query<Row>(text, params as unknown[]);
      // PGlite counts only changed rows; PostgreSQL also counts selected ones.
      return { rows: result.rows, rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) };
    },
    async exec(text: string): Promise<void> {
      await tx.exec(text);
    },
    async copyFrom(target, columns, csv): Promise<number> {
      const parts: string[] = [];
      for await (const chunk of csv) parts.push(chunk);
      const result = await tx.query(
        `COPY ${target} (${columns.join(', ')}) FROM '/dev/blob' WITH (FORMAT csv)`,
        [],
        { blob: new Blob(parts) },
      );
      return result.affectedRows ?? 0;
    },
  };
}

/** A PGlite database, which can also copy its whole data directory (to start others as copies of it). */
export interface PgliteDatabase extends Database {
  /** The data directory as an uncompressed tarball, for `openPglite`'s `loadDataDir`. */
  dumpDataDir(): Promise<Blob>;
}

/**
 * Opens PGlite: file-backed under `dataDir`, or in memory when `dataDir` is `memory://`. With
 * `loadDataDir` (a tarball from `dumpDataDir`) it starts as a copy of that database instead of an empty one.
 * PGlite is single-connection, so transactions queue behind one another.
 */
export async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<PgliteDatabase> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  // pg_trgm backs the search indexes (migration 0006), as Debian's PostgreSQL packages provide it.
  const db = await PGlite.create(dataDir, { parsers, extensions: { pg_trgm }, loadDataDir });

  const scoped =
    (preamble: () => string) =>
    <T>(fn: (sql: Sql) => Promise<T>): Promise<T> =>
      db.transaction(async (tx) => {
        await tx.exec(preamble());
        return fn(wrap(tx));
      });

  return {
    kind: 'pglite',
    tenant: <T>(companyId: CompanyId, fn: (sql: Sql) => Promise<T>) =>
      scoped(() => tenantPreamble(companyId))(fn),
    platform: scoped(() => PLATFORM_PREAMBLE),
    owner: <T>(fn: (sql: Sql) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))),
    vacuum: async (tables = []) => {
      await db.exec(`VACUUM (ANALYZE) ${tables.join(', ')}`);
    },
    close: () => db.close(),
    dumpDataDir: () => db.dumpDataDir('none'),
  };
}
