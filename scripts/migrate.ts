/** `npm run migrate`: applies the committed migrations to DATABASE_URL, or to PGlite under DATA_DIR. */
import { loadConfig } from '../server/config.js';
import { migrate } from '../server/db/migrate.js';
import { openDatabase } from '../server/db/open.js';

const config = loadConfig();
const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  const applied = await migrate(db);
  console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'the database is up to date');
} finally {
  await db.close();
}
