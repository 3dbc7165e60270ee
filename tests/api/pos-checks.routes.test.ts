import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { makeGuest, makeLocation, makeSubscriber } from '../support/factories.js';

/** What the database holds for a company, read as the owner so nothing filters it. */
async function stored(db: Database, companyId: number) {
  return db.owner(async (sql) => {
    const one = async <Row>(text: string) => (await sql.query<Row>(text, [companyId])).rows;
    return {
      checks: await one<{
        check_number: string;
        total_cents: number;
        tip_cents: number;
        guest_id: number | null;
        revenue_center: string | null;
      }>(
        `SELECT c.check_number, c.total_cents, c.tip_cents, c.guest_id, r.name AS revenue_center
         FROM pos_checks c LEFT JOIN revenue_centers r ON r.id = c.revenue_center_id
         WHERE c.company_id = $1 ORDER BY c.check_number`,
      ),
      lines: await one<{
        check_number: string;
        item: string;
        category: string;
        quantity: number;
        amount_cents: number;
      }>(
        `SELECT c.check_number, i.name AS item, cat.name AS category, l.quantity, l.amount_cents
         FROM pos_check_lines l JOIN pos_checks c ON c.id = l.check_id JOIN menu_items i ON i.id = l.menu_item_id
         JOIN menu_categories cat ON cat.id = i.category_id
         WHERE l.company_id = $1 ORDER BY c.check_number, i.name`,
      ),
      items: await one<{ name: string }>('SELECT name FROM menu_items WHERE company_id = $1 ORDER BY name'),
      guests: await one<{
        id: number;
        pos_id: string;
        hashid: string;
        customer_name: string;
        last_four_digits: string;
        visit_count: number;
        total_spend_cents: number;
      }>(
        `SELECT id, pos_id, hashid, customer_name, last_four_digits, visit_count, total_spend_cents
         FROM guests WHERE company_id = $1 ORDER BY id`,
      ),
    };
  });
}

/** The guest a subscriber is linked to, read as the owner. */
async function subscriberGuest(db: Database, subscriberId: number): Promise<number | null> {
  return db.owner(
    async (sql) =>
      (
        await sql.query<{ guest_id: number | null }>('SELECT guest_id FROM subscribers WHERE id = $1', [
          subscriberId,
        ])
      ).rows[0]!.guest_id,
  );
}

