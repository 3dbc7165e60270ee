import { createHash } from 'node:crypto';
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

/**
 * Wraps one checked-out client as the shared `Sql` interface; `sent` runs once a statement is on its way (a
 * scoped transaction then lets its first write go), and `prepared` names the statements kept prepared.
 */
function wrap(
  client: pg.PoolClient,
  sent: () => void = () => undefined,
  prepared?: (text: string) => string | undefined,
): Sql {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      // Without parameters it stays a simple query, which may hold several statements.
      const name = params.length > 0 ? prepared?.(text) : undefined;
      const answer = client.query({ text, values: params as unknown[], ...(name ? { name } : {}) });
      sent();
      const result = await answer;
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(text: string): Promise<void> {
      const answer = client.query(text);
      sent();
      await answer;
    },
    async copyFrom(target, columns, csv): Promise<number> {
      sent();
      const stream = client.query(
        copyFromStdin(`COPY ${target} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv)`),
      );
      await pipeline(Readable.from(csv), stream);
      return Number(stream.rowCount ?? 0);
    },
  };
}

/** Statements kept prepared on one connection at most; texts past it are parsed and planned each time. */
const PREPARED_PER_CONNECTION = 500;

// The prepared statement names of each connection (pg keeps the statements themselves).
const preparedNames = new WeakMap<pg.PoolClient, Set<string>>();

/**
 * The name a statement is kept prepared under on this connection, or undefined past the bound: PostgreSQL then
 * parses it once per connection and plans it from cached plans, about a quarter of its work per list page.
 */
function preparedName(client: pg.PoolClient, text: string): string | undefined {
  const name = `r${createHash('sha1').update(text).digest('base64url')}`;
  let names = preparedNames.get(client);
  if (!names) preparedNames.set(client, (names = new Set()));
  if (names.has(name)) return name;
  if (names.size >= PREPARED_PER_CONNECTION) return undefined;
  names.add(name);
  return name;
}

/** Options for the PostgreSQL pool. */
export interface PostgresOptions {
  connectionString: string;
  /** Connections kept open for requests (DATABASE_POOL_SIZE); the default suits one process on a small machine. */
  maxConnections?: number | undefined;
  /**
   * Keep parameterised statements prepared per connection (DATABASE_PREPARE; on by default). Off
   * for a pooler that cannot follow named statements (PgBouncer before 1.22 in transaction mode).
   */
  preparedStatements?: boolean | undefined;
}

/** Connections of the owner door (migrations, bulk loads): few, and only opened when used. */
const OWNER_CONNECTIONS = 2;

/**
 * Opens two pools against a PostgreSQL server. Tenant and platform transactions use connections in pipeline
 * mode, so the statement that opens and scopes a transaction goes out with the transaction's first statement
 * (one round trip instead of two). The owner door keeps plain connections: COPY cannot run pipelined.
 */
export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const max = options.maxConnections ?? 10;
  const prepare = options.preparedStatements ?? true;
  const pool = new pg.Pool({ connectionString: options.connectionString, max, pipeline: true });
  const ownerPool = new pg.Pool({
    connectionString: options.connectionString,
    max: Math.min(max, OWNER_CONNECTIONS),
  });
  // An idle connection the server drops (restart, failover, a dropped test database) must not crash the
  // process: the pool discards it and the next query opens a fresh one.
  pool.on('error', () => undefined);
  ownerPool.on('error', () => undefined);
  // Fail fast on a wrong address or password rather than at the first request.
  const probe = await pool.connect();
  probe.release();

  /** A tenant or platform transaction on a pipelined connection. */
  async function scoped<T>(preamble: string, fn: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    // The scope is held back (corked) until fn's first statement joins it: one write and one round trip
    // carry both, and a preamble that fails aborts the transaction, so nothing behind it runs unscoped.
    const stream = client.connection.stream;
    let held = true;
    const send = () => {
      if (!held) return;
      held = false;
      stream.uncork();
    };
    try {
      stream.cork();
      const begun = client.query(`BEGIN; ${preamble}`);
      begun.catch(() => undefined);
      let result: T;
      try {
        result = await fn(wrap(client, send, prepare ? (text) => preparedName(client, text) : undefined));
      } finally {
        send();
      }
      await begun;
      await client.query('COMMIT');
      return result;
    } catch (error) {
      send();
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** An owner transaction on a plain connection (COPY needs one). */
  async function owned<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await ownerPool.connect();
    try {
      await client.query('BEGIN');
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
    tenant: async (companyId: CompanyId, fn) => scoped(tenantPreamble(companyId), fn),
    platform: (fn) => scoped(PLATFORM_PREAMBLE, fn),
    owner: owned,
    vacuum: async (tables = []) => {
      const client = await ownerPool.connect();
      try {
        await client.query(`VACUUM (ANALYZE) ${tables.join(', ')}`);
      } finally {
        client.release();
      }
    },
    close: async () => {
      await Promise.all([pool.end(), ownerPool.end()]);
    },
  };
}
