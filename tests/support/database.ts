import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { openPglite } from '../../server/db/pglite.js';
import { openPostgres } from '../../server/db/postgres.js';
import { databaseUrl, onServer } from './database-template.js';

/** A migrated, empty database for one test file, and how to throw it away. */
export interface TestDatabase {
  db: Database;
  drop(): Promise<void>;
  /** The database's address, for other processes; PostgreSQL only. */
  url?: string;
}

/** The template's tarball, read once per test file however many databases the file opens. */
let pgliteTemplate: Blob | null = null;

/**
 * With TEST_DATABASE_URL set (CI), a fresh PostgreSQL database is created on that server for the test
 * file; otherwise an in-memory PGlite. Either way it is a copy of the template the global setup migrated
 * (./database-template.ts) with the real migrations, and row-level security holds.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const template = inject('databaseTemplate');
  if (template.kind === 'pglite') {
    pgliteTemplate ??= new Blob([readFileSync(template.tarball)]);
    const db = await openPglite('memory://', pgliteTemplate);
    return { db, drop: () => db.close() };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('The PostgreSQL template was made but TEST_DATABASE_URL is gone');
  return openScratchPostgres(serverUrl, 'regulars_test', template.name);
}

/**
 * Creates a new database named `<prefix>_<random>` on a PostgreSQL server, a copy of the `template`
 * database when given or else migrated from empty, and returns it with a `drop` that removes it again. A
 * failed start drops it too, so nothing is left on the shared server.
 */
export async function openScratchPostgres(
  serverUrl: string,
  prefix: string,
  template?: string,
): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(
    serverUrl,
    template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`,
  );
  const dropDatabase = () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    const db = await openPostgres({ connectionString: databaseUrl(serverUrl, name), maxConnections: 4 });
    if (!template) await migrate(db);
    return {
      db,
      url: databaseUrl(serverUrl, name),
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
    vacuum: (tables) => db.vacuum(tables),
    close: () => db.close(),
  };
}
