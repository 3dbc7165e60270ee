import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { fingerprint } from '../../server/privacy.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { HASHID_PATTERN } from '../../server/repositories/hashid.js';
import { createLocationGroup } from '../../server/repositories/location-groups.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import {
  countSubscribers,
  createSubscriber,
  DuplicateSubscriberEmailError,
  existingSubscriberPosIds,
  findSubscriptionOfGuest,
  getSubscriber,
  listSubscribers,
  subscriberFileRows,
  subscribersAfter,
  updateSubscriber,
} from '../../server/repositories/subscribers.repository.js';
import { eraseSubscriber } from '../../server/services/customer-erasure.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeCompany, makeGuest, makeLocation, makeSubscriber, systemScope } from '../support/factories.js';
import { queueTestMessage, storedMessage } from '../support/customers.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('subscribers repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('creates subscribers with a trimmed email, a hashid and a fingerprinted audit entry', async () => {
    const created = await db.tenant(companyA, (sql) =>
      createSubscriber(sql, systemScope(companyA), {
        email: '  Mia.Hart@Example.com  ',
        first_name: 'Mia',
        last_name: 'Hart',
        phone: '555-0100',
        birthday: '1990-04-01',
      }),
    );
    expect(created).toMatchObject({
      email: 'Mia.Hart@Example.com',
      subscribed: true,
      pos_id: null,
      birthday: '1990-04-01',
      list_ids: [],
    });
    expect(created.hashid).toMatch(HASHID_PATTERN);

    const [entry] = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'subscriber', entityId: created.id }),
    );
    const after = entry!.after as Record<string, unknown>;
    expect(after.email).toBe(fingerprint('Mia.Hart@Example.com'));
    expect(after.email).not.toBe('Mia.Hart@Example.com');
    expect(after.phone).toBe(fingerprint('555-0100'));
    expect(JSON.stringify(entry)).not.toMatch(/Mia|Hart|555-0100|1990-04-01/);
  });

  it('keeps emails unique per company in any case, with a typed error', async () => {
    await makeSubscriber(db, companyA, { email: 'dup@example.com' });
    await expect(makeSubscriber(db, companyA, { email: ' DUP@Example.com ' })).rejects.toBeInstanceOf(
      DuplicateSubscriberEmailError,
    );
    // Another company may have the same address.
    await expect(makeSubscriber(db, companyB, { email: 'Dup@example.com' })).resolves.toMatchObject({
      company_id: companyB,
    });
    const other = await makeSubscriber(db, companyA, { email: 'other@example.com' });
    await expect(
      db.tenant(companyA, (sql) =>
        updateSubscriber(sql, systemScope(companyA), other.id, { email: 'DUP@example.com' }),
      ),
    ).rejects.toBeInstanceOf(DuplicateSubscriberEmailError);
    // Changing the case of one's own address is not a duplicate.
    const recased = await db.tenant(companyA, (sql) =>
      updateSubscriber(sql, systemScope(companyA), other.id, {
        email: ' OTHER@example.com',
      }),
    );
    expect(recased?.email).toBe('OTHER@example.com');
  });

  it("refuses another company's guest or location as a link", async () => {
    const foreignGuest = await makeGuest(db, companyB);
    const foreignLocation = await makeLocation(db, companyB, 'Foreign');
    await expect(makeSubscriber(db, companyA, { guest_id: foreignGuest.id })).rejects.toBeInstanceOf(
      UnknownReferenceError,
    );
    await expect(
      makeSubscriber(db, companyA, { source_location_id: foreignLocation.id }),
    ).rejects.toMatchObject({
      field: 'source_location_id',
    });
  });

  it('pages, searches (wildcards literal) and filters by source location and group', async () => {
    const company = (await makeCompany(db, 'Paging')).id;
    const north = await makeLocation(db, company, 'North');
    const south = await makeLocation(db, company, 'South');
    const group = await db.tenant(company, (sql) =>
      createLocationGroup(sql, systemScope(company), {
        name: 'South side',
        description: '',
        location_ids: [south.id],
      }),
    );
    const ann = await makeSubscriber(db, company, {
      email: 'ann@example.com',
      first_name: 'Ann',
      last_name: 'Lee',
    });
    const bo = await makeSubscriber(db, company, { email: 'bo_b@example.com', source_location_id: north.id });
    const cy = await makeSubscriber(db, company, { email: 'cy@example.com', phone: '+1 503 555 0199' });
    const di = await makeSubscriber(db, company, {
      email: 'di@example.com',
      last_name: '100% Di',
      source_location_id: south.id,
    });

    const first = await db.tenant(company, (sql) => listSubscribers(sql, company, { limit: 3, offset: 0 }));
    expect(first.count).toBe(4);
    expect(first.rows.map((s) => s.id)).toEqual([di.id, cy.id, bo.id]);
    expect(
      (await db.tenant(company, (sql) => listSubscribers(sql, company, { limit: 3, offset: 3 }))).rows.map(
        (s) => s.id,
      ),
    ).toEqual([ann.id]);

    const search = async (q: string) =>
      (
        await db.tenant(company, (sql) => listSubscribers(sql, company, { q, limit: 10, offset: 0 }))
      ).rows.map((s) => s.id);
    expect(await search('ANN@')).toEqual([ann.id]);
    expect(await search('ann lee')).toEqual([ann.id]);
    expect(await search('lee')).toEqual([ann.id]);
    expect(await search('555 0199')).toEqual([cy.id]);
    expect(await search('o_b')).toEqual([bo.id]);
    expect(await search('n_')).toEqual([]);
    expect(await search('100%')).toEqual([di.id]);
    expect(await search('%')).toEqual([di.id]);

    const byLocation = await db.tenant(company, (sql) =>
      listSubscribers(sql, company, {
        locationIds: [north.id, south.id],
        limit: 10,
        offset: 0,
      }),
    );
    expect(byLocation.rows.map((s) => s.id)).toEqual([di.id, bo.id]);
    const byGroup = await db.tenant(company, (sql) =>
      listSubscribers(sql, company, { groupIds: [group.id], limit: 10, offset: 0 }),
    );
    expect(byGroup.rows.map((s) => s.id)).toEqual([di.id]);
    expect(
      (
        await db.tenant(company, (sql) =>
          listSubscribers(sql, company, { groupIds: [group.id], q: 'bo', limit: 10, offset: 0 }),
        )
      ).count,
    ).toBe(0);
  });

  it('finds a subscriber only when id, hashid and POS id all match', async () => {
    const withPos = await makeSubscriber(db, companyA, { pos_id: 'POS-7' });
    const withoutPos = await makeSubscriber(db, companyA);
    const key = { id: withPos.id, hashid: withPos.hashid, pos_id: 'POS-7' };
    expect(await db.tenant(companyA, (sql) => getSubscriber(sql, companyA, key))).toEqual(withPos);
    expect(
      await db.tenant(companyA, (sql) => getSubscriber(sql, companyA, { ...key, pos_id: null })),
    ).toBeNull();
    expect(
      await db.tenant(companyA, (sql) => getSubscriber(sql, companyA, { ...key, pos_id: 'POS-8' })),
    ).toBeNull();
    expect(
      await db.tenant(companyA, (sql) => getSubscriber(sql, companyA, { ...key, hashid: withoutPos.hashid })),
    ).toBeNull();
    expect(
      await db.tenant(companyA, (sql) =>
        getSubscriber(sql, companyA, { id: withoutPos.id, hashid: withoutPos.hashid, pos_id: null }),
      ),
    ).toEqual(withoutPos);
    expect(
      await db.tenant(companyA, (sql) =>
        getSubscriber(sql, companyA, { id: withoutPos.id, hashid: withoutPos.hashid, pos_id: '' }),
      ),
    ).toBeNull();
  });

  it('updates profile fields and stamps unsubscribing', async () => {
    const scope = systemScope(companyA);
    const subscriber = await makeSubscriber(db, companyA, { first_name: 'Old', zip: '97201' });
    const renamed = await db.tenant(scope.companyId, (sql) =>
      updateSubscriber(sql, scope, subscriber.id, {
        first_name: 'New',
        birthday: '2000-02-29',
      }),
    );
    expect(renamed).toMatchObject({
      first_name: 'New',
      zip: '97201',
      birthday: '2000-02-29',
      unsubscribed_at: null,
    });

    const unsubscribed = await db.tenant(scope.companyId, (sql) =>
      updateSubscriber(sql, scope, subscriber.id, { subscribed: false }),
    );
    expect(unsubscribed?.subscribed).toBe(false);
    expect(unsubscribed?.unsubscribed_at).toBeInstanceOf(Date);
    const stamp = unsubscribed!.unsubscribed_at;
    // Saying "unsubscribed" again keeps the first time.
    expect(
      (
        await db.tenant(scope.companyId, (sql) =>
          updateSubscriber(sql, scope, subscriber.id, { subscribed: false }),
        )
      )?.unsubscribed_at,
    ).toEqual(stamp);
    const back = await db.tenant(scope.companyId, (sql) =>
      updateSubscriber(sql, scope, subscriber.id, { subscribed: true, birthday: null }),
    );
    expect(back).toMatchObject({ subscribed: true, unsubscribed_at: null, birthday: null });
    expect(
      await db.tenant(scope.companyId, (sql) => updateSubscriber(sql, scope, 0, { first_name: 'Nobody' })),
    ).toBeNull();

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'subscriber', entityId: subscriber.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['update', 'update', 'update', 'update', 'create']);
    expect((audit[3]!.after as Record<string, unknown>).first_name).toBe(fingerprint('New'));
  });

  it("never returns or changes another company's subscribers, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirLocation = await makeLocation(guarded, companyB, 'Theirs');
      const theirs = await makeSubscriber(guarded, companyB, {
        first_name: 'Theirs',
        source_location_id: theirLocation.id,
        pos_id: 'THEIR-POS',
      });
      const theirGroup = await guarded.tenant(companyB, (sql) =>
        createLocationGroup(sql, systemScope(companyB), {
          name: 'Theirs',
          description: '',
          location_ids: [theirLocation.id],
        }),
      );
      const theirQueued = await queueTestMessage(db, companyB, theirs.id, theirs.email);

      // The same address is free in company A.
      await makeSubscriber(guarded, companyA, { email: theirs.email.toUpperCase() });
      const mine = await guarded.tenant(companyA, (sql) =>
        listSubscribers(sql, companyA, { limit: 500, offset: 0 }),
      );
      expect(mine.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listSubscribers(sql, companyA, { q: 'Theirs', limit: 10, offset: 0 }),
          )
        ).count,
      ).toBe(0);
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listSubscribers(sql, companyA, { locationIds: [theirLocation.id], limit: 10, offset: 0 }),
          )
        ).count,
      ).toBe(0);
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listSubscribers(sql, companyA, { groupIds: [theirGroup.id], limit: 10, offset: 0 }),
          )
        ).count,
      ).toBe(0);
      const key = { id: theirs.id, hashid: theirs.hashid, pos_id: 'THEIR-POS' };
      expect(await guarded.tenant(companyA, (sql) => getSubscriber(sql, companyA, key))).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) =>
          updateSubscriber(sql, systemScope(companyA), theirs.id, { first_name: 'Taken' }),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) => eraseSubscriber(sql, systemScope(companyA), theirs.id)),
      ).toBe(false);
      expect(await guarded.tenant(companyB, (sql) => getSubscriber(sql, companyB, key))).toMatchObject({
        first_name: 'Theirs',
      });
      expect((await storedMessage(db, theirQueued)).status).toBe('queued');
    }
  });
});

