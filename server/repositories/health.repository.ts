import type { Sql } from '../db/database.js';

/** Runs the cheapest statement the database can answer; throws when it cannot. */
export async function pingDatabase(sql: Sql): Promise<void> {
  await sql.query('SELECT 1');
}
