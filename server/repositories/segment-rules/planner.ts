import type { RawBuilder } from 'kysely';
import type { Sql } from '../../db/database.js';
import { queryBuilder } from '../../db/query-builder.js';

/**
 * Planner settings of a segment statement (docs/segments.md "Speed"). Its sets of guests are hashed subplans
 * (`inGuests`), which PostgreSQL only hashes when the estimated set fits work_mem × hash_mem_multiplier: 64 MB × 8
 * holds sets of about sixteen million guests, where a set planned too big would run again for each guest (the
 * memory is taken as a statement needs it, not reserved). A window's per-guest figures group a million checks
 * into most of a million guests: sorting them took 430 ms where hashing took 790 ms, so aggregates sort.
 */
export const SEGMENT_PLANNER = {
  // A count over a million guests is costed above the JIT thresholds, and compiling its expressions took about
  // a second of the measured preview; each row's work here is too small to win it back.
  jit: 'off',
  work_mem: '64MB',
  hash_mem_multiplier: '8',
  enable_hashagg: 'off',
};
/**
 * The distributions group their members into a few buckets and locations, where hashing wins: the same settings
 * with hash aggregation on (a window rule's sets sort their own groups only in the counts).
 */
export const DISTRIBUTION_PLANNER = { ...SEGMENT_PLANNER, enable_hashagg: 'on' };

/** Runs a segment statement with `planner`'s settings for it alone. */
export async function runWithSegmentPlanner<Row>(
  sql: Sql,
  statement: RawBuilder<Row>,
  planner = SEGMENT_PLANNER,
): Promise<Row[]> {
  const settings = Object.entries(planner);
  await sql.exec(settings.map(([name, value]) => `SET LOCAL ${name} = '${value}'`).join('; '));
  const compiled = statement.compile(queryBuilder);
  const { rows } = await sql.query<Row>(compiled.sql, compiled.parameters);
  // Back to the server's values, so the transaction's later statements (other repositories) plan as usual; not
  // after a failure: the transaction is aborted then, and its rollback ends the settings anyway.
  await sql.exec(settings.map(([name]) => `RESET ${name}`).join('; '));
  return rows;
}
