import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { openPglite } from '../../server/db/pglite.js';
import { openPostgres } from '../../server/db/postgres.js';

/** A migrated, empty database for one test file, and how to throw it away. */
export interface TestDatabase {
  db: Database;
  drop(): Promise<void>;
}

/**
 * With TEST_DATABASE_URL set (CI), a fresh PostgreSQL database is created on that server for the test
 * file; otherwise an in-memory PGlite. Either way the real migrations run and row-level security holds.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openPglite('memory://');
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  return openScratchPostgres(serverUrl, 'regulars_test');
}

/**
 * Creates a new database named `<prefix>_<random>` on a PostgreSQL server, migrates it, and returns it with a
 * `drop` that removes it again. A failed start drops it too, so nothing is left on the shared server.
 */
export async function openScratchPostgres(serverUrl: string, prefix: string): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dropDatabase = async () => {
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  };
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const db = await openPostgres({ connectionString: url.toString(), maxConnections: 4 });
    await migrate(db);
    return {
      db,
      async drop() {
        await db.close();
        await dropDatabase();
      },
    };
  } catch (error) {
    await dropDatabase();
    throw error;
  }
}

/**
 * The same database with row-level security out of the way: every call runs as the owner. Isolation tests
 * use it so that only the repository's own `company_id` conditions keep companies apart — a repository
 * that forgets the company then fails the test instead of being saved by the second wall.
 */
export function withoutRowLevelSecurity(db: Database): Database {
  return {
    kind: db.kind,
    tenant: (_companyId, fn) => db.owner(fn),
    platform: (fn) => db.owner(fn),
    owner: (fn) => db.owner(fn),
    close: () => db.close(),
  };
}
