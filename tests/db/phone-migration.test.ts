import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { loadMigrations } from '../../server/db/migrate.js';
import { findSubscribersByIds } from '../../server/repositories/subscribers.repository.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeSubscriber } from '../support/factories.js';

/** Phones as earlier versions stored them (as typed, each passing the spec's phone rule), and what 0008 makes of them. */
const SAMPLES: ReadonlyArray<[typed: string, stored: string]> = [
  ['(503) 555-4585', '+15035554585'],
  ['5035550199', '+15035550199'],
  ['503.555.0199', '+15035550199'],
  ['15035550123', '+15035550123'],
  ['+44 207 946 0958', '+442079460958'],
  ['+15035550100', '+15035550100'],
  // Twelve digits without a country code are no US number: kept as typed.
  ['503-555-458512', '503-555-458512'],
  ['', ''],
];

describe('migration 0008: stored phones become E.164', () => {
  let test: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    test = await openTestDatabase();
    db = test.db;
  });
  afterAll(() => test.drop());

  it('rewrites every company’s US and international phones and leaves what it cannot read', async () => {
    const companies = [(await makeCompany(db, 'One')).id, (await makeCompany(db, 'Two')).id];
    const rows: Array<{ companyId: number; id: number; stored: string }> = [];
    for (const [index, [typed, stored]] of SAMPLES.entries()) {
      const companyId = companies[index % 2]!;
      const row = await makeSubscriber(db, companyId, { phone: typed });
      rows.push({ companyId, id: row.id, stored });
    }
    const migration = loadMigrations().find((file) => file.name === '0008_phone_e164.sql');
    expect(migration).toBeDefined();
    await db.owner((sql) => sql.exec(migration!.sql));
    // A second run changes nothing: the migration is safe to repeat.
    await db.owner((sql) => sql.exec(migration!.sql));

    for (const { companyId, id, stored } of rows) {
      const [after] = await db.tenant(companyId, (sql) => findSubscribersByIds(sql, companyId, [id]));
      expect(after?.phone).toBe(stored);
    }
  });
});
