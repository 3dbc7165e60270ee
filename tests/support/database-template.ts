import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../server/db/migrate.js';
import { openPglite } from '../../server/db/pglite.js';
import { openPostgres } from '../../server/db/postgres.js';

/**
 * The migrated, empty database every test database starts as a copy of: a PGlite data directory saved as
 * a tarball, or a PostgreSQL template database on the TEST_DATABASE_URL server.
 */
export type DatabaseTemplate = { kind: 'pglite'; tarball: string } | { kind: 'postgres'; name: string };

declare module 'vitest' {
  /** What the global setup hands to every test file (read with `inject`). */
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

/** Runs one statement on the server's maintenance database (CREATE and DROP DATABASE cannot run in a pool). */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** The address of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Migrates a PGlite once and saves its data directory; answers the tarball's path. */
async function pgliteTemplate(): Promise<string> {
  const db = await openPglite('memory://');
  try {
    await migrate(db);
    const tarball = join(tmpdir(), `regulars_template_${randomBytes(6).toString('hex')}.tar`);
    writeFileSync(tarball, new Uint8Array(await (await db.dumpDataDir()).arrayBuffer()));
    return tarball;
  } finally {
    await db.close();
  }
}

/** Creates and migrates a template database on the server; answers its name. */
async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `regulars_template_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  try {
    const db = await openPostgres({ connectionString: databaseUrl(serverUrl, name), maxConnections: 1 });
    // Closed before any copy: PostgreSQL copies only a template nobody is connected to.
    await migrate(db).finally(() => db.close());
  } catch (error) {
    await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    throw error;
  }
  return name;
}

/**
 * Vitest global setup: runs the migrations once per test run instead of once per test file, and removes
 * the template when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const tarball = await pgliteTemplate();
    project.provide('databaseTemplate', { kind: 'pglite', tarball });
    return async () => rmSync(tarball, { force: true });
  }
  const name = await postgresTemplate(serverUrl);
  project.provide('databaseTemplate', { kind: 'postgres', name });
  return () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
