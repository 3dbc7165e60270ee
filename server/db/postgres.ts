import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import {
  PLATFORM_PREAMBLE,
  tenantPreamble,
  type CompanyId,
  type Database,
  type QueryResult,
  type Sql,
} from './database.js';

// Numbers and dates come back the same way as from PGlite: bigint and numeric as numbers, dates as text.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// int8[] (oid 1016) has no name in pg.types.builtins.
const INT8_ARRAY_OID = 1016 as (typeof pg.types.builtins)[keyof typeof pg.types.builtins];
const parseTextArray = pg.types.getTypeParser(INT8_ARRAY_OID) as (value: string) => string[];
pg.types.setTypeParser(INT8_ARRAY_OID, (value: string) => parseTextArray(value).map(Number));

/** Wraps one checked-out client as the shared `Sql` interface. */
function wrap(client: pg.PoolClient): Sql {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await client.query(text, params as unknown[]);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(text: string): Promise<void> {
      await client.query(text);
    },
    async copyFrom(target, columns, csv): Promise<number> {
      const stream = client.query(
        copyFromStdin(`COPY ${target} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv)`),
      );
      await pipeline(Readable.from(csv), stream);
      return Number(stream.rowCount ?? 0);
    },
  };
}

/** Options for the PostgreSQL pool. */
export interface PostgresOptions {
  connectionString: string;
  /** Connections kept open; the default suits one process on a small machine. */
  maxConnections?: number;
}

/** Opens a pool against a PostgreSQL server. */
export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
  // An idle connection the server drops (restart, failover, a dropped test database) must not crash the
  // process: the pool discards it and the next query opens a fresh one.
  pool.on('error', () => undefined);
  // Fail fast on a wrong address or password rather than at the first request.
  const probe = await pool.connect();
  probe.release();

  async function inTransaction<T>(preamble: string | null, fn: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      // One round trip opens the transaction and scopes it.
      await client.query(preamble ? `BEGIN; ${preamble}` : 'BEGIN');
      const result = await fn(wrap(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  return {
    kind: 'postgres',
    tenant: async (companyId: CompanyId, fn) => inTransaction(tenantPreamble(companyId), fn),
    platform: (fn) => inTransaction(PLATFORM_PREAMBLE, fn),
    owner: (fn) => inTransaction(null, fn),
    close: () => pool.end(),
  };
}
