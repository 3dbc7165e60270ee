import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { fingerprint } from '../../server/privacy.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { listDeletedCustomers } from '../../server/repositories/deleted-customers.repository.js';
import { getGuest } from '../../server/repositories/guests.repository.js';
import { createNote, listNotes } from '../../server/repositories/notes.repository.js';
import {
  createMenuCategory,
  createMenuItem,
  guestVisits,
  insertChecks,
} from '../../server/repositories/pos.repository.js';
import { createProfileCard, listProfileCards } from '../../server/repositories/profile-cards.repository.js';
import {
  addListMembers,
  countListMembers,
  createSubscriberList,
} from '../../server/repositories/subscriber-lists.repository.js';
import { getSubscriber } from '../../server/repositories/subscribers.repository.js';
import { eraseGuest, eraseSubscriber } from '../../server/services/customer-erasure.js';
import { makeGuest, makeLocation, makeSubscriber, systemScope } from '../support/factories.js';
import { januaryCheck, queueTestMessage, storedMessage } from '../support/customers.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('customer erasure: the deletion cascades, each in the one transaction of its caller', () => {
  let db: Database;
  let companyA: number;
  useTwoCompanies((opened) => ({ db, companyA } = opened));

  it('deletes a subscriber with everything personal in one transaction', async () => {
    const scope = systemScope(companyA);
    const subscriber = await makeSubscriber(db, companyA, {
      email: 'leaving@example.com',
      pos_id: 'POS-LEAVE',
    });
    const stays = await makeSubscriber(db, companyA);
    const list = await db.tenant(scope.companyId, (sql) => createSubscriberList(sql, scope, 'VIP'));
    await db.tenant(scope.companyId, (sql) => addListMembers(sql, scope, list.id, [subscriber.id, stays.id]));
    await db.tenant(scope.companyId, (sql) =>
      createNote(sql, scope, { type: 'subscriber', id: subscriber.id }, 'Allergic to nuts'),
    );
    await db.tenant(scope.companyId, (sql) =>
      createProfileCard(sql, scope, { type: 'subscriber', id: subscriber.id }, { last_four_digits: '1234' }),
    );
    const queued = await queueTestMessage(db, companyA, subscriber.id, 'leaving@example.com');
    const sent = await queueTestMessage(db, companyA, subscriber.id, 'leaving@example.com', 'sent');
    const othersQueued = await queueTestMessage(db, companyA, stays.id, stays.email);

    expect(await db.tenant(scope.companyId, (sql) => eraseSubscriber(sql, scope, subscriber.id))).toBe(true);
    expect(await db.tenant(scope.companyId, (sql) => eraseSubscriber(sql, scope, subscriber.id))).toBe(false);
    expect(
      await db.tenant(companyA, (sql) =>
        getSubscriber(sql, companyA, {
          id: subscriber.id,
          hashid: subscriber.hashid,
          pos_id: 'POS-LEAVE',
        }),
      ),
    ).toBeNull();

    expect(await storedMessage(db, queued)).toEqual({
      status: 'cancelled',
      to_address: fingerprint('leaving@example.com'),
      subscriber_id: null,
    });
    // A message already sent stays for the campaign figures, its address fingerprinted the same way.
    expect(await storedMessage(db, sent)).toEqual({
      status: 'sent',
      to_address: fingerprint('leaving@example.com'),
      subscriber_id: null,
    });
    expect(await storedMessage(db, othersQueued)).toMatchObject({
      status: 'queued',
      to_address: stays.email,
    });
    expect(await db.tenant(companyA, (sql) => countListMembers(sql, companyA, list.id))).toBe(1);
    const leftovers = await db.owner(
      async (sql) =>
        (
          await sql.query<{ notes: number; cards: number; members: number }>(
            `SELECT (SELECT count(*)::int FROM notes WHERE subscriber_id = $1) AS notes,
                    (SELECT count(*)::int FROM profile_cards WHERE subscriber_id = $1) AS cards,
                    (SELECT count(*)::int FROM subscriber_list_members WHERE subscriber_id = $1) AS members`,
            [subscriber.id],
          )
        ).rows[0],
    );
    expect(leftovers).toEqual({ notes: 0, cards: 0, members: 0 });

    const deleted = await db.tenant(companyA, (sql) =>
      listDeletedCustomers(sql, companyA, {
        customerType: 'subscriber',
        limit: 10,
        offset: 0,
      }),
    );
    expect(deleted.rows).toEqual([
      expect.objectContaining({
        customer_type: 'subscriber',
        pos_id: 'POS-LEAVE',
        original_id: subscriber.id,
      }),
    ]);
    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'subscriber', entityId: subscriber.id }),
    );
    expect(audit[0]!.action).toBe('delete');
    expect(JSON.stringify(audit)).not.toContain('leaving@example.com');
    const messageAudit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'email_message', entityId: queued }),
    );
    expect(messageAudit.map((entry) => entry.after)).toEqual([{ status: 'cancelled' }]);
  });

  it('rolls a failed delete back completely', async () => {
    const subscriber = await makeSubscriber(db, companyA, { email: 'sticky@example.com' });
    const queued = await queueTestMessage(db, companyA, subscriber.id, 'sticky@example.com');
    // A scope naming a user that does not exist makes the deleted-customer insert fail at the end.
    await expect(
      db.tenant(companyA, (sql) =>
        eraseSubscriber(sql, { companyId: companyA, userId: 987654321, actorUserId: null }, subscriber.id),
      ),
    ).rejects.toThrow();
    expect(await storedMessage(db, queued)).toMatchObject({
      status: 'queued',
      to_address: 'sticky@example.com',
    });
    expect(
      await db.tenant(companyA, (sql) =>
        getSubscriber(sql, companyA, { id: subscriber.id, hashid: subscriber.hashid, pos_id: null }),
      ),
    ).not.toBeNull();
  });

  it('deletes a guest: checks unlinked, notes and cards removed, a deleted-customer record kept', async () => {
    const scope = systemScope(companyA);
    const location = await makeLocation(db, companyA, 'Deli');
    const category = await db.tenant(scope.companyId, (sql) => createMenuCategory(sql, scope, 'Deli food'));
    const item = await db.tenant(scope.companyId, (sql) =>
      createMenuItem(sql, scope, {
        category_id: category.id,
        name: 'Bagel',
        price_cents: 300,
      }),
    );
    const guest = await makeGuest(db, companyA, { pos_id: 'GONE-1', customer_name: 'Gone Soon' });
    const keeper = await makeGuest(db, companyA, { customer_name: 'Keeper' });
    const subscriber = await makeSubscriber(db, companyA, { guest_id: guest.id, pos_id: 'S-1' });
    const [visit] = await db.tenant(scope.companyId, (sql) =>
      insertChecks(sql, scope, [
        {
          ...januaryCheck(location.id, guest.id, 5),
          lines: [{ menu_item_id: item.id, quantity: 2, unit_price_cents: 300 }],
        },
        januaryCheck(location.id, keeper.id, 6),
      ]),
    );
    await db.tenant(scope.companyId, (sql) =>
      createNote(sql, scope, { type: 'guest', id: guest.id }, 'Likes window seats'),
    );
    await db.tenant(scope.companyId, (sql) =>
      createNote(sql, scope, { type: 'guest', id: keeper.id }, 'Regular'),
    );
    await db.tenant(scope.companyId, (sql) =>
      createProfileCard(sql, scope, { type: 'guest', id: guest.id }, { last_four_digits: '4444' }),
    );

    expect(await db.tenant(scope.companyId, (sql) => eraseGuest(sql, scope, guest.id))).toBe(true);
    expect(
      await db.tenant(companyA, (sql) =>
        getGuest(sql, companyA, { id: guest.id, hashid: guest.hashid, pos_id: 'GONE-1' }),
      ),
    ).toBeNull();
    expect(await db.tenant(scope.companyId, (sql) => eraseGuest(sql, scope, guest.id))).toBe(false);

    // The check stays for revenue figures, without the guest.
    const orphan = await db.owner(
      async (sql) =>
        (
          await sql.query<{ guest_id: number | null; lines: number }>(
            `SELECT guest_id, (SELECT count(*)::int FROM pos_check_lines l WHERE l.check_id = c.id) AS lines
       FROM pos_checks c WHERE c.id = $1`,
            [visit!.id],
          )
        ).rows[0],
    );
    expect(orphan).toEqual({ guest_id: null, lines: 1 });
    expect(await db.tenant(companyA, (sql) => guestVisits(sql, companyA, guest.id))).toEqual([]);
    const leftovers = await db.owner(
      async (sql) =>
        (
          await sql.query<{ notes: number; cards: number }>(
            `SELECT (SELECT count(*)::int FROM notes WHERE guest_id = $1) AS notes,
              (SELECT count(*)::int FROM profile_cards WHERE guest_id = $1) AS cards`,
            [guest.id],
          )
        ).rows[0],
    );
    expect(leftovers).toEqual({ notes: 0, cards: 0 });
    expect(
      (await db.tenant(companyA, (sql) => listNotes(sql, companyA, { type: 'guest', id: keeper.id })))?.map(
        (n) => n.body,
      ),
    ).toEqual(['Regular']);
    expect(
      await db.tenant(companyA, (sql) => listProfileCards(sql, companyA, { type: 'guest', id: guest.id })),
    ).toBeNull();
    expect(
      (
        await db.tenant(companyA, (sql) =>
          getSubscriber(sql, companyA, { id: subscriber.id, hashid: subscriber.hashid, pos_id: 'S-1' }),
        )
      )?.guest_id,
    ).toBeNull();

    const deleted = await db.tenant(companyA, (sql) =>
      listDeletedCustomers(sql, companyA, {
        customerType: 'guest',
        posId: 'GONE-1',
        limit: 10,
        offset: 0,
      }),
    );
    expect(deleted.count).toBe(1);
    expect(deleted.rows[0]).toMatchObject({
      customer_type: 'guest',
      pos_id: 'GONE-1',
      original_id: guest.id,
    });
    expect(JSON.stringify(deleted.rows)).not.toContain('Gone Soon');

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'guest', entityId: guest.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'create']);
    expect((audit[0]!.before as Record<string, unknown>).customer_name).toBe(fingerprint('Gone Soon'));
  });

  it('rolls a failed delete back completely', async () => {
    const guest = await makeGuest(db, companyA, { customer_name: 'Sticky' });
    await db.tenant(companyA, (sql) =>
      createNote(sql, systemScope(companyA), { type: 'guest', id: guest.id }, 'Keep me'),
    );
    // A scope naming a user that does not exist makes the deleted-customer insert fail at the end.
    await expect(
      db.tenant(companyA, (sql) =>
        eraseGuest(sql, { companyId: companyA, userId: 987654321, actorUserId: null }, guest.id),
      ),
    ).rejects.toThrow();
    expect(
      (await db.tenant(companyA, (sql) => listNotes(sql, companyA, { type: 'guest', id: guest.id })))?.map(
        (n) => n.body,
      ),
    ).toEqual(['Keep me']);
    expect(
      (
        await db.tenant(companyA, (sql) =>
          listDeletedCustomers(sql, companyA, { posId: guest.pos_id, limit: 10, offset: 0 }),
        )
      ).count,
    ).toBe(0);
  });
});
