import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationGroup } from '../../server/repositories/location-groups.repository.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, systemScope } from '../support/factories.js';

/**
 * The menu, revenue, sales and ROI calls against figures worked out here in plain JS from the checks sent:
 * local days by Intl in the company's zone, guests by POS id, every sum by hand.
 */

const ZONE = 'America/Chicago';
const ITEMS: [string, string][] = [
  ['Burger', 'Mains'],
  ['Steak', 'Mains'],
  ['Fries', 'Sides'],
  ['Soda', 'Drinks'],
];

interface SentCheck {
  location_id: number;
  check_number: string;
  opened_at: string;
  closed_at: string;
  total: number;
  revenue_center?: string;
  guest?: { pos_id: string };
  lines: { menu_item: string; category: string; quantity: number; amount: number }[];
}

const localDay = (at: string) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(at));
const cents = (dollars: number) => Math.round(dollars * 100);
const inRange = (day: string, from: string, to: string) => day >= from && day <= to;

/** The first day of the day's week (Monday) or month. */
function periodStart(day: string, interval: 'day' | 'week' | 'month'): string {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** The figures of a company's checks, by hand. */
function model(checks: SentCheck[]) {
  const firstDay = new Map<string, string>();
  for (const check of checks) {
    if (!check.guest) continue;
    const day = localDay(check.closed_at);
    const known = firstDay.get(check.guest.pos_id);
    if (!known || day < known) firstDay.set(check.guest.pos_id, day);
  }
  const pick = (locations: number[] | null, from: string, to: string) =>
    checks.filter(
      (check) =>
        (locations === null || locations.includes(check.location_id)) &&
        inRange(localDay(check.closed_at), from, to),
    );
  return {
    sales(locations: number[] | null, from: string, to: string) {
      const chosen = pick(locations, from, to);
      const revenue = chosen.reduce((sum, check) => sum + cents(check.total), 0);
      const guests = new Set(chosen.flatMap((check) => (check.guest ? [check.guest.pos_id] : [])));
      const newGuests = [...guests].filter((id) => inRange(firstDay.get(id)!, from, to)).length;
      return {
        from_date: from,
        to_date: to,
        revenue: revenue / 100,
        checks: chosen.length,
        guests: guests.size,
        average_check: chosen.length === 0 ? 0 : Math.round(revenue / chosen.length) / 100,
        new_guests: newGuests,
        returning_guests: guests.size - newGuests,
      };
    },
    revenue(locations: number[] | null, from: string, to: string, interval: 'day' | 'week' | 'month') {
      const sums = new Map<string, number>();
      for (let day = from; day <= to; day = nextDay(day)) sums.set(periodStart(day, interval), 0);
      for (const check of pick(locations, from, to)) {
        const period = periodStart(localDay(check.closed_at), interval);
        sums.set(period, sums.get(period)! + cents(check.total));
      }
      return [...sums].map(([period, revenue]) => ({ period, revenue: revenue / 100 }));
    },
    items(locations: number[] | null, from: string, to: string) {
      const byItem = new Map<string, { units: number; revenue: number; checks: number; category: string }>();
      for (const check of pick(locations, from, to)) {
        const seen = new Set<string>();
        for (const line of check.lines) {
          const row = byItem.get(line.menu_item) ?? {
            units: 0,
            revenue: 0,
            checks: 0,
            category: line.category,
          };
          row.units += line.quantity;
          row.revenue += cents(line.amount);
          if (!seen.has(line.menu_item)) row.checks++;
          seen.add(line.menu_item);
          byItem.set(line.menu_item, row);
        }
      }
      return byItem;
    },
    centers(locations: number[] | null, from: string, to: string) {
      const byCenter = new Map<string, { revenue: number; checks: number }>();
      for (const check of pick(locations, from, to)) {
        if (!check.revenue_center) continue;
        const key = `${check.location_id}/${check.revenue_center}`;
        const row = byCenter.get(key) ?? { revenue: 0, checks: 0 };
        row.revenue += cents(check.total);
        row.checks++;
        byCenter.set(key, row);
      }
      return byCenter;
    },
    roi(locationId: number, from: string, to: string) {
      const sales = this.sales([locationId], from, to);
      return {
        location_id: locationId,
        revenue: sales.revenue,
        checks: sales.checks,
        guests: sales.guests,
        returning_guests: sales.returning_guests,
        average_check: sales.average_check,
      };
    },
  };
}

describe('menu, revenue, sales and ROI calls', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let home: number;
  let away: number;
  let awayGroup: number;
  let bobsPlace: number;
  let bobsGroup: number;
  const aliceChecks: SentCheck[] = [];
  const bobChecks: SentCheck[] = [];
  const random = seededRandom(7);

  const get = (caller: ApiCaller | null, url: string) =>
    t.app.inject({ method: 'GET', url, ...(caller ? { headers: caller.headers } : {}) });
  const ok = async (caller: ApiCaller, url: string) => {
    const response = await get(caller, url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  function makeChecks(prefix: string, locations: number[], count: number): SentCheck[] {
    return Array.from({ length: count }, (_, n) => {
      // Any minute from 2025-03-01 to 2025-03-21 UTC: many close after midnight UTC, still the day before in Chicago.
      const closed = new Date(Date.UTC(2025, 2, 1) + Math.floor(random() * 20 * 24 * 60) * 60_000);
      const lines = Array.from({ length: Math.floor(random() * 3) }, () => {
        const [menuItem, category] = ITEMS[Math.floor(random() * ITEMS.length)]!;
        const quantity = 1 + Math.floor(random() * 3);
        return { menu_item: menuItem, category, quantity, amount: quantity * 7.25 };
      });
      const center = random();
      return {
        location_id: locations[Math.floor(random() * locations.length)]!,
        check_number: `${prefix}-${n}`,
        opened_at: new Date(closed.getTime() - 30 * 60_000).toISOString(),
        closed_at: closed.toISOString(),
        total: (100 + Math.floor(random() * 9000)) / 100,
        ...(center < 0.3 ? {} : { revenue_center: center < 0.6 ? 'Bar' : 'Dining' }),
        ...(random() < 0.2 ? {} : { guest: { pos_id: `G-${Math.floor(random() * 20)}` } }),
        lines,
      };
    });
  }

  const send = async (caller: ApiCaller, checks: SentCheck[]) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pos/checks/',
      payload: { checks },
      headers: caller.headers,
    });
    expect(response.json().created).toBe(checks.length);
  };

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
    const db = t.database.db;
    await db.owner((sql) =>
      sql.query('UPDATE companies SET time_zone = $2 WHERE id = $1', [alice.companyId, ZONE]),
    );
    home = (await makeLocation(db, alice.companyId, 'Home')).id;
    away = (await makeLocation(db, alice.companyId, 'Away')).id;
    bobsPlace = (await makeLocation(db, bob.companyId, 'Bob’s')).id;
    const group = (companyId: number, name: string, ids: number[]) =>
      db.tenant(companyId, (sql) =>
        createLocationGroup(sql, systemScope(companyId), { name, description: '', location_ids: ids }),
      );
    awayGroup = (await group(alice.companyId, 'Away only', [away])).id;
    bobsGroup = (await group(bob.companyId, 'Bob’s group', [bobsPlace])).id;
    aliceChecks.push(...makeChecks('A', [home, away], 160));
    bobChecks.push(...makeChecks('B', [bobsPlace], 60));
    // Sent newest first in two batches: older checks arrive after newer ones.
    const newestFirst = [...aliceChecks].sort((a, b) => b.closed_at.localeCompare(a.closed_at));
    await send(alice, newestFirst.slice(0, 80));
    await send(bob, bobChecks);
    await send(alice, newestFirst.slice(80));
  });
  afterAll(() => t.close());

  const ranges: [string, string][] = [
    ['2025-02-25', '2025-03-25'],
    ['2025-03-05', '2025-03-12'],
    ['2025-03-10', '2025-03-10'],
  ];

  it('answers sales, and the period before with is_prev_sales, as the checks say', async () => {
    const expected = model(aliceChecks);
    for (const [from, to] of ranges) {
      for (const [filter, locations] of [
        ['', null],
        [`&location_id=${away}`, [away]],
        [`&location_id=${away}&location_id=${home}`, [away, home]],
        [`&location_group_id=${awayGroup}`, [away]],
      ] as const) {
        const sales = await ok(alice, `/api/pos/sales/?from_date=${from}&to_date=${to}${filter}`);
        expect(sales, `${from}..${to}${filter}`).toEqual(
          expected.sales(locations === null ? null : [...locations], from, to),
        );
      }
    }
    const before = await ok(
      alice,
      '/api/pos/sales/?from_date=2025-03-11&to_date=2025-03-20&is_prev_sales=true',
    );
    expect(before).toEqual(expected.sales(null, '2025-03-01', '2025-03-10'));
    expect(before.new_guests).toBeGreaterThan(0);
    const later = await ok(alice, '/api/pos/sales/?from_date=2025-03-11&to_date=2025-03-20');
    expect(later.returning_guests).toBeGreaterThan(0);
    expect(await ok(bob, '/api/pos/sales/?from_date=2025-02-01&to_date=2025-04-01')).toEqual(
      model(bobChecks).sales(null, '2025-02-01', '2025-04-01'),
    );
  });

  it('answers revenue rows by day, week and month, missing periods as 0', async () => {
    const expected = model(aliceChecks);
    for (const interval of ['day', 'week', 'month'] as const) {
      for (const [from, to] of ranges) {
        const answer = await ok(
          alice,
          `/api/pos/revenue/?from_date=${from}&to_date=${to}&interval=${interval}`,
        );
        expect(answer).toEqual({
          interval,
          from_date: from,
          to_date: to,
          results: expected.revenue(null, from, to, interval),
        });
      }
    }
    const days = await ok(
      alice,
      `/api/pos/revenue/?from_date=2025-02-25&to_date=2025-03-25&location_id=${home}`,
    );
    expect(days.results).toEqual(expected.revenue([home], '2025-02-25', '2025-03-25', 'day'));
    expect(days.results[0]).toEqual({ period: '2025-02-25', revenue: 0 });
    expect(days.results).toHaveLength(29);
  });

  it('answers the ROI per location from the rollups', async () => {
    const expected = model(aliceChecks);
    for (const [from, to] of ranges) {
      const roi = await ok(alice, `/api/customers/locations/roi/?from_date=${from}&to_date=${to}`);
      // Locations by name: Away, then Home.
      expect(roi.results).toEqual([
        { name: 'Away', ...expected.roi(away, from, to) },
        { name: 'Home', ...expected.roi(home, from, to) },
      ]);
    }
    const one = await ok(
      alice,
      `/api/customers/locations/roi/?from_date=2025-03-01&to_date=2025-03-31&location_id=${home}`,
    );
    expect(one.results.map((row: { location_id: number }) => row.location_id)).toEqual([home]);
  });

  it('answers menu items, item and category figures and revenue centers as the lines say', async () => {
    const expected = model(aliceChecks);
    for (const [from, to] of ranges) {
      for (const locations of [null, [home]]) {
        const filter = locations ? `&location_id=${home}` : '';
        const byItem = expected.items(locations, from, to);
        const page = await ok(
          alice,
          `/api/pos/menu-item/?from_date=${from}&to_date=${to}${filter}&page_size=50`,
        );
        expect(page.count).toBe(ITEMS.length);
        for (const row of page.results) {
          const want = byItem.get(row.name) ?? { units: 0, revenue: 0, checks: 0 };
          expect({ units: row.units, revenue: row.revenue, checks: row.checks }, row.name).toEqual({
            units: want.units,
            revenue: want.revenue / 100,
            checks: want.checks,
          });
        }
        const figures = await ok(alice, `/api/bigdata/menu-items/?from_date=${from}&to_date=${to}${filter}`);
        expect(
          figures.results.map(
            (row: { name: string; units: number; revenue: number; checks: number; category: string }) => [
              row.name,
              row.category,
              row.units,
              row.revenue,
              row.checks,
            ],
          ),
        ).toEqual(
          [...byItem]
            .sort((a, b) => b[1].revenue - a[1].revenue || a[0].localeCompare(b[0]))
            .map(([name, row]) => [name, row.category, row.units, row.revenue / 100, row.checks]),
        );
        const categories = new Map<string, { units: number; revenue: number }>();
        for (const row of byItem.values()) {
          const sum = categories.get(row.category) ?? { units: 0, revenue: 0 };
          sum.units += row.units;
          sum.revenue += row.revenue;
          categories.set(row.category, sum);
        }
        const categoryAnswer = await ok(
          alice,
          `/api/bigdata/menu-category/?from_date=${from}&to_date=${to}${filter}`,
        );
        expect(
          Object.fromEntries(
            categoryAnswer.results.map((row: { category: string; units: number; revenue: number }) => [
              row.category,
              { units: row.units, revenue: row.revenue },
            ]),
          ),
        ).toEqual(
          Object.fromEntries(
            [...categories].map(([name, row]) => [name, { units: row.units, revenue: row.revenue / 100 }]),
          ),
        );
        const centers = await ok(alice, `/api/pos/revenue-centers/?from_date=${from}&to_date=${to}${filter}`);
        const byCenter = expected.centers(locations, from, to);
        for (const row of centers.results) {
          const want = byCenter.get(`${row.location_id}/${row.name}`) ?? { revenue: 0, checks: 0 };
          expect({ revenue: row.revenue, checks: row.checks }).toEqual({
            revenue: want.revenue / 100,
            checks: want.checks,
          });
        }
        expect(centers.results.length).toBe(locations ? 2 : 4);
      }
    }
    const mains = await ok(alice, '/api/pos/menu-item/?q=st');
    expect(mains.results.map((row: { name: string }) => row.name)).toEqual(['Steak']);
    const firstPage = await ok(alice, '/api/pos/menu-item/?page_size=3');
    expect(firstPage.results.map((row: { name: string }) => row.name)).toEqual(['Burger', 'Fries', 'Soda']);
    expect(firstPage.next).toContain('page=2');
    const mainsId = firstPage.results[0].category_id;
    const byCategory = await ok(alice, `/api/pos/menu-item/?category=${mainsId}`);
    expect(byCategory.results.map((row: { name: string }) => row.name)).toEqual(['Burger', 'Steak']);
  });

  it('keeps each company to its own rows', async () => {
    const expected = model(bobChecks);
    const items = await ok(bob, '/api/bigdata/menu-items/');
    const byItem = expected.items(null, '0000-01-01', '9999-12-31');
    expect(items.results.reduce((sum: number, row: { units: number }) => sum + row.units, 0)).toBe(
      [...byItem.values()].reduce((sum, row) => sum + row.units, 0),
    );
    const centers = await ok(bob, '/api/pos/revenue-centers/');
    expect(centers.results.every((row: { location_id: number }) => row.location_id === bobsPlace)).toBe(true);
    const roi = await ok(bob, '/api/customers/locations/roi/?from_date=2025-01-01&to_date=2025-12-31');
    expect(roi.results.map((row: { location_id: number }) => row.location_id)).toEqual([bobsPlace]);
  });

  it('refuses without credentials, with bad dates, and with another company’s locations', async () => {
    const urls = [
      '/api/pos/sales/?from_date=2025-03-01&to_date=2025-03-02',
      '/api/pos/revenue/?from_date=2025-03-01&to_date=2025-03-02',
      '/api/pos/menu-item/',
      '/api/pos/revenue-centers/',
      '/api/bigdata/menu-items/',
      '/api/bigdata/menu-category/',
      '/api/customers/locations/roi/?from_date=2025-03-01&to_date=2025-03-02',
    ];
    for (const url of urls) {
      expect((await get(null, url)).statusCode, url).toBe(401);
      const join = url.includes('?') ? '&' : '?';
      const foreign = await get(alice, `${url}${join}location_id=${bobsPlace}`);
      expect(foreign.statusCode, url).toBe(404);
      expect((await get(alice, `${url}${join}location_group_id=${bobsGroup}`)).statusCode, url).toBe(404);
      const base = url.split('?')[0];
      const badDate = await get(alice, `${base}?from_date=2025-13-01&to_date=2025-03-02`);
      expect(badDate.statusCode, url).toBe(400);
      expect(badDate.json().error.fields, url).toHaveProperty('from_date');
      const backwards = await get(alice, `${base}?from_date=2025-03-05&to_date=2025-03-02`);
      expect(backwards.statusCode, url).toBe(400);
      expect(backwards.json().error.fields, url).toHaveProperty('to_date');
    }
    const interval = await get(
      alice,
      '/api/pos/revenue/?from_date=2025-03-01&to_date=2025-03-02&interval=hour',
    );
    expect(interval.json().error.fields).toHaveProperty('interval');
    const missing = await get(alice, '/api/pos/sales/?from_date=2025-03-01');
    expect(missing.json().error.fields).toHaveProperty('to_date');
  });
});
