import { randomBytes } from 'node:crypto';
import type { Database } from '../../server/db/database.js';
import { createCompany, type CompanyRow } from '../../server/repositories/companies.repository.js';
import type { WriteScope } from '../../server/repositories/scope.js';

/** A new company with a unique slug. */
export function makeCompany(db: Database, name = 'Test Company'): Promise<CompanyRow> {
  return db.platform((sql) => createCompany(sql, { name, slug: `test-${randomBytes(4).toString('hex')}` }));
}

/** A write scope acting as no particular user (system change) in the company. */
export function systemScope(companyId: number): WriteScope {
  return { companyId, userId: null, actorUserId: null };
}

// ── People and places (guests, subscribers, users, locations) ──

import { createGuest, type GuestRow, type NewGuest } from '../../server/repositories/guests.repository.js';
import { createLocation, type LocationRow } from '../../server/repositories/locations.repository.js';
import {
  createSubscriber,
  type NewSubscriber,
  type SubscriberRow,
} from '../../server/repositories/subscribers.repository.js';
import { createUser, type NewUser, type UserRow } from '../../server/repositories/users.repository.js';

/** A location of the company with only a name; the other fields take neutral values. */
export function makeLocation(db: Database, companyId: number, name = 'Test Location'): Promise<LocationRow> {
  return db.tenant(companyId, (sql) =>
    createLocation(sql, systemScope(companyId), {
      name,
      street: '',
      city: '',
      state: '',
      zip: '',
      latitude: null,
      longitude: null,
      time_zone: 'America/New_York',
    }),
  );
}

/** A guest of the company with a unique POS id unless one is given. */
export function makeGuest(
  db: Database,
  companyId: number,
  fields: Partial<NewGuest> = {},
): Promise<GuestRow> {
  return db.tenant(companyId, (sql) =>
    createGuest(sql, systemScope(companyId), {
      pos_id: `pos-${randomBytes(4).toString('hex')}`,
      ...fields,
    }),
  );
}

/** A subscriber of the company with a unique email unless one is given. */
export function makeSubscriber(
  db: Database,
  companyId: number,
  fields: Partial<NewSubscriber> = {},
): Promise<SubscriberRow> {
  return db.tenant(companyId, (sql) =>
    createSubscriber(sql, systemScope(companyId), {
      email: `sub-${randomBytes(4).toString('hex')}@example.com`,
      ...fields,
    }),
  );
}

/** A marketer of the company with a unique email unless one is given. */
export function makeUser(db: Database, companyId: number, fields: Partial<NewUser> = {}): Promise<UserRow> {
  return db.tenant(companyId, (sql) =>
    createUser(sql, systemScope(companyId), {
      email: `user-${randomBytes(4).toString('hex')}@example.com`,
      role: 'marketer',
      ...fields,
    }),
  );
}
