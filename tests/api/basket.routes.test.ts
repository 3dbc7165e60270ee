import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Basket } from '../../src/schemas/basket-analytics.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation } from '../support/factories.js';

/**
 * `GET /api/analytics/basket/` and `GET /api/analytics/basket/item-guests/`: the guests who ordered an item,
 * counted here from the checks sent, equal the item-guests answer and the size of the segment made from the
 * basket's `segment` block; 401, 400 naming the field, another company's location, group or item → 404, an
 * analyst reads both.
 */

const ZONE = 'America/Chicago';
const ITEMS: [string, string][] = [
  ['Burger', 'Mains'],
  ['Fries', 'Sides'],
  ['Soda', 'Drinks'],
  ['Pie', 'Desserts'],
];
const localDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(at);

interface SentCheck {
  location_id: number;
  check_number: string;
  opened_at: string;
  closed_at: string;
  total: number;
  guest?: { pos_id: string };
  lines: { menu_item: string; category: string; quantity: number; amount: number }[];
}

describe('GET /api/analytics/basket/', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let home: number;
  let away: number;
  let bobsPlace: number;
  let bobsItem: number;
  const sent: SentCheck[] = [];
  const random = seededRandom(11);
  const now = Date.now();
  const today = localDay(new Date(now));
  const from = localDay(new Date(now - 14 * 86_400_000));

  const get = (caller: ApiCaller | null, url: string) =>
    t.app.inject({ method: 'GET', url, ...(caller ? { headers: caller.headers } : {}) });

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
    bobsPlace = (await makeLocation(db, bob.companyId, 'Bob')).id;
    // Checks of the last 20 days up to an hour ago: some before the range, the rest in it.
    for (let n = 0; n < 160; n++) {
      const closed = new Date(now - 3_600_000 - Math.floor(random() * 20 * 24 * 60) * 60_000);
      sent.push({
        location_id: random() < 0.5 ? home : away,
        check_number: `A-${n}`,
        opened_at: new Date(closed.getTime() - 30 * 60_000).toISOString(),
        closed_at: closed.toISOString(),
        total: 20,
        ...(random() < 0.2 ? {} : { guest: { pos_id: `G-${Math.floor(random() * 30)}` } }),
        lines: Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
          const [item, category] = ITEMS[Math.floor(random() * ITEMS.length)]!;
          return { menu_item: item, category, quantity: 1, amount: 5 };
        }),
      });
    }
    for (const [caller, checks] of [
      [alice, sent],
      [
        bob,
        [{ ...sent[0]!, location_id: bobsPlace, check_number: 'B-1', lines: sent[0]!.lines }] as SentCheck[],
      ],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/pos/checks/',
        payload: { checks },
        headers: caller.headers,
      });
      expect(response.json().created, response.body).toBe(checks.length);
    }
    const bobs = await t.database.db.tenant(bob.companyId, (sql) =>
      sql.query<{ id: number }>('SELECT id FROM menu_items WHERE company_id = $1 LIMIT 1', [bob.companyId]),
    );
    bobsItem = Number(bobs.rows[0]!.id);
  });
  afterAll(() => t.close());

  /** The guests with a check at the locations in the range holding the item, by hand. */
  function guestsWhoOrdered(item: string, locations: number[] | null): number {
    const guests = new Set<string>();
    for (const check of sent) {
      const day = localDay(new Date(check.closed_at));
      if (day < from || day > today || !check.guest) continue;
      if (locations && !locations.includes(check.location_id)) continue;
      if (check.lines.some((line) => line.menu_item === item)) guests.add(check.guest.pos_id);
    }
    return guests.size;
  }

  it('makes "guests who ordered X" a segment of exactly the guests it counts', async () => {
    for (const locations of [null, [away]]) {
      const picker = locations ? `&location_id=${locations[0]}` : '';
      const response = await get(alice, `/api/analytics/basket/?from_date=${from}&to_date=${today}${picker}`);
      expect(response.statusCode, response.body).toBe(200);
      const basket: Basket = response.json();
      expect(basket.segment.reason).toBe('ok');
      expect(basket.segment.window_days).toBe(15);
      for (const item of basket.items.filter((row) => ['Burger', 'Pie'].includes(row.name))) {
        const expected = guestsWhoOrdered(item.name, locations);
        expect(expected).toBeGreaterThan(0);
        const counted = await get(
          alice,
          `/api/analytics/basket/item-guests/?from_date=${from}&to_date=${today}&menu_item_id=${item.menu_item_id}` +
            (basket.segment.location_ids ?? []).map((id) => `&location_id=${id}`).join(''),
        );
        expect(counted.statusCode, counted.body).toBe(200);
        expect(counted.json()).toEqual({
          menu_item_id: item.menu_item_id,
          guests: expected,
          counted_at: null,
        });
        const rules = [
          ...(basket.segment.location_ids
            ? [{ type: 'location', operator: 'in', value: basket.segment.location_ids }]
            : []),
          {
            type: 'ordered_item',
            operator: 'any',
            value: [item.menu_item_id],
            window_days: basket.segment.window_days,
          },
        ];
        const saved = await t.app.inject({
          method: 'POST',
          url: '/api/campaigns/segments/',
          headers: alice.headers,
          payload: { name: `Ordered ${item.name}`, segment_groups: [{ segment_rules: rules }] },
        });
        expect(saved.statusCode, saved.body).toBe(201);
        expect(saved.json().segmentcache.all_customers).toBe(expected);
      }
    }
  });

  it('offers no segment for a past range or a day part, and says why', async () => {
    const past = (await get(alice, `/api/analytics/basket/?from_date=${from}&to_date=${from}`)).json();
    expect(past.segment).toEqual({ location_ids: null, window_days: null, reason: 'past_range' });
    const part = (
      await get(alice, `/api/analytics/basket/?from_date=${from}&to_date=${today}&day_part=dinner`)
    ).json();
    expect(part.segment.reason).toBe('day_part');
  });

  it('refuses a bad filter by field, and another company’s location, group or item with a 404', async () => {
    const base = `/api/analytics/basket/?from_date=${from}&to_date=${today}`;
    expect((await get(null, base)).statusCode).toBe(401);
    const bad: [string, string][] = [
      [`${base}&min_support=abc`, 'min_support'],
      [`${base}&min_support=101`, 'min_support'],
      [`${base}&min_support=1.234`, 'min_support'],
      [`${base}&day_part=brunch`, 'day_part'],
      [`${base}&menu_item_id=0`, 'menu_item_id'],
      [`${base}&compare=next`, 'compare'],
      [`/api/analytics/basket/?from_date=2025-13-01&to_date=${today}`, 'from_date'],
      [`/api/analytics/basket/?from_date=${today}&to_date=2020-01-01`, 'to_date'],
      [`/api/analytics/basket/?from_date=2020-01-01&to_date=2025-01-01`, 'to_date'],
      [`/api/analytics/basket/?from_date=${from}`, 'to_date'],
    ];
    for (const [url, field] of bad) {
      const response = await get(alice, url);
      expect(response.statusCode, url).toBe(400);
      expect(Object.keys(response.json().error.fields), url).toEqual([field]);
    }
    expect((await get(alice, `${base}&location_id=${bobsPlace}`)).statusCode).toBe(404);
    expect((await get(alice, `${base}&location_group_id=999999`)).statusCode).toBe(404);
    expect((await get(alice, `${base}&menu_item_id=${bobsItem}`)).statusCode).toBe(404);
    // The item-guests call: its item is required, and the same checks hold.
    const guests = `/api/analytics/basket/item-guests/?from_date=${from}&to_date=${today}`;
    expect((await get(null, `${guests}&menu_item_id=${bobsItem}`)).statusCode).toBe(401);
    const badGuests: [string, string][] = [
      [guests, 'menu_item_id'],
      [`${guests}&menu_item_id=abc`, 'menu_item_id'],
      [`${guests}&menu_item_id=1&day_part=brunch`, 'day_part'],
      [`${guests}&menu_item_id=1&location_id=x`, 'location_id.0'],
      [`/api/analytics/basket/item-guests/?from_date=${today}&to_date=2020-01-01&menu_item_id=1`, 'to_date'],
    ];
    for (const [url, field] of badGuests) {
      const response = await get(alice, url);
      expect(response.statusCode, url).toBe(400);
      expect(Object.keys(response.json().error.fields), url).toEqual([field]);
    }
    expect((await get(alice, `${guests}&menu_item_id=${bobsItem}`)).statusCode).toBe(404);
    const burger = (await get(alice, base))
      .json()
      .items.find((item: { name: string }) => item.name === 'Burger');
    expect(
      (await get(alice, `${guests}&menu_item_id=${burger.menu_item_id}&location_id=${bobsPlace}`)).statusCode,
    ).toBe(404);
    expect(
      (await get(alice, `${guests}&menu_item_id=${burger.menu_item_id}&location_group_id=999999`)).statusCode,
    ).toBe(404);
    // Bob's one check is a copy of Alice's first: one guest if it has one and falls in the range.
    const first = sent[0]!;
    const firstDay = localDay(new Date(first.closed_at));
    expect((await get(bob, `${guests}&menu_item_id=${bobsItem}`)).json()).toEqual({
      menu_item_id: bobsItem,
      guests: first.guest && firstDay >= from && firstDay <= today ? 1 : 0,
      counted_at: null,
    });
    // Bob sees his one check only.
    expect((await get(bob, base)).json().totals.checks).toBe(1);
  });

  it('lets an analyst read it', async () => {
    const analyst = await t.newUser(alice.companyId, 'analyst');
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/analytics/basket/?from_date=${from}&to_date=${today}&min_support=0.5`,
      headers: analyst.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().min_support).toBe(0.5);
    const item = response.json().items[0];
    const guests = await t.app.inject({
      method: 'GET',
      url: `/api/analytics/basket/item-guests/?from_date=${from}&to_date=${today}&menu_item_id=${item.menu_item_id}`,
      headers: analyst.headers,
    });
    expect(guests.statusCode, guests.body).toBe(200);
  });
});
