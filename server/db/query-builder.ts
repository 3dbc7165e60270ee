import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql as rawSql,
  type Compilable,
  type RawBuilder,
} from 'kysely';
import type { Sql } from './database.js';
import type { Tables } from './tables.js';

/**
 * Kysely, for SQL composed from parts (a list's optional filters, later the segment rule compiler):
 * column names checked against `Tables`, conditions composed as expressions, every value a parameter.
 * It only compiles: it has no connection of its own, and `runQuery` sends the compiled text and
 * parameters through the transaction a service opened, so tenancy and row-level security are unchanged.
 * Repositories keep plain SQL where that reads better.
 */
export const queryBuilder = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Runs a built query in a transaction and answers its rows. */
export async function runQuery<Row>(sql: Sql, query: Compilable<Row>): Promise<Row[]> {
  const compiled = query.compile();
  const { rows } = await sql.query<Row>(compiled.sql, compiled.parameters);
  return rows;
}

/** `ANY($n::bigint[])`: the right side of `column = ANY(…)` for a list of ids, typed for both drivers. */
export function anyId(ids: readonly number[]): RawBuilder<number> {
  return rawSql<number>`ANY(${[...ids]}::bigint[])`;
}
