import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { fingerprint } from '../../server/privacy.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  countGuests,
  createGuest,
  existingGuestPosIds,
  findDuplicateGuests,
  findGuestDuplicatesOf,
  findGuestIdByPosId,
  getGuest,
  guestFileRows,
  guestsAfter,
  listGuests,
  type GuestRow,
} from '../../server/repositories/guests.repository.js';
import { eraseGuest } from '../../server/services/customer-erasure.js';
import { HASHID_PATTERN } from '../../server/repositories/hashid.js';
import { createLocationGroup } from '../../server/repositories/location-groups.repository.js';
import { insertChecks } from '../../server/repositories/pos.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeCompany, makeGuest, makeLocation, makeSubscriber, systemScope } from '../support/factories.js';
import { januaryCheck } from '../support/customers.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('guests repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('creates guests with a random hashid and fingerprints them in the audit log', async () => {
    const guest = await db.tenant(companyA, (sql) =>
      createGuest(sql, systemScope(companyA), {
        pos_id: 'TOAST-1',
        customer_name: 'Dana Fox',
        last_four_digits: '4242',
      }),
    );
    expect(guest.hashid).toMatch(HASHID_PATTERN);
    expect(guest).toMatchObject({
      visit_count: 0,
      total_spend_cents: 0,
      first_visit_at: null,
      first_location_id: null,
    });
    const other = await makeGuest(db, companyA);
    expect(other.hashid).not.toBe(guest.hashid);

    const [entry] = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'guest', entityId: guest.id }),
    );
    expect(entry!.action).toBe('create');
    const after = entry!.after as Record<string, unknown>;
    expect(after.customer_name).toBe(fingerprint('Dana Fox'));
    expect(after.last_four_digits).toBe(fingerprint('4242'));
    expect(after.pos_id).toBe('TOAST-1');
    expect(JSON.stringify(entry)).not.toContain('Dana');
  });

  it('refuses a first location of another company', async () => {
    const foreign = await makeLocation(db, companyB, 'Foreign');
    const error = await db
      .tenant(companyA, (sql) =>
        createGuest(sql, systemScope(companyA), {
          pos_id: 'X',
          first_location_id: foreign.id,
        }),
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownReferenceError);
    expect(error).toMatchObject({ field: 'first_location_id', ids: [foreign.id] });
  });

  it('pages, searches (wildcards literal) and filters by location and group', async () => {
    const company = (await makeCompany(db, 'Paging')).id;
    const scope = systemScope(company);
    const north = await makeLocation(db, company, 'North');
    const south = await makeLocation(db, company, 'South');
    const east = await makeLocation(db, company, 'East');
    const group = await db.tenant(scope.companyId, (sql) =>
      createLocationGroup(sql, scope, {
        name: 'Coast',
        description: '',
        location_ids: [south.id],
      }),
    );

    // POS ids given, not random: a random one could hold the digits searched for below.
    const firstAtNorth = await makeGuest(db, company, {
      customer_name: 'Ann 50% Off',
      pos_id: 'ANN',
      first_location_id: north.id,
    });
    const visitedSouth = await makeGuest(db, company, { customer_name: 'Bob Stone', pos_id: 'P_77' });
    const firstAtSouth = await makeGuest(db, company, {
      customer_name: 'Cy Ward',
      pos_id: 'CY',
      first_location_id: south.id,
    });
    const nowhere = await makeGuest(db, company, {
      customer_name: 'Di Moss',
      pos_id: 'DI',
      last_four_digits: '1234',
    });
    const visitedEast = await makeGuest(db, company, { customer_name: 'Ed Pine', pos_id: 'ED' });
    // Ann is at two of the places asked for below (first location North, a check at East): counted once.
    await db.tenant(scope.companyId, (sql) =>
      insertChecks(sql, scope, [
        januaryCheck(south.id, visitedSouth.id, 3),
        januaryCheck(east.id, visitedEast.id, 4),
        januaryCheck(east.id, firstAtNorth.id, 5),
      ]),
    );

    const all = await db.tenant(company, (sql) => listGuests(sql, company, { limit: 2, offset: 0 }));
    expect(all.count).toBe(5);
    expect(all.rows.map((g) => g.id)).toEqual([visitedEast.id, nowhere.id]);
    const last = await db.tenant(company, (sql) => listGuests(sql, company, { limit: 2, offset: 4 }));
    expect(last.rows.map((g) => g.id)).toEqual([firstAtNorth.id]);

    const search = (q: string) =>
      db.tenant(company, (sql) => listGuests(sql, company, { q, limit: 10, offset: 0 }));
    expect((await search('50%')).rows.map((g) => g.id)).toEqual([firstAtNorth.id]);
    expect((await search('%')).rows.map((g) => g.id)).toEqual([firstAtNorth.id]);
    expect((await search('p_7')).rows.map((g) => g.id)).toEqual([visitedSouth.id]);
    expect((await search('P_77')).rows.map((g) => g.id)).toEqual([visitedSouth.id]);
    expect((await search('p_')).count).toBe(1);
    expect((await search('234')).rows.map((g) => g.id)).toEqual([nowhere.id]);
    expect((await search('stone')).rows.map((g) => g.id)).toEqual([visitedSouth.id]);

    const atSouth = await db.tenant(company, (sql) =>
      listGuests(sql, company, { locationIds: [south.id], limit: 10, offset: 0 }),
    );
    expect(atSouth.rows.map((g) => g.id)).toEqual([firstAtSouth.id, visitedSouth.id]);
    expect(atSouth.count).toBe(2);
    const atNorthOrEast = await db.tenant(company, (sql) =>
      listGuests(sql, company, {
        locationIds: [north.id, east.id],
        limit: 10,
        offset: 0,
      }),
    );
    expect(atNorthOrEast.rows.map((g) => g.id)).toEqual([visitedEast.id, firstAtNorth.id]);
    expect(atNorthOrEast.count).toBe(2);
    const inGroup = await db.tenant(company, (sql) =>
      listGuests(sql, company, { groupIds: [group.id], limit: 10, offset: 0 }),
    );
    expect(inGroup.rows.map((g) => g.id)).toEqual([firstAtSouth.id, visitedSouth.id]);
    expect(inGroup.count).toBe(2);
    const both = await db.tenant(company, (sql) =>
      listGuests(sql, company, { groupIds: [group.id], q: 'cy', limit: 10, offset: 0 }),
    );
    expect(both.rows.map((g) => g.id)).toEqual([firstAtSouth.id]);
    expect(both.count).toBe(1);
    expect(
      (
        await db.tenant(company, (sql) =>
          listGuests(sql, company, { locationIds: [east.id], groupIds: [group.id], limit: 10, offset: 0 }),
        )
      ).count,
    ).toBe(0);
  });

  it('finds a guest only when id, hashid and POS id all match', async () => {
    const guest = await makeGuest(db, companyA, { pos_id: 'SQ-9' });
    const key = { id: guest.id, hashid: guest.hashid, pos_id: 'SQ-9' };
    expect(await db.tenant(companyA, (sql) => getGuest(sql, companyA, key))).toEqual(guest);
    const wrongHashid = guest.hashid.slice(0, -1) + (guest.hashid.endsWith('a') ? 'b' : 'a');
    expect(
      await db.tenant(companyA, (sql) => getGuest(sql, companyA, { ...key, hashid: wrongHashid })),
    ).toBeNull();
    expect(
      await db.tenant(companyA, (sql) => getGuest(sql, companyA, { ...key, pos_id: 'sq-9' })),
    ).toBeNull();
    expect(
      await db.tenant(companyA, (sql) => getGuest(sql, companyA, { ...key, id: guest.id + 1000 })),
    ).toBeNull();
  });

  it('groups likely duplicates by name in any case and card digits', async () => {
    const company = (await makeCompany(db, 'Dupes')).id;
    const first = await makeGuest(db, company, { customer_name: 'Eve Stone', last_four_digits: '1111' });
    const second = await makeGuest(db, company, { customer_name: 'EVE STONE', last_four_digits: '1111' });
    await makeGuest(db, company, { customer_name: 'Eve Stone', last_four_digits: '2222' });
    const third = await makeGuest(db, company, { customer_name: 'eve stone', last_four_digits: '1111' });
    const x1 = await makeGuest(db, company, { customer_name: 'Max Ray', last_four_digits: '9999' });
    const x2 = await makeGuest(db, company, { customer_name: 'Max Ray', last_four_digits: '9999' });
    // Blank names or digits are never duplicates of each other.
    await makeGuest(db, company, { customer_name: '', last_four_digits: '1111' });
    await makeGuest(db, company, { customer_name: '', last_four_digits: '1111' });
    await makeGuest(db, company, { customer_name: 'No Card' });
    await makeGuest(db, company, { customer_name: 'No Card' });

    const groups = await db.tenant(company, (sql) =>
      findDuplicateGuests(sql, company, { limit: 10, offset: 0 }),
    );
    expect(groups.count).toBe(2);
    expect(groups.rows).toEqual([
      {
        name_key: 'eve stone',
        last_four_digits: '1111',
        guest_ids: [first.id, second.id, third.id],
        guest_count: 3,
      },
      { name_key: 'max ray', last_four_digits: '9999', guest_ids: [x1.id, x2.id], guest_count: 2 },
    ]);
    const secondPage = await db.tenant(company, (sql) =>
      findDuplicateGuests(sql, company, { limit: 1, offset: 1 }),
    );
    expect(secondPage.count).toBe(2);
    expect(secondPage.rows.map((group) => group.name_key)).toEqual(['max ray']);

    expect(
      (await db.tenant(company, (sql) => findGuestDuplicatesOf(sql, company, second.id)))?.map((g) => g.id),
    ).toEqual([first.id, third.id]);
    expect(await db.tenant(company, (sql) => findGuestDuplicatesOf(sql, company, 0))).toBeNull();
  });

  it("never returns or changes another company's guests, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirLocation = await makeLocation(guarded, companyB, 'Their place');
      const theirs = await makeGuest(guarded, companyB, {
        customer_name: 'Their Guest',
        last_four_digits: '5555',
        first_location_id: theirLocation.id,
      });
      await makeGuest(guarded, companyA, { customer_name: 'Their Guest', last_four_digits: '5555' });
      const theirGroup = await guarded.tenant(companyB, (sql) =>
        createLocationGroup(sql, systemScope(companyB), {
          name: 'Theirs',
          description: '',
          location_ids: [theirLocation.id],
        }),
      );
      const mine = await guarded.tenant(companyA, (sql) =>
        listGuests(sql, companyA, { limit: 500, offset: 0 }),
      );
      expect(mine.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listGuests(sql, companyA, { locationIds: [theirLocation.id], limit: 10, offset: 0 }),
          )
        ).count,
      ).toBe(0);
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listGuests(sql, companyA, { groupIds: [theirGroup.id], limit: 10, offset: 0 }),
          )
        ).count,
      ).toBe(0);
      const key = { id: theirs.id, hashid: theirs.hashid, pos_id: theirs.pos_id };
      expect(await guarded.tenant(companyA, (sql) => getGuest(sql, companyA, key))).toBeNull();
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            findDuplicateGuests(sql, companyA, { limit: 100, offset: 0 }),
          )
        ).rows.flatMap((g) => g.guest_ids),
      ).not.toContain(theirs.id);
      expect(
        await guarded.tenant(companyA, (sql) => findGuestDuplicatesOf(sql, companyA, theirs.id)),
      ).toBeNull();
      expect(await guarded.tenant(companyA, (sql) => eraseGuest(sql, systemScope(companyA), theirs.id))).toBe(
        false,
      );
      expect(await guarded.tenant(companyB, (sql) => getGuest(sql, companyB, key))).toMatchObject({
        customer_name: 'Their Guest',
      });
    }
  });
});

