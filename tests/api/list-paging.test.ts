import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIBER_ORDERINGS } from '../../src/schemas/customers.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { makeGuest, makeSubscriber } from '../support/factories.js';

// Keyset paging and estimated totals of the guest and subscriber lists: following `next` links (cursors)
// and then `previous` links back visits every row once, in exactly the order plain SQL gives.

const GUESTS = 23;
const SUBSCRIBERS = 19;
// Totals above this are labelled estimates in this app, so a few rows cross it.
const EXACT_UP_TO = 12;

/** The ORDER BY of each subscriber ordering, written out independently of the repository. */
const ORDER_BY: Record<(typeof SUBSCRIBER_ORDERINGS)[number], string> = {
  '-created_at': 'created_at DESC, id DESC',
  created_at: 'created_at, id',
  email: 'lower(email), id',
  '-email': 'lower(email) DESC, id DESC',
  name: 'lower(first_name), lower(last_name), id',
  '-name': 'lower(first_name) DESC, lower(last_name) DESC, id DESC',
};

interface ListPage {
  count: number;
  count_estimated?: boolean;
  next: string | null;
  previous: string | null;
  results: { id: number }[];
}

describe('List paging: keyset cursors and estimated totals', () => {
  let t: TestApp;
  let owner: ApiCaller;
  let other: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp({ listCounts: { exactUpTo: EXACT_UP_TO } });
    owner = await t.newCaller('Keyset Kitchen');
    other = await t.newCaller('Other Diner');
    const names = ['ada', 'Ada', 'bob', 'BOB', 'cy'];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      await makeSubscriber(t.database.db, owner.companyId, {
        email: `${names[i % 5]}.${i}@example.com`,
        first_name: names[i % 5]!,
        last_name: names[(i * 3) % 5]!,
      });
    }
    for (let i = 0; i < GUESTS; i++)
      await makeGuest(t.database.db, owner.companyId, { customer_name: `g${i}` });
    // Another company's rows must never appear; ties in created_at exercise the id tie-breaker.
    for (let i = 0; i < 3; i++) {
      await makeSubscriber(t.database.db, other.companyId);
      await makeGuest(t.database.db, other.companyId);
    }
    await t.database.db.owner((sql) =>
      sql.query(
        `UPDATE subscribers SET created_at = timestamptz '2025-03-01 12:00:00.123456+00' + (id % 4) * interval '1 second'
         WHERE company_id = $1`,
        [owner.companyId],
      ),
    );
  });
  afterAll(() => t.close());

  const get = async (url: string): Promise<ListPage> => {
    const response = await t.app.inject({ method: 'GET', url, headers: owner.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ListPage>();
  };

  const idsInSql = async (table: 'guests' | 'subscribers', orderBy: string): Promise<number[]> =>
    t.database.db.owner(async (sql) =>
      (
        await sql.query<{ id: number }>(`SELECT id FROM ${table} WHERE company_id = $1 ORDER BY ${orderBy}`, [
          owner.companyId,
        ])
      ).rows.map((row) => row.id),
    );

  /** Every row by `next` links from the first page, then every page again by `previous` links. */
  const walk = async (firstUrl: string) => {
    const pages: ListPage[] = [await get(firstUrl)];
    while (pages.at(-1)!.next) {
      const next = pages.at(-1)!.next!;
      if (pages.length > 1) expect(next).toContain('cursor=');
      pages.push(await get(next));
    }
    const back: ListPage[] = [pages.at(-1)!];
    while (back.at(-1)!.previous) back.push(await get(back.at(-1)!.previous!));
    return {
      forward: pages.flatMap((page) => page.results.map((row) => row.id)),
      backward: back.reverse().flatMap((page) => page.results.map((row) => row.id)),
      pageCount: pages.length,
    };
  };

  it.each(SUBSCRIBER_ORDERINGS)(
    'walks the subscribers ordered by %s with no row missing or repeated, both ways',
    async (ordering) => {
      const expected = await idsInSql('subscribers', ORDER_BY[ordering]);
      expect(expected).toHaveLength(SUBSCRIBERS);
      const { forward, backward, pageCount } = await walk(
        `/api/subscriptions/subscribers/?ordering=${ordering}&page_size=4`,
      );
      expect(forward).toEqual(expected);
      expect(backward).toEqual(expected);
      expect(pageCount).toBe(Math.ceil(SUBSCRIBERS / 4));
    },
  );

  it('walks the guests newest first with no row missing or repeated, both ways, and filtered', async () => {
    const expected = await idsInSql('guests', 'id DESC');
    const { forward, backward } = await walk('/api/pos/guests/?page_size=5');
    expect(forward).toEqual(expected);
    expect(backward).toEqual(expected);
    // A search keeps its filter across cursor pages.
    const searched = await walk('/api/pos/guests/?page_size=2&q=g1');
    const matching = await t.database.db.owner(async (sql) =>
      (
        await sql.query<{ id: number }>(
          `SELECT id FROM guests WHERE company_id = $1 AND customer_name ILIKE '%g1%' ORDER BY id DESC`,
          [owner.companyId],
        )
      ).rows.map((row) => row.id),
    );
    expect(searched.forward).toEqual(matching);
  });

  it('still reads any page by number, as spec §7 paging does', async () => {
    const expected = await idsInSql('guests', 'id DESC');
    const third = await get('/api/pos/guests/?page=3&page_size=5');
    expect(third.results.map((row) => row.id)).toEqual(expected.slice(10, 15));
    expect(third.previous).toContain('page=2');
    const last = await get('/api/pos/guests/?page=5&page_size=5');
    expect(last.results.map((row) => row.id)).toEqual(expected.slice(20));
    expect(last.next).toBeNull();
    // Past the end: no rows, and the previous link goes back to the last page by number.
    const past = await get('/api/pos/guests/?page=9&page_size=5');
    expect(past.results).toEqual([]);
    expect(past.previous).toBe('/api/pos/guests/?page=5&page_size=5');
  });

  it('labels a total above the exact limit as estimated, and an exact one as not', async () => {
    const guests = await get('/api/pos/guests/?page_size=5');
    expect(guests).toMatchObject({ count: GUESTS, count_estimated: true });
    const subscribers = await get('/api/subscriptions/subscribers/');
    expect(subscribers).toMatchObject({ count: SUBSCRIBERS, count_estimated: true });
    // A filter narrowing the list to the limit or fewer counts exactly again.
    const few = await get('/api/pos/guests/?q=g2');
    expect(few.count).toBe(4);
    expect(few.count_estimated).toBe(false);
    // Asked for, the guest total is counted exactly however large (the invite panel's total follows each add).
    const exact = await get('/api/pos/guests/?page_size=1&is_subscriber=false&count=exact');
    expect(exact).toMatchObject({ count: GUESTS, count_estimated: false });
    const otherGuests = await t.app.inject({
      method: 'GET',
      url: '/api/pos/guests/',
      headers: other.headers,
    });
    expect(otherGuests.json()).toMatchObject({ count: 3, count_estimated: false });
  });

  /** The cursor a link carries, decoded as the server reads it. */
  const cursorOf = (link: string): unknown =>
    JSON.parse(
      Buffer.from(new URL(link, 'http://local').searchParams.get('cursor')!, 'base64url').toString('utf8'),
    );
  const cursorUrl = (path: string, ordering: string, direction: 'a' | 'b', id: number) =>
    `${path}?page=2&page_size=4&ordering=${ordering}&cursor=${Buffer.from(JSON.stringify([ordering, direction, id])).toString('base64url')}`;

  it.each(SUBSCRIBER_ORDERINGS)(
    'makes subscriber cursors (ordered by %s) of the ordering, the direction and a row id only: no email, name or time',
    async (ordering) => {
      const first = await get(`/api/subscriptions/subscribers/?ordering=${ordering}&page_size=4`);
      const second = await get(first.next!);
      const third = await get(second.next!);
      const personal = await t.database.db.owner(async (sql) =>
        (
          await sql.query<{ email: string; first_name: string; last_name: string; created_at: string }>(
            `SELECT email, first_name, last_name, created_at::text FROM subscribers WHERE company_id = $1`,
            [owner.companyId],
          )
        ).rows.flatMap((row) => [row.email, row.first_name, row.last_name, row.created_at]),
      );
      for (const link of [first.next!, second.next!, third.previous!]) {
        const cursor = cursorOf(link);
        expect(cursor).toEqual([ordering, expect.stringMatching(/^[ab]$/), expect.any(Number)]);
        const text = JSON.stringify(cursor).toLowerCase();
        for (const value of personal) if (value.length > 2) expect(text).not.toContain(value.toLowerCase());
      }
      expect(cursorOf(first.next!)).toEqual([ordering, 'a', first.results.at(-1)!.id]);
      expect(cursorOf(third.previous!)).toEqual([ordering, 'b', third.results[0]!.id]);
    },
  );

  it('makes guest cursors of the ordering, the direction and a row id only', async () => {
    const first = await get('/api/pos/guests/?page_size=5');
    expect(cursorOf(first.next!)).toEqual(['-id', 'a', first.results.at(-1)!.id]);
  });

  it("never shows another company's rows for a cursor naming one of their rows", async () => {
    const theirIds = async (table: 'guests' | 'subscribers') =>
      t.database.db.owner(async (sql) =>
        (
          await sql.query<{ id: number }>(`SELECT id FROM ${table} WHERE company_id = $1 ORDER BY id`, [
            other.companyId,
          ])
        ).rows.map((row) => row.id),
      );
    const theirSubscribers = await theirIds('subscribers');
    for (const ordering of SUBSCRIBER_ORDERINGS) {
      for (const direction of ['a', 'b'] as const) {
        const url = cursorUrl('/api/subscriptions/subscribers/', ordering, direction, theirSubscribers[0]!);
        const response = await t.app.inject({ method: 'GET', url, headers: owner.headers });
        // Their row is not in this company's list: the list "changed", start again.
        expect(response.statusCode, url).toBe(400);
        expect(response.json().error.fields).toHaveProperty('cursor');
        expect(response.body).not.toContain(String(theirSubscribers[0]));
      }
    }
    // A guest cursor is only a position in the id order: this company's own rows around it, never theirs.
    const theirGuests = await theirIds('guests');
    const ours = await idsInSql('guests', 'id DESC');
    for (const direction of ['a', 'b'] as const) {
      const page = await get(cursorUrl('/api/pos/guests/', '-id', direction, theirGuests[0]!));
      for (const row of page.results) {
        expect(theirGuests).not.toContain(row.id);
        expect(ours).toContain(row.id);
      }
    }
  });

  it('answers 400 naming the cursor when the boundary row was deleted, and pages on from page 1', async () => {
    const victim = await makeSubscriber(t.database.db, owner.companyId, { email: 'aaa.gone@example.com' });
    const url = cursorUrl('/api/subscriptions/subscribers/', 'email', 'a', victim.id);
    expect((await get(url)).results.length).toBeGreaterThan(0);
    await t.database.db.owner((sql) => sql.query('DELETE FROM subscribers WHERE id = $1', [victim.id]));
    const response = await t.app.inject({ method: 'GET', url, headers: owner.headers });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json().error.fields.cursor)).toMatch(/list changed/);
    // Starting again works, and the end of the list still answers an empty page with a cursor of a live row.
    const expected = await idsInSql('subscribers', ORDER_BY.email);
    const last = await get(cursorUrl('/api/subscriptions/subscribers/', 'email', 'a', expected.at(-1)!));
    expect(last.results).toEqual([]);
  });

  it('refuses a cursor that is not one of ours or belongs to another ordering, naming the field', async () => {
    const byEmail = await get('/api/subscriptions/subscribers/?ordering=email&page_size=4');
    const cursor = new URL(byEmail.next!, 'http://local').searchParams.get('cursor')!;
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const urls = [
      `/api/subscriptions/subscribers/?ordering=name&cursor=${cursor}`,
      `/api/subscriptions/subscribers/?ordering=-email&cursor=${cursor}`,
      '/api/subscriptions/subscribers/?cursor=not-a-cursor',
      `/api/pos/guests/?cursor=${cursor}`,
      `/api/pos/guests/?cursor=${encoded(['-id', 'a', ['1e3']])}`,
      `/api/pos/guests/?cursor=${encoded(['-id', 'a', '12'])}`,
      `/api/pos/guests/?cursor=${encoded(['-id', 'a', 1.5])}`,
      `/api/pos/guests/?cursor=${encoded(['-id', 'x', 12])}`,
      // The old form, a key of values, is no longer read.
      `/api/subscriptions/subscribers/?ordering=email&cursor=${encoded(['email', 'a', ['ada.0@example.com', '1']])}`,
    ];
    for (const url of urls) {
      const response = await t.app.inject({ method: 'GET', url, headers: owner.headers });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.fields).toHaveProperty('cursor');
    }
  });
});