describe('POS checks API', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let home: number;
  let bobsPlace: number;

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
    home = (await makeLocation(t.database.db, alice.companyId, 'Home')).id;
    bobsPlace = (await makeLocation(t.database.db, bob.companyId, 'Bob’s')).id;
  });
  afterAll(() => t.close());

  const guestOfSubscriber = (subscriberId: number) => subscriberGuest(t.database.db, subscriberId);
  const send = (caller: ApiCaller, checks: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/pos/checks/', payload: { checks }, headers: caller.headers });

  const check = (number: string, fields: Record<string, unknown> = {}) => ({
    location_id: home,
    check_number: number,
    opened_at: '2025-03-09T18:00:00Z',
    closed_at: '2025-03-09T19:30:00Z',
    total: 42.5,
    ...fields,
  });

  it('stores checks with their lines, creating items, categories, revenue centers and guests by name', async () => {
    const answer = await send(alice, [
      check('A-1', {
        tip: 7.25,
        revenue_center: 'Bar',
        guest: { customer_name: 'Ann Lee', last_four_digits: '4242' },
        lines: [
          { menu_item: 'Negroni', category: 'Drinks', quantity: 2, amount: 24 },
          { menu_item: 'Fries', quantity: 1, amount: 6.5 },
        ],
      }),
      check('A-2', { total: 10, guest: { pos_id: 'P-9', customer_name: 'Bo Chan' } }),
      check('A-3', { total: 3 }),
    ]);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ created: 3, unchanged: 0, rejected: [] });

    const now = await stored(t.database.db, alice.companyId);
    const ann = now.guests.find((guest) => guest.customer_name === 'Ann Lee')!;
    const bo = now.guests.find((guest) => guest.customer_name === 'Bo Chan')!;
    expect(now.checks).toEqual([
      {
        check_number: 'A-1',
        total_cents: 4250,
        tip_cents: 725,
        guest_id: ann.id,
        revenue_center: 'Bar',
      },
      {
        check_number: 'A-2',
        total_cents: 1000,
        tip_cents: 0,
        guest_id: bo.id,
        revenue_center: null,
      },
      { check_number: 'A-3', total_cents: 300, tip_cents: 0, guest_id: null, revenue_center: null },
    ]);
    expect(now.lines).toEqual([
      { check_number: 'A-1', item: 'Fries', category: 'Other', quantity: 1, amount_cents: 650 },
      { check_number: 'A-1', item: 'Negroni', category: 'Drinks', quantity: 2, amount_cents: 2400 },
    ]);
    // A guest known by card alone carries their own id as POS id; running totals count the check.
    expect(ann).toMatchObject({
      customer_name: 'Ann Lee',
      last_four_digits: '4242',
      visit_count: 1,
      total_spend_cents: 4250,
    });
    expect(ann.pos_id).toBe(ann.hashid);
    expect(bo).toMatchObject({
      pos_id: 'P-9',
      customer_name: 'Bo Chan',
      visit_count: 1,
      total_spend_cents: 1000,
    });
  });

  it('changes nothing when a check is sent again, in a later batch or twice in one', async () => {
    const before = await stored(t.database.db, alice.companyId);
    const answer = await send(alice, [
      check('A-1', { total: 99, guest: { customer_name: 'Ann Lee', last_four_digits: '4242' } }),
      check('A-4', { total: 5 }),
      check('A-4', { total: 6 }),
    ]);
    expect(answer.json()).toEqual({ created: 1, unchanged: 2, rejected: [] });
    const after = await stored(t.database.db, alice.companyId);
    expect(after.checks).toHaveLength(before.checks.length + 1);
    expect(after.checks.find((row) => row.check_number === 'A-4')!.total_cents).toBe(500);
    expect(after.guests).toEqual(before.guests);
    expect(after.items).toEqual(before.items);
  });

  it('matches guests by POS id, then by name and card digits (any case), and links subscribers by POS id', async () => {
    const db = t.database.db;
    const known = await makeGuest(db, alice.companyId, {
      pos_id: 'P-100',
      customer_name: 'Cy Park',
      last_four_digits: '1111',
    });
    const subscriber = await makeSubscriber(db, alice.companyId, { pos_id: 'P-200' });
    const answer = await send(alice, [
      check('M-1', { total: 20, guest: { pos_id: 'P-100' } }),
      check('M-2', {
        total: 30,
        guest: { customer_name: 'ANN LEE', last_four_digits: '4242', pos_id: 'P-300' },
      }),
      check('M-3', {
        total: 40,
        guest: { pos_id: 'P-200', customer_name: 'Di Roy', last_four_digits: '2222' },
      }),
    ]);
    expect(answer.json()).toMatchObject({ created: 3, rejected: [] });
    const now = await stored(db, alice.companyId);
    expect(now.guests.find((guest) => guest.id === known.id)).toMatchObject({
      visit_count: 1,
      total_spend_cents: 2000,
    });
    // Ann was known by card alone: the POS id she now comes with becomes hers.
    expect(now.guests.find((guest) => guest.customer_name === 'Ann Lee')).toMatchObject({
      pos_id: 'P-300',
      visit_count: 2,
      total_spend_cents: 7250,
    });
    const di = now.guests.find((guest) => guest.pos_id === 'P-200')!;
    expect(await guestOfSubscriber(subscriber.id)).toBe(di.id);
  });

  it('creates nothing for a check sent again, even when it now names another guest, item or revenue center', async () => {
    const db = t.database.db;
    const before = await stored(db, alice.companyId);
    const centers = async () =>
      db.owner(
        async (sql) =>
          (await sql.query('SELECT id FROM revenue_centers WHERE company_id = $1', [alice.companyId]))
            .rowCount,
      );
    const centersBefore = await centers();
    const answer = await send(alice, [
      check('A-1', {
        guest: { pos_id: 'GHOST', customer_name: 'Ann Lee', last_four_digits: '4242' },
        revenue_center: 'Patio',
        lines: [{ menu_item: 'Ghost dish', category: 'Ghosts', quantity: 1, amount: 1 }],
      }),
    ]);
    expect(answer.json()).toEqual({ created: 0, unchanged: 1, rejected: [] });
    const after = await stored(db, alice.companyId);
    expect(after.guests).toEqual(before.guests);
    expect(after.items).toEqual(before.items);
    expect(await centers()).toBe(centersBefore);
  });

  it('makes one guest, item and revenue center of names a batch spells twice', async () => {
    const db = t.database.db;
    const answer = await send(alice, [
      check('D-1', {
        guest: { pos_id: 'Z-1', customer_name: 'Zed Ong', last_four_digits: '9999' },
        revenue_center: 'Rooftop',
        lines: [
          { menu_item: 'Tea', category: 'Hot drinks', quantity: 1, amount: 3 },
          { menu_item: 'Cola', quantity: 1, amount: 3 },
          { menu_item: 'b|c', category: 'a', quantity: 1, amount: 2 },
        ],
      }),
      check('D-2', {
        guest: { customer_name: 'zed ong', last_four_digits: '9999' },
        revenue_center: 'rooftop',
        lines: [
          { menu_item: 'tea', quantity: 1, amount: 3 },
          { menu_item: 'cola', category: 'other', quantity: 1, amount: 3 },
        ],
      }),
    ]);
    expect(answer.json()).toEqual({ created: 2, unchanged: 0, rejected: [] });
    const now = await stored(db, alice.companyId);
    expect(now.guests.filter((guest) => guest.customer_name.toLowerCase() === 'zed ong')).toEqual([
      expect.objectContaining({ pos_id: 'Z-1', visit_count: 2 }),
    ]);
    // Cola files under the category the batch's other line gives it ("other", any case: the Other of the first test).
    const lines = now.lines
      .filter((line) => line.check_number.startsWith('D-'))
      .map(({ check_number, item, category }) => [check_number, item, category.toLowerCase()].join(' / '))
      .sort();
    expect(lines).toEqual([
      'D-1 / Cola / other',
      'D-1 / Tea / hot drinks',
      'D-1 / b|c / a',
      'D-2 / Cola / other',
      'D-2 / Tea / hot drinks',
    ]);
    expect(now.items.filter((item) => ['tea', 'cola', 'b|c'].includes(item.name.toLowerCase()))).toHaveLength(
      3,
    );
    expect(
      now.checks.filter((row) => row.check_number.startsWith('D-')).map((row) => row.revenue_center),
    ).toEqual(['Rooftop', 'Rooftop']);
  });

  it('keeps two people apart when they share a name and card digits but not their POS id', async () => {
    const db = t.database.db;
    const first = await makeGuest(db, alice.companyId, {
      pos_id: 'P-500',
      customer_name: 'Eve Tan',
      last_four_digits: '5555',
    });
    const subscriber = await makeSubscriber(db, alice.companyId, { pos_id: 'P-601' });
    expect(
      (
        await send(alice, [
          check('E-1', { guest: { pos_id: 'P-600', customer_name: 'Eve Tan', last_four_digits: '5555' } }),
          // Known by card alone first, then named by the POS: takes the POS id and its subscriber.
          check('E-2', { guest: { customer_name: 'Fay Wu', last_four_digits: '6666' } }),
        ])
      ).json(),
    ).toMatchObject({ created: 2 });
    expect(
      (
        await send(alice, [
          check('E-3', { guest: { pos_id: 'P-601', customer_name: 'FAY WU', last_four_digits: '6666' } }),
        ])
      ).json(),
    ).toMatchObject({ created: 1 });
    const now = await stored(db, alice.companyId);
    expect(
      now.guests
        .filter((guest) => guest.customer_name === 'Eve Tan')
        .map((guest) => guest.pos_id)
        .sort(),
    ).toEqual([first.pos_id, 'P-600']);
    const fay = now.guests.find((guest) => guest.customer_name === 'Fay Wu')!;
    expect(fay).toMatchObject({ pos_id: 'P-601', visit_count: 2 });
    expect(await guestOfSubscriber(subscriber.id)).toBe(fay.id);
  });

  it('rejects a bad check with its index, field and reason, and stores the good ones', async () => {
    const answer = await send(alice, [
      check('R-ok', { total: 1 }),
      check('R-1', { total: -1 }),
      check('R-2', { total: 1.005 }),
      check('R-3', { closed_at: '2025-03-09T17:00:00Z' }),
      check('R-4', { location_id: bobsPlace }),
      check('R-5', { lines: [{ menu_item: 'Soup', quantity: 0, amount: 4 }] }),
      check('R-6', { guest: { customer_name: 'No Card' } }),
      check('R-7', { opened_at: '2025-03-09' }),
      check('R-8', { closed_at: '2999-01-01T00:00:00Z' }),
      { location_id: home },
      check('R-10', { total: 19.999999999 }),
      check('R-11', { tip: 1e-9 }),
    ]);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      created: 1,
      unchanged: 0,
      rejected: [
        { index: 1, field: 'total', reason: 'total must not be negative' },
        { index: 2, field: 'total', reason: 'total has more than two decimals' },
        { index: 3, field: 'closed_at', reason: 'closed_at must not be before opened_at' },
        { index: 4, field: 'location_id', reason: `location ${bobsPlace} does not exist` },
        { index: 5, field: 'lines[0].quantity', reason: 'quantity must be 1 or more' },
        {
          index: 6,
          field: 'guest',
          reason: 'guest needs a pos_id, or a customer_name with last_four_digits',
        },
        {
          index: 7,
          field: 'opened_at',
          reason: expect.stringContaining('opened_at must be an ISO 8601 date and time'),
        },
        { index: 8, field: 'closed_at', reason: 'closed_at is more than a day in the future' },
        { index: 9, field: 'check_number', reason: expect.stringContaining('check_number') },
        { index: 10, field: 'total', reason: 'total has more than two decimals' },
        { index: 11, field: 'tip', reason: 'tip has more than two decimals' },
      ],
    });
    const numbers = (await stored(t.database.db, alice.companyId)).checks.map((row) => row.check_number);
    expect(numbers.filter((number) => number.startsWith('R-'))).toEqual(['R-ok']);
    // Bob's location got nothing.
    expect((await stored(t.database.db, bob.companyId)).checks).toEqual([]);
  });

  it('refuses a batch that is not a list of 1 to 1,000 checks, and callers without sign-in', async () => {
    for (const [checks, message] of [
      [[], 'at least one'],
      ['A-1', 'checks must be a list'],
      [Array.from({ length: 1001 }, (_, index) => check(`B-${index}`)), 'at most 1000'],
      [[42], 'each check must be an object'],
    ] as const) {
      const answer = await send(alice, checks);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.fields.checks ?? Object.values(answer.json().error.fields)[0]).toContain(
        message,
      );
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/pos/checks/',
      payload: { checks: [check('X')] },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('takes the README’s sample file', async () => {
    const sample = JSON.parse(readFileSync('docs/samples/pos-checks.json', 'utf8')) as { checks: object[] };
    const answer = await send(
      alice,
      sample.checks.map((one) => ({ ...one, location_id: home })),
    );
    expect(answer.json()).toEqual({ created: 1, unchanged: 0, rejected: [] });
    const now = await stored(t.database.db, alice.companyId);
    expect(now.checks.find((row) => row.check_number === '1042')).toMatchObject({
      total_cents: 6145,
      tip_cents: 500,
      revenue_center: 'Dining room',
    });
  });

  it('takes a full batch of 1,000 checks in one call', async () => {
    const answer = await send(
      alice,
      Array.from({ length: 1000 }, (_, index) =>
        check(`F-${index}`, {
          total: 12,
          guest: { pos_id: `F-guest-${index % 50}` },
          lines: [{ menu_item: `Dish ${index % 20}`, category: 'Mains', quantity: 1, amount: 12 }],
        }),
      ),
    );
    expect(answer.json()).toEqual({ created: 1000, unchanged: 0, rejected: [] });
    const now = await stored(t.database.db, alice.companyId);
    const regulars = now.guests.filter((guest) => guest.pos_id.startsWith('F-guest-'));
    expect(regulars).toHaveLength(50);
    expect(regulars.every((guest) => guest.visit_count === 20 && guest.total_spend_cents === 24_000)).toBe(
      true,
    );
  });

  it('refuses checks with 503 while a demo company’s rollups are filled again, and takes them once it is loaded', async () => {
    const owner = (text: string) => t.database.db.owner((sql) => sql.query(text, [bob.companyId]));
    const before = await stored(t.database.db, bob.companyId);
    // Every check of the demo history in, the load not finished: the loader is filling the rollups again.
    await owner(`INSERT INTO demo_loads (company_id, scale, seed, until_date, checks_total, checks_loaded)
                 VALUES ($1, 'tiny', 1, '2025-06-01', 10, 10)`);
    const refused = await send(bob, [check('DEMO-1', { location_id: bobsPlace })]);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json().error.code).toBe('demo_loading');
    expect(await stored(t.database.db, bob.companyId)).toEqual(before);

    await owner('UPDATE demo_loads SET finished_at = now() WHERE company_id = $1');
    const taken = await send(bob, [check('DEMO-1', { location_id: bobsPlace })]);
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({ created: 1, unchanged: 0, rejected: [] });
    await owner('DELETE FROM demo_loads WHERE company_id = $1');
  });
});
