import { groupPresenceRunner } from '../../server/jobs/group-presence-runner.js';
import { randomBytes } from 'node:crypto';
import type { Database } from '../../server/db/database.js';
import {
  createLocationGroup,
  type LocationGroupRow,
} from '../../server/repositories/location-groups.repository.js';
import { createLocation, type LocationRow } from '../../server/repositories/locations.repository.js';
import { systemScope } from './factories.js';

/** A location of the company with plain defaults, for tests that need something to point at. */
export function makeTestLocation(db: Database, companyId: number, name: string): Promise<LocationRow> {
  return db.tenant(companyId, (sql) =>
    createLocation(sql, systemScope(companyId), {
      name,
      street: '1 Main St',
      city: 'Portland',
      state: 'OR',
      zip: '97201',
      latitude: 45.5,
      longitude: -122.6,
      time_zone: 'America/Los_Angeles',
    }),
  );
}

/** A location group of the company holding the given locations. */
export async function makeTestLocationGroup(
  db: Database,
  companyId: number,
  name: string,
  locationIds: number[] = [],
): Promise<LocationGroupRow> {
  const group = await db.tenant(companyId, (sql) =>
    createLocationGroup(sql, systemScope(companyId), {
      name,
      description: '',
      location_ids: locationIds,
    }),
  );
  // As the group worker would in the server: its distinct-guest rows filled, so the dashboards read them.
  await groupPresenceRunner(db, { error: () => undefined }, { everyMs: 60_000 }).tick();
  return group;
}

/**
 * A subscriber row written directly (the subscribers repository belongs elsewhere); the marketing tests only
 * need an id of the right company to point messages at.
 */
export async function makeTestSubscriber(db: Database, companyId: number, email: string): Promise<number> {
  return db.owner(async (sql) => {
    const { rows } = await sql.query<{ id: number }>(
      'INSERT INTO subscribers (company_id, email, hashid) VALUES ($1, $2, $3) RETURNING id',
      [companyId, email, randomBytes(6).toString('hex')],
    );
    return rows[0]!.id;
  });
}

/** How many rows of a table a company has, read as the owner so nothing filters the answer. */
export async function countRows(db: Database, table: string, companyId: number): Promise<number> {
  return db.owner(async (sql) => {
    const { rows } = await sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${table} WHERE company_id = $1`,
      [companyId],
    );
    return rows[0]!.count;
  });
}
