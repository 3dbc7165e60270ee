import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

/** The committed migrations, applied in file-name order on start and by `npm run migrate`. */
export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** One migration file. */
export interface Migration {
  name: string;
  sql: string;
}

/** Reads the migration files in order. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), 'utf8') }));
}

/**
 * Applies every migration not yet recorded, each in its own transaction as the owner role.
 * Replicas starting together are serialised by an advisory lock. Returns the names applied.
 */
export async function migrate(db: Database, migrations = loadMigrations()): Promise<string[]> {
  const applied: string[] = [];
  await db.owner(async (sql) => {
    await sql.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  for (const migration of migrations) {
    await db.owner(async (sql) => {
      // The same key in every process, so only one of them migrates at a time.
      await sql.query('SELECT pg_advisory_xact_lock(7203311)');
      const done = await sql.query('SELECT 1 FROM schema_migrations WHERE name = $1', [migration.name]);
      if (done.rowCount > 0) return;
      await sql.exec(migration.sql);
      await sql.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
      applied.push(migration.name);
    });
  }
  return applied;
}
