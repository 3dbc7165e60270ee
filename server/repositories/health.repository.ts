import type { Database } from '../db/database.js';

/** Runs the cheapest statement the database can answer; throws when it cannot. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.platform((sql) => sql.query('SELECT 1'));
}