describe('guests repository: lists for profiles, exports and big data', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('flags linked subscribers, filters by them and pages oldest first', async () => {
    const company = (await makeCompany(db, 'Flags')).id;
    const north = await makeLocation(db, company, 'North');
    const linked = await makeGuest(db, company, { first_location_id: north.id });
    const plain = await makeGuest(db, company);
    const alsoLinked = await makeGuest(db, company);
    await makeSubscriber(db, company, { guest_id: linked.id });
    await makeSubscriber(db, company, { guest_id: alsoLinked.id });

    const newest = await db.tenant(company, (sql) => listGuests(sql, company, { limit: 10, offset: 0 }));
    expect(newest.rows.map((g) => [g.id, g.is_subscriber])).toEqual([
      [alsoLinked.id, true],
      [plain.id, false],
      [linked.id, true],
    ]);
    const oldest = await db.tenant(company, (sql) =>
      listGuests(sql, company, { limit: 2, offset: 0, oldestFirst: true }),
    );
    expect(oldest.rows.map((g) => g.id)).toEqual([linked.id, plain.id]);
    const subscribed = await db.tenant(company, (sql) =>
      listGuests(sql, company, { isSubscriber: true, limit: 10, offset: 0 }),
    );
    expect(subscribed.count).toBe(2);
    expect(
      (
        await db.tenant(company, (sql) =>
          listGuests(sql, company, { isSubscriber: false, limit: 10, offset: 0 }),
        )
      ).rows.map((g) => g.id),
    ).toEqual([plain.id]);
    expect(
      await db.tenant(company, (sql) =>
        countGuests(sql, company, { isSubscriber: true, locationIds: [north.id] }),
      ),
    ).toBe(1);
    expect(await db.tenant(company, (sql) => countGuests(sql, company, {}))).toBe(3);
  });

  it('reads batches after an id for exports, file rows by offset, existing POS ids and a guest by POS id', async () => {
    const company = (await makeCompany(db, 'Batches')).id;
    const guests = [];
    for (const name of ['One', 'Two', 'Three', 'Four']) {
      guests.push(
        await makeGuest(db, company, { customer_name: name, pos_id: `B-${name}`, last_four_digits: '1111' }),
      );
    }
    const [one, two, three, four] = guests as [GuestRow, GuestRow, GuestRow, GuestRow];
    expect((await db.tenant(company, (sql) => guestsAfter(sql, company, {}, 0, 2))).map((g) => g.id)).toEqual(
      [one.id, two.id],
    );
    expect(
      (await db.tenant(company, (sql) => guestsAfter(sql, company, {}, two.id, 5))).map((g) => g.id),
    ).toEqual([three.id, four.id]);
    expect(
      (await db.tenant(company, (sql) => guestsAfter(sql, company, { q: 'thr' }, 0, 5))).map((g) => g.id),
    ).toEqual([three.id]);
    expect(
      await db.tenant(company, (sql) => guestFileRows(sql, company, {}, { limit: 2, offset: 1 })),
    ).toEqual([
      { customer_name: 'Two', last_four_digits: '1111', pos_id: 'B-Two' },
      { customer_name: 'Three', last_four_digits: '1111', pos_id: 'B-Three' },
    ]);
    expect(
      await db.tenant(company, (sql) =>
        existingGuestPosIds(sql, company, ['B-Four', 'B-One', 'B-None', 'B-One']),
      ),
    ).toEqual(['B-Four', 'B-One']);
    expect(await db.tenant(company, (sql) => findGuestIdByPosId(sql, company, 'B-Two'))).toBe(two.id);
    expect(await db.tenant(company, (sql) => findGuestIdByPosId(sql, company, 'B-None'))).toBeNull();
    await makeGuest(db, company, { pos_id: 'B-Two' });
    // Two guests share the POS id, so neither is picked.
    expect(await db.tenant(company, (sql) => findGuestIdByPosId(sql, company, 'B-Two'))).toBeNull();
  });

  it("never reads another company's guests in these lists, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirs = await makeGuest(guarded, companyB, { pos_id: 'THEIRS-1' });
      await makeSubscriber(guarded, companyB, { guest_id: theirs.id });
      expect(
        (await guarded.tenant(companyA, (sql) => guestsAfter(sql, companyA, {}, 0, 1000))).map((g) => g.id),
      ).not.toContain(theirs.id);
      expect(
        await guarded.tenant(companyA, (sql) => guestFileRows(sql, companyA, {}, { limit: 1000, offset: 0 })),
      ).not.toContainEqual(expect.objectContaining({ pos_id: 'THEIRS-1' }));
      expect(
        await guarded.tenant(companyA, (sql) => existingGuestPosIds(sql, companyA, ['THEIRS-1'])),
      ).toEqual([]);
      expect(
        await guarded.tenant(companyA, (sql) => findGuestIdByPosId(sql, companyA, 'THEIRS-1')),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) => countGuests(sql, companyA, { isSubscriber: true })),
      ).toBe(0);
    }
  });
});
