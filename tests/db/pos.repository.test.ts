import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { findGuestsByIds } from '../../server/repositories/guests.repository.js';
import {
  createMenuCategory,
  createMenuItem,
  createRevenueCenter,
  guestVisits,
  insertChecks,
  listMenuCategories,
  listMenuItems,
  listRevenueCenters,
  type NewCheck,
} from '../../server/repositories/pos.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeCompany, makeGuest, makeLocation, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

function at(day: number, hour: number): Date {
  return new Date(Date.UTC(2024, 2, day, hour));
}

function check(locationId: number, guestId: number | null, day: number, totalCents: number): NewCheck {
  return {
    location_id: locationId,
    guest_id: guestId,
    check_number: `N-${day}-${totalCents}`,
    opened_at: at(day, 18),
    closed_at: at(day, 19),
    subtotal_cents: totalCents,
    total_cents: totalCents,
    lines: [],
  };
}

describe('pos repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  async function guestOf(companyId: number, id: number) {
    return db.tenant(companyId, async (sql) => (await findGuestsByIds(sql, companyId, [id]))[0]!);
  }

  it('lists categories, items per location and category, and revenue centers per location', async () => {
    const company = (await makeCompany(db, 'Menu')).id;
    const scope = systemScope(company);
    const north = await makeLocation(db, company, 'North');
    const south = await makeLocation(db, company, 'South');
    const mains = await db.tenant(scope.companyId, (sql) => createMenuCategory(sql, scope, 'Mains'));
    const drinks = await db.tenant(scope.companyId, (sql) => createMenuCategory(sql, scope, 'drinks'));
    await db.tenant(scope.companyId, (sql) =>
      createMenuItem(sql, scope, { category_id: mains.id, name: 'Burger', price_cents: 1200 }),
    );
    await db.tenant(scope.companyId, (sql) =>
      createMenuItem(sql, scope, {
        category_id: mains.id,
        location_id: north.id,
        name: 'Chowder',
        price_cents: 900,
      }),
    );
    await db.tenant(scope.companyId, (sql) =>
      createMenuItem(sql, scope, {
        category_id: drinks.id,
        location_id: south.id,
        name: 'Ale',
        price_cents: 600,
      }),
    );
    await db.tenant(scope.companyId, (sql) =>
      createMenuItem(sql, scope, {
        category_id: drinks.id,
        name: 'Cider',
        price_cents: 700,
        is_active: false,
      }),
    );
    await db.tenant(scope.companyId, (sql) =>
      createRevenueCenter(sql, scope, { location_id: north.id, name: 'Patio' }),
    );
    await db.tenant(scope.companyId, (sql) =>
      createRevenueCenter(sql, scope, { location_id: north.id, name: 'Bar' }),
    );
    await db.tenant(scope.companyId, (sql) =>
      createRevenueCenter(sql, scope, { location_id: south.id, name: 'Dining' }),
    );

    expect((await db.tenant(company, (sql) => listMenuCategories(sql, company))).map((c) => c.name)).toEqual([
      'drinks',
      'Mains',
    ]);
    expect((await db.tenant(company, (sql) => listMenuItems(sql, company))).map((i) => i.name)).toEqual([
      'Ale',
      'Burger',
      'Chowder',
    ]);
    expect(
      (await db.tenant(company, (sql) => listMenuItems(sql, company, { includeInactive: true }))).map(
        (i) => i.name,
      ),
    ).toEqual(['Ale', 'Cider', 'Burger', 'Chowder']);
    const atNorth = await db.tenant(company, (sql) => listMenuItems(sql, company, { locationId: north.id }));
    expect(atNorth.map((i) => [i.name, i.category_name, i.location_id])).toEqual([
      ['Burger', 'Mains', null],
      ['Chowder', 'Mains', north.id],
    ]);
    expect(
      (await db.tenant(company, (sql) => listMenuItems(sql, company, { categoryId: drinks.id }))).map(
        (i) => i.name,
      ),
    ).toEqual(['Ale']);
    expect(
      (
        await db.tenant(company, (sql) =>
          listMenuItems(sql, company, { categoryId: mains.id, locationId: south.id }),
        )
      ).map((i) => i.name),
    ).toEqual(['Burger']);

    expect(
      (await db.tenant(company, (sql) => listRevenueCenters(sql, company, { locationId: north.id }))).map(
        (r) => r.name,
      ),
    ).toEqual(['Bar', 'Patio']);
    expect((await db.tenant(company, (sql) => listRevenueCenters(sql, company))).map((r) => r.name)).toEqual([
      'Bar',
      'Patio',
      'Dining',
    ]);

    const foreign = await makeLocation(db, companyB, 'Foreign');
    await expect(
      db.tenant(scope.companyId, (sql) =>
        createMenuItem(sql, scope, {
          category_id: mains.id,
          location_id: foreign.id,
          name: 'X',
          price_cents: 1,
        }),
      ),
    ).rejects.toBeInstanceOf(UnknownReferenceError);
    await expect(
      db.tenant(scope.companyId, (sql) =>
        createRevenueCenter(sql, scope, { location_id: foreign.id, name: 'X' }),
      ),
    ).rejects.toBeInstanceOf(UnknownReferenceError);
  });

  it('inserts checks with lines and keeps the guest running totals', async () => {
    const scope = systemScope(companyA);
    const home = await makeLocation(db, companyA, 'Home');
    const away = await makeLocation(db, companyA, 'Away');
    const center = await db.tenant(scope.companyId, (sql) =>
      createRevenueCenter(sql, scope, { location_id: home.id, name: 'Bar' }),
    );
    const category = await db.tenant(scope.companyId, (sql) => createMenuCategory(sql, scope, 'Food'));
    const soup = await db.tenant(scope.companyId, (sql) =>
      createMenuItem(sql, scope, {
        category_id: category.id,
        name: 'Soup',
        price_cents: 500,
      }),
    );
    const pie = await db.tenant(scope.companyId, (sql) =>
      createMenuItem(sql, scope, { category_id: category.id, name: 'Pie', price_cents: 400 }),
    );
    const guest = await makeGuest(db, companyA);
    const other = await makeGuest(db, companyA, { first_location_id: home.id });

    const inserted = await db.tenant(scope.companyId, (sql) =>
      insertChecks(sql, scope, [
        {
          ...check(away.id, guest.id, 10, 1400),
          lines: [
            { menu_item_id: soup.id, quantity: 2, unit_price_cents: 500 },
            { menu_item_id: pie.id, quantity: 1, unit_price_cents: 400 },
          ],
        },
        { ...check(home.id, guest.id, 5, 600), revenue_center_id: center.id, tip_cents: 100 },
        check(away.id, other.id, 7, 250),
        check(home.id, null, 8, 999),
      ]),
    );
    expect(inserted).toHaveLength(4);
    expect(inserted[0]!.lines).toEqual([
      expect.objectContaining({ menu_item_id: soup.id, name: 'Soup', quantity: 2, amount_cents: 1000 }),
      expect.objectContaining({ menu_item_id: pie.id, name: 'Pie', quantity: 1, amount_cents: 400 }),
    ]);
    expect(inserted[1]).toMatchObject({
      revenue_center_id: center.id,
      tip_cents: 100,
      guest_count: 1,
      lines: [],
    });

    expect(await guestOf(companyA, guest.id)).toMatchObject({
      visit_count: 2,
      total_spend_cents: 2000,
      first_visit_at: at(5, 19),
      last_visit_at: at(10, 19),
      // Filled from the earliest check because the guest had none.
      first_location_id: home.id,
    });
    // A guest with a first location keeps it.
    expect(await guestOf(companyA, other.id)).toMatchObject({ visit_count: 1, first_location_id: home.id });

    // A later batch adds to the totals.
    await db.tenant(scope.companyId, (sql) =>
      insertChecks(sql, scope, [check(home.id, guest.id, 2, 100), check(home.id, guest.id, 20, 300)]),
    );
    expect(await guestOf(companyA, guest.id)).toMatchObject({
      visit_count: 4,
      total_spend_cents: 2400,
      first_visit_at: at(2, 19),
      last_visit_at: at(20, 19),
    });

    const visits = await db.tenant(companyA, (sql) => guestVisits(sql, companyA, guest.id));
    expect(visits.map((v) => [v.closed_at, v.location_name, v.total_cents])).toEqual([
      [at(20, 19), 'Home', 300],
      [at(10, 19), 'Away', 1400],
      [at(5, 19), 'Home', 600],
      [at(2, 19), 'Home', 100],
    ]);
    expect(visits[1]!.lines.map((line) => line.name)).toEqual(['Soup', 'Pie']);

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'pos_check', entityId: inserted[0]!.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['create']);
  });

  it('rejects a batch naming rows of another company or a center of another location, keeping nothing', async () => {
    const scope = systemScope(companyA);
    const home = await makeLocation(db, companyA, 'Batch home');
    const elsewhere = await makeLocation(db, companyA, 'Batch elsewhere');
    const center = await db.tenant(scope.companyId, (sql) =>
      createRevenueCenter(sql, scope, { location_id: elsewhere.id, name: 'Bar' }),
    );
    const guest = await makeGuest(db, companyA);
    const foreignGuest = await makeGuest(db, companyB);
    const foreignLocation = await makeLocation(db, companyB, 'Foreign');
    const foreignCategory = await db.tenant(companyB, (sql) =>
      createMenuCategory(sql, systemScope(companyB), 'Theirs'),
    );
    const foreignItem = await db.tenant(companyB, (sql) =>
      createMenuItem(sql, systemScope(companyB), {
        category_id: foreignCategory.id,
        name: 'Their dish',
        price_cents: 100,
      }),
    );

    const attempts: Array<[string, NewCheck]> = [
      ['location_id', check(foreignLocation.id, guest.id, 1, 100)],
      ['guest_id', check(home.id, foreignGuest.id, 1, 100)],
      [
        'menu_item_id',
        {
          ...check(home.id, guest.id, 1, 100),
          lines: [{ menu_item_id: foreignItem.id, quantity: 1, unit_price_cents: 1 }],
        },
      ],
      ['revenue_center_id', { ...check(home.id, guest.id, 1, 100), revenue_center_id: center.id }],
    ];
    for (const [field, bad] of attempts) {
      const error = await db
        .tenant(scope.companyId, (sql) => insertChecks(sql, scope, [check(home.id, guest.id, 1, 100), bad]))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnknownReferenceError);
      expect((error as UnknownReferenceError).field).toBe(field);
    }
    // A check the database refuses (closed before opened) rolls back the checks before it.
    const backwards = { ...check(home.id, guest.id, 3, 100), closed_at: at(1, 1) };
    await expect(
      db.tenant(scope.companyId, (sql) =>
        insertChecks(sql, scope, [check(home.id, guest.id, 2, 100), backwards]),
      ),
    ).rejects.toThrow();

    expect(await db.tenant(companyA, (sql) => guestVisits(sql, companyA, guest.id))).toEqual([]);
    expect(await guestOf(companyA, guest.id)).toMatchObject({ visit_count: 0, total_spend_cents: 0 });
    expect(await db.tenant(scope.companyId, (sql) => insertChecks(sql, scope, []))).toEqual([]);
  });

  it("never returns or changes another company's menu, checks or guests, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirScope = systemScope(companyB);
      const theirLocation = await makeLocation(guarded, companyB, 'Theirs');
      const theirCategory = await guarded.tenant(theirScope.companyId, (sql) =>
        createMenuCategory(sql, theirScope, `Their menu ${guarded === db}`),
      );
      await guarded.tenant(theirScope.companyId, (sql) =>
        createMenuItem(sql, theirScope, {
          category_id: theirCategory.id,
          name: 'Theirs',
          price_cents: 1,
        }),
      );
      await guarded.tenant(theirScope.companyId, (sql) =>
        createRevenueCenter(sql, theirScope, { location_id: theirLocation.id, name: 'Their bar' }),
      );
      const theirGuest = await makeGuest(guarded, companyB);
      await guarded.tenant(theirScope.companyId, (sql) =>
        insertChecks(sql, theirScope, [check(theirLocation.id, theirGuest.id, 1, 500)]),
      );

      expect(
        (await guarded.tenant(companyA, (sql) => listMenuCategories(sql, companyA))).every(
          (c) => c.company_id === companyA,
        ),
      ).toBe(true);
      expect(
        (
          await guarded.tenant(companyA, (sql) => listMenuItems(sql, companyA, { includeInactive: true }))
        ).every((i) => i.company_id === companyA),
      ).toBe(true);
      expect(
        await guarded.tenant(companyA, (sql) =>
          listMenuItems(sql, companyA, { categoryId: theirCategory.id }),
        ),
      ).toEqual([]);
      expect(
        await guarded.tenant(companyA, (sql) =>
          listRevenueCenters(sql, companyA, { locationId: theirLocation.id }),
        ),
      ).toEqual([]);
      expect(await guarded.tenant(companyA, (sql) => guestVisits(sql, companyA, theirGuest.id))).toEqual([]);
      await expect(
        guarded.tenant(companyA, (sql) =>
          insertChecks(sql, systemScope(companyA), [check(theirLocation.id, null, 2, 100)]),
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      expect(
        (await guarded.tenant(companyB, (sql) => guestVisits(sql, companyB, theirGuest.id))).map(
          (v) => v.total_cents,
        ),
      ).toEqual([500]);
    }
  });
});
