import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { customerActivity } from '../../server/repositories/customer-activity.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeMenu, recordVisits } from '../support/customers.js';
import { makeGuest, makeLocation } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('customer activity repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('sums visits, ranks the top five items by quantity, groups locations and keeps the ten latest visits', async () => {
    const north = await makeLocation(db, companyA, 'North');
    const south = await makeLocation(db, companyA, 'South');
    const menu = await makeMenu(db, companyA, {
      Burger: 1200,
      Fries: 400,
      Ale: 600,
      Soup: 700,
      Pie: 500,
      Tea: 300,
    });
    const guest = await makeGuest(db, companyA);
    const other = await makeGuest(db, companyA);
    const line = (name: string, quantity: number) => ({
      menu_item_id: menu[name]!.id,
      quantity,
      unit_price_cents: menu[name]!.price_cents,
    });
    // Twelve visits: eleven at North (days 1–11), one at South (day 12).
    const visits = Array.from({ length: 11 }, (_, index) => ({
      locationId: north.id,
      day: index + 1,
      lines: [line('Fries', 1)],
    }));
    visits[0]!.lines.push(line('Burger', 3), line('Ale', 2), line('Soup', 2), line('Pie', 1), line('Tea', 1));
    visits.push({ locationId: south.id, day: 12, lines: [line('Ale', 1), line('Pie', 1)] });
    await recordVisits(db, companyA, guest.id, visits);
    await recordVisits(db, companyA, other.id, [{ locationId: north.id, day: 5, lines: [line('Tea', 9)] }]);

    const activity = await db.tenant(companyA, (sql) => customerActivity(sql, companyA, guest.id));
    const spend = 11 * 400 + 3 * 1200 + 2 * 600 + 2 * 700 + 500 + 300 + 600 + 500;
    expect(activity.totals).toEqual({
      visits: 12,
      total_spend_cents: spend,
      first_visit_at: new Date(Date.UTC(2025, 0, 1, 20)),
      last_visit_at: new Date(Date.UTC(2025, 0, 12, 20)),
    });
    // Fries 11, Ale 3, Burger 3 (Burger spent more, so before Ale), Soup 2, Pie 2 (Soup spent more); Tea is sixth.
    expect(activity.favourite_items.map((item) => [item.name, item.quantity, item.spend_cents])).toEqual([
      ['Fries', 11, 4400],
      ['Burger', 3, 3600],
      ['Ale', 3, 1800],
      ['Soup', 2, 1400],
      ['Pie', 2, 1000],
    ]);
    expect(activity.locations_visited).toEqual([
      {
        location_id: north.id,
        name: 'North',
        visits: 11,
        spend_cents: spend - 1100,
        last_visit_at: new Date(Date.UTC(2025, 0, 11, 20)),
      },
      {
        location_id: south.id,
        name: 'South',
        visits: 1,
        spend_cents: 1100,
        last_visit_at: new Date(Date.UTC(2025, 0, 12, 20)),
      },
    ]);
    expect(activity.recent_visits).toHaveLength(10);
    expect(activity.recent_visits[0]).toMatchObject({ location_name: 'South', total_cents: 1100, items: 2 });
    expect(activity.recent_visits.map((visit) => visit.closed_at.getUTCDate())).toEqual([
      12, 11, 10, 9, 8, 7, 6, 5, 4, 3,
    ]);
  });

  it('is empty for a guest without checks and for another company’s guest, even without row-level security', async () => {
    const quiet = await makeGuest(db, companyA);
    const empty = await db.tenant(companyA, (sql) => customerActivity(sql, companyA, quiet.id));
    expect(empty).toEqual({
      totals: { visits: 0, total_spend_cents: 0, first_visit_at: null, last_visit_at: null },
      favourite_items: [],
      locations_visited: [],
      recent_visits: [],
    });

    const theirs = await makeGuest(db, companyB);
    const theirLocation = await makeLocation(db, companyB, 'Theirs');
    const theirMenu = await makeMenu(db, companyB, { Steak: 3000 });
    await recordVisits(db, companyB, theirs.id, [
      {
        locationId: theirLocation.id,
        day: 2,
        lines: [{ menu_item_id: theirMenu.Steak!.id, quantity: 1, unit_price_cents: 3000 }],
      },
    ]);
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      expect(
        (await guarded.tenant(companyA, (sql) => customerActivity(sql, companyA, theirs.id))).totals.visits,
      ).toBe(0);
    }
    expect(
      (await db.tenant(companyB, (sql) => customerActivity(sql, companyB, theirs.id))).totals.visits,
    ).toBe(1);
  });
});
