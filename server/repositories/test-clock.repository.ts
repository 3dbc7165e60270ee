import type { Sql } from '../db/database.js';

/**
 * The test clock's shared offset (migration 0036, docs/flows.md "The test clock"): one row for the installation,
 * read by every process's flow runner, so moving the clock in one process moves it in all. Platform transactions.
 */

/** How far the test clock is ahead of real time (ms); 0 before it was ever moved. */
export async function readTestClockOffset(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ offset_ms: string }>('SELECT offset_ms::text FROM test_clock WHERE id');
  return rows[0] ? Number(rows[0].offset_ms) : 0;
}

/** Moves the shared offset forward by `ms` (never back) and answers the new offset. */
export async function advanceTestClockOffset(sql: Sql, ms: number): Promise<number> {
  const { rows } = await sql.query<{ offset_ms: string }>(
    `INSERT INTO test_clock (id, offset_ms) VALUES (true, $1)
     ON CONFLICT (id) DO UPDATE SET offset_ms = test_clock.offset_ms + EXCLUDED.offset_ms, updated_at = now()
     RETURNING offset_ms::text`,
    [ms],
  );
  return Number(rows[0]!.offset_ms);
}
