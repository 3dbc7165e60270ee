import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { createNote } from '../../server/repositories/notes.repository.js';
import { insertChecks } from '../../server/repositories/pos.repository.js';
import { createProfileCard } from '../../server/repositories/profile-cards.repository.js';
import {
  addListMembers,
  createSubscriberList,
} from '../../server/repositories/subscriber-lists.repository.js';
import { customerProfilesService } from '../../server/services/customer-profiles.service.js';
import { guestsService } from '../../server/services/guests.service.js';
import { subscribersService } from '../../server/services/subscribers.service.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeGuest, makeLocation, makeSubscriber, systemScope } from '../support/factories.js';

/** Every row of the company a customer's removal touches, as one comparable value. */
async function footprint(db: Database, companyId: number): Promise<unknown> {
  return db.owner(async (sql) => {
    const tables: Record<string, string> = {
      guests: 'SELECT * FROM guests WHERE company_id = $1 ORDER BY id',
      subscribers: 'SELECT * FROM subscribers WHERE company_id = $1 ORDER BY id',
      checks: 'SELECT id, guest_id FROM pos_checks WHERE company_id = $1 ORDER BY id',
      notes: 'SELECT * FROM notes WHERE company_id = $1 ORDER BY id',
      cards: 'SELECT * FROM profile_cards WHERE company_id = $1 ORDER BY id',
      members: `SELECT list_id, subscriber_id FROM subscriber_list_members WHERE company_id = $1
                ORDER BY list_id, subscriber_id`,
      messages: 'SELECT * FROM email_messages WHERE company_id = $1 ORDER BY id',
      deleted: 'SELECT * FROM deleted_customers WHERE company_id = $1 ORDER BY id',
      audit: 'SELECT id FROM audit_log WHERE company_id = $1 ORDER BY id',
    };
    const rows: Record<string, unknown[]> = {};
    for (const [name, query] of Object.entries(tables))
      rows[name] = (await sql.query(query, [companyId])).rows;
    return rows;
  });
}

describe('removing a guest or a subscriber runs the whole cascade in one transaction', () => {
  let test: TestDatabase;
  let db: Database;
  let companyId: number;

  beforeAll(async () => {
    test = await openTestDatabase();
    db = test.db;
    companyId = (await makeCompany(db, 'Erasure Co')).id;
  });
  afterAll(() => test.drop());

  /** Makes the cascade's last step, the deleted-customer record, fail until the returned function runs. */
  async function refuseDeletedCustomerRecords(): Promise<() => Promise<void>> {
    await db.owner((sql) =>
      sql.exec(`
        CREATE FUNCTION refuse_deleted_customer() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'deleted-customer records are refused by this test'; END $$;
        CREATE TRIGGER refuse_deleted_customer BEFORE INSERT ON deleted_customers
          FOR EACH ROW EXECUTE FUNCTION refuse_deleted_customer();`),
    );
    return () =>
      db.owner((sql) =>
        sql.exec(`DROP TRIGGER refuse_deleted_customer ON deleted_customers;
                  DROP FUNCTION refuse_deleted_customer();`),
      );
  }

  it('leaves a guest, their checks, subscriber link, notes and cards as they were when the last step fails', async () => {
    const scope = systemScope(companyId);
    const location = await makeLocation(db, companyId, 'Corner');
    const guest = await makeGuest(db, companyId, { customer_name: 'Gus Guest', pos_id: 'G-STAYS' });
    await makeSubscriber(db, companyId, { guest_id: guest.id });
    await db.tenant(companyId, async (sql) => {
      const closed = new Date(Date.UTC(2024, 2, 1, 20));
      await insertChecks(sql, scope, [
        {
          location_id: location.id,
          guest_id: guest.id,
          check_number: 'C-1',
          opened_at: new Date(closed.getTime() - 3_600_000),
          closed_at: closed,
          subtotal_cents: 1200,
          total_cents: 1200,
          lines: [],
        },
      ]);
      await createNote(sql, scope, { type: 'guest', id: guest.id }, 'Window seat');
      await createProfileCard(sql, scope, { type: 'guest', id: guest.id }, { last_four_digits: '4242' });
    });
    const service = guestsService(db, customerProfilesService(db));
    const key = { hashid: guest.hashid, pos_id: 'G-STAYS' };
    const before = await footprint(db, companyId);

    const allow = await refuseDeletedCustomerRecords();
    try {
      await expect(service.remove(scope, guest.id, key)).rejects.toThrow(/refused by this test/);
    } finally {
      await allow();
    }
    expect(await footprint(db, companyId)).toEqual(before);

    // Without the failing step the same removal goes through, so the failure was what kept everything.
    await service.remove(scope, guest.id, key);
    expect(await footprint(db, companyId)).not.toEqual(before);
  });

  it('leaves a subscriber, their lists, notes, cards and queued messages as they were when the last step fails', async () => {
    const scope = systemScope(companyId);
    const subscriber = await makeSubscriber(db, companyId, { email: 'stays@example.com' });
    await db.tenant(companyId, async (sql) => {
      const list = await createSubscriberList(sql, scope, 'Regulars');
      await addListMembers(sql, scope, list.id, [subscriber.id]);
      await createNote(sql, scope, { type: 'subscriber', id: subscriber.id }, 'Prefers email');
      await createProfileCard(
        sql,
        scope,
        { type: 'subscriber', id: subscriber.id },
        { last_four_digits: '1111' },
      );
    });
    await db.owner((sql) =>
      sql.query(
        `INSERT INTO email_messages (company_id, subscriber_id, to_address, subject, status)
         VALUES ($1, $2, 'stays@example.com', 'Hello', 'queued')`,
        [companyId, subscriber.id],
      ),
    );
    const service = subscribersService(db, customerProfilesService(db));
    const key = { hashid: subscriber.hashid, pos_id: '' };
    const before = await footprint(db, companyId);

    const allow = await refuseDeletedCustomerRecords();
    try {
      await expect(service.remove(scope, subscriber.id, key)).rejects.toThrow(/refused by this test/);
    } finally {
      await allow();
    }
    expect(await footprint(db, companyId)).toEqual(before);

    await service.remove(scope, subscriber.id, key);
    expect(await footprint(db, companyId)).not.toEqual(before);
  });
});