describe('subscribers repository: exports, files, existing records and guest links', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('reads batches after an id, file rows by offset, counts and existing POS ids', async () => {
    const company = (await makeCompany(db, 'Batches')).id;
    const north = await makeLocation(db, company, 'North');
    const one = await makeSubscriber(db, company, {
      email: 'one@example.com',
      pos_id: 'S-1',
      source_location_id: north.id,
    });
    const two = await makeSubscriber(db, company, { email: 'two@example.com' });
    const three = await makeSubscriber(db, company, {
      email: 'three@example.com',
      pos_id: 'S-3',
      source_location_id: north.id,
    });

    expect(
      (await db.tenant(company, (sql) => subscribersAfter(sql, company, {}, 0, 2))).map((s) => s.id),
    ).toEqual([one.id, two.id]);
    expect(
      (await db.tenant(company, (sql) => subscribersAfter(sql, company, {}, two.id, 2))).map((s) => s.id),
    ).toEqual([three.id]);
    expect(
      (
        await db.tenant(company, (sql) =>
          subscribersAfter(sql, company, { locationIds: [north.id] }, one.id, 5),
        )
      ).map((s) => s.id),
    ).toEqual([three.id]);
    expect(
      await db.tenant(company, (sql) => subscriberFileRows(sql, company, {}, { limit: 2, offset: 1 })),
    ).toEqual([
      { email: 'two@example.com', pos_id: null },
      { email: 'three@example.com', pos_id: 'S-3' },
    ]);
    expect(await db.tenant(company, (sql) => countSubscribers(sql, company, {}))).toBe(3);
    expect(
      await db.tenant(company, (sql) =>
        countSubscribers(sql, company, { locationIds: [north.id], q: 'three' }),
      ),
    ).toBe(1);
    expect(
      await db.tenant(company, (sql) => existingSubscriberPosIds(sql, company, ['S-3', 'S-2', 'S-1'])),
    ).toEqual(['S-1', 'S-3']);
  });

  it("finds the subscriber linked to a guest, and never another company's", async () => {
    const guest = await makeGuest(db, companyA);
    expect(await db.tenant(companyA, (sql) => findSubscriptionOfGuest(sql, companyA, guest.id))).toBeNull();
    const linked = await makeSubscriber(db, companyA, {
      email: 'linked@example.com',
      guest_id: guest.id,
      subscribed: false,
    });
    expect(await db.tenant(companyA, (sql) => findSubscriptionOfGuest(sql, companyA, guest.id))).toEqual({
      subscriber_id: linked.id,
      hashid: linked.hashid,
      subscribed: false,
      email: 'linked@example.com',
      pos_id: null,
    });
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirGuest = await makeGuest(guarded, companyB);
      await makeSubscriber(guarded, companyB, { guest_id: theirGuest.id, pos_id: 'THEIRS-S' });
      expect(
        await guarded.tenant(companyA, (sql) => findSubscriptionOfGuest(sql, companyA, theirGuest.id)),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) => existingSubscriberPosIds(sql, companyA, ['THEIRS-S'])),
      ).toEqual([]);
      expect(
        (await guarded.tenant(companyA, (sql) => subscribersAfter(sql, companyA, {}, 0, 1000))).every(
          (s) => s.company_id === companyA,
        ),
      ).toBe(true);
      expect(
        await guarded.tenant(companyA, (sql) =>
          subscriberFileRows(sql, companyA, {}, { limit: 1000, offset: 0 }),
        ),
      ).not.toContainEqual(expect.objectContaining({ pos_id: 'THEIRS-S' }));
    }
  });
});
