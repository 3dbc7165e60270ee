import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { makeMenu, recordVisits, revenueOf } from '../support/customers.js';
import { makeGuest, makeLocation, makeSubscriber } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';

describe('Guests API', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
  });
  afterAll(() => t.close());

  const call = (caller: ApiCaller, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: caller.headers });
  const profileUrl = (g: { id: number; hashid: string; pos_id: string }) =>
    `/api/pos/guests/${g.id}/?hashid=${g.hashid}&pos_id=${encodeURIComponent(g.pos_id)}`;
  const ids = (page: { results: { id: number }[] }) => page.results.map((row) => row.id);

  it('lists guests newest first, paged by 10, with totals in dollars, subscription, search and location filters', async () => {
    const company = await t.newCaller('Guest list Co');
    const db = t.database.db;
    const north = await makeLocation(db, company.companyId, 'North');
    const south = await makeLocation(db, company.companyId, 'South');
    const group = await makeTestLocationGroup(db, company.companyId, 'Coast', [south.id]);
    const firstAtNorth = await makeGuest(db, company.companyId, {
      customer_name: 'Ann North',
      first_location_id: north.id,
    });
    const visitedSouth = await makeGuest(db, company.companyId, {
      customer_name: 'Bob Stone',
      pos_id: 'P-77',
    });
    await recordVisits(db, company.companyId, visitedSouth.id, [
      { locationId: south.id, day: 2, lines: [], totalCents: 1234 },
    ]);
    await makeSubscriber(db, company.companyId, { guest_id: visitedSouth.id });
    const others = [];
    for (let index = 0; index < 9; index += 1) others.push(await makeGuest(db, company.companyId));

    // 10 a page when the caller does not say (spec section 9).
    const page1 = (await call(company, 'GET', '/api/pos/guests/')).json();
    expect(page1.count).toBe(11);
    expect(page1.results).toHaveLength(10);
    expect(page1.results[0].id).toBe(others[8]!.id);
    const page2 = (await call(company, 'GET', page1.next)).json();
    expect(ids(page2)).toEqual([firstAtNorth.id]);
    const stone = page1.results.find((g: { id: number }) => g.id === visitedSouth.id);
    expect(stone).toMatchObject({
      pos_id: 'P-77',
      customer_name: 'Bob Stone',
      visit_count: 1,
      total_spend: 12.34,
      first_location_id: south.id,
      is_subscriber: true,
      last_visit_at: '2025-01-02T20:00:00.000Z',
    });
    expect(page2.results[0].is_subscriber).toBe(false);

    expect(ids((await call(company, 'GET', '/api/pos/guests/?q=stone')).json())).toEqual([visitedSouth.id]);
    expect(ids((await call(company, 'GET', '/api/pos/guests/?q=p-77')).json())).toEqual([visitedSouth.id]);
    expect(ids((await call(company, 'GET', `/api/pos/guests/?location_id=${north.id}`)).json())).toEqual([
      firstAtNorth.id,
    ]);
    expect(
      ids(
        (
          await call(company, 'GET', `/api/pos/guests/?location_id=${north.id}&location_id=${south.id}`)
        ).json(),
      ),
    ).toEqual([visitedSouth.id, firstAtNorth.id]);
    expect(
      ids((await call(company, 'GET', `/api/pos/guests/?location_group_id=${group.id}`)).json()),
    ).toEqual([visitedSouth.id]);
    expect(
      (
        await call(company, 'GET', `/api/pos/guests/?location_group_id=${group.id}&location_id=${north.id}`)
      ).json().count,
    ).toBe(0);
    const bobLocation = await makeLocation(db, bob.companyId, 'Bob only');
    expect((await call(company, 'GET', `/api/pos/guests/?location_id=${bobLocation.id}`)).json().count).toBe(
      0,
    );
    expect((await call(bob, 'GET', '/api/pos/guests/')).json().count).toBe(0);
    const bad = await call(company, 'GET', '/api/pos/guests/?location_id=abc&page_size=0');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['location_id.0', 'page_size']);
  });

  it('shows a profile with visits and subscription only when id, hashid and pos_id all match', async () => {
    const db = t.database.db;
    const location = await makeLocation(db, alice.companyId, 'Harbor');
    const menu = await makeMenu(db, alice.companyId, { Oysters: 1800, Ale: 600 });
    const guest = await makeGuest(db, alice.companyId, {
      customer_name: 'Pat Reed',
      last_four_digits: '1234',
    });
    await recordVisits(db, alice.companyId, guest.id, [
      {
        locationId: location.id,
        day: 5,
        lines: [
          { menu_item_id: menu.Oysters!.id, quantity: 1, unit_price_cents: 1800 },
          { menu_item_id: menu.Ale!.id, quantity: 2, unit_price_cents: 600 },
        ],
      },
    ]);
    const subscriber = await makeSubscriber(db, alice.companyId, {
      email: 'pat@example.com',
      guest_id: guest.id,
      pos_id: 'POS-PAT',
    });

    const response = await call(alice, 'GET', profileUrl(guest));
    expect(response.statusCode).toBe(200);
    const profile = response.json();
    expect(profile.kind).toBe('guest');
    expect(profile.guest).toMatchObject({ id: guest.id, customer_name: 'Pat Reed', is_subscriber: true });
    expect(profile.subscription).toEqual({
      subscriber_id: subscriber.id,
      hashid: subscriber.hashid,
      subscribed: true,
      email: 'pat@example.com',
      pos_id: 'POS-PAT',
    });
    expect(profile.activity).toMatchObject({
      visits: 1,
      total_spend: 30,
      average_check: 30,
      favourite_items: [
        { name: 'Ale', quantity: 2, spend: 12 },
        { name: 'Oysters', quantity: 1, spend: 18 },
      ],
      recent_visits: [
        { location_name: 'Harbor', total: 30, items: 3, closed_at: '2025-01-05T20:00:00.000Z' },
      ],
    });

    const lone = await makeGuest(db, alice.companyId);
    expect((await call(alice, 'GET', profileUrl(lone))).json()).toMatchObject({
      subscription: null,
      guest: { is_subscriber: false },
      activity: { visits: 0, favourite_items: [] },
    });
    for (const url of [
      `/api/pos/guests/${guest.id}/?hashid=${lone.hashid}&pos_id=${guest.pos_id}`,
      `/api/pos/guests/${guest.id}/?hashid=${guest.hashid}&pos_id=${lone.pos_id}`,
      `/api/pos/guests/${guest.id}/?hashid=${guest.hashid}`,
      `/api/pos/guests/${lone.id}/?hashid=${guest.hashid}&pos_id=${guest.pos_id}`,
    ]) {
      expect((await call(alice, 'GET', url)).statusCode, url).toBe(404);
    }
    expect((await call(bob, 'GET', profileUrl(guest))).statusCode).toBe(404);
  });

  it('links cards and writes notes for the company’s own guests only', async () => {
    const guest = await makeGuest(t.database.db, alice.companyId);
    const base = `/api/pos/guests/${guest.id}`;
    const card = await call(alice, 'POST', `${base}/cards/`, { last_four_digits: '4242' });
    expect(card.statusCode).toBe(201);
    expect((await call(alice, 'POST', `${base}/cards/`, {})).json().error.fields).toEqual({
      last_four_digits: 'Last four digits is required',
    });
    expect((await call(alice, 'GET', `${base}/cards/`)).json().map((c: { id: number }) => c.id)).toEqual([
      card.json().id,
    ]);
    expect((await call(alice, 'POST', `${base}/notes/`, { body: 'Allergic to nuts' })).statusCode).toBe(201);
    expect(
      (await call(alice, 'POST', `${base}/notes/`, { body: 'x'.repeat(2001) })).json().error.fields,
    ).toEqual({
      body: 'Note must be at most 2000 characters',
    });
    expect((await call(alice, 'GET', `${base}/notes/`)).json()).toHaveLength(1);
    for (const [method, url, payload] of [
      ['GET', `${base}/cards/`, undefined],
      ['POST', `${base}/cards/`, { last_four_digits: '1111' }],
      ['DELETE', `${base}/cards/${card.json().id}/`, undefined],
      ['GET', `${base}/notes/`, undefined],
      ['POST', `${base}/notes/`, { body: 'Sneaky' }],
    ] as const) {
      expect((await call(bob, method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(alice, 'DELETE', `${base}/cards/${card.json().id}/`)).statusCode).toBe(204);
    expect((await call(alice, 'DELETE', `${base}/cards/${card.json().id}/`)).statusCode).toBe(404);
  });

  it('deletes a guest’s personal data everywhere but keeps their checks in the revenue, unlinked', async () => {
    const company = await t.newCaller('Delete Co');
    const db = t.database.db;
    const location = await makeLocation(db, company.companyId, 'Main');
    const guest = await makeGuest(db, company.companyId, {
      customer_name: 'Gone Girl',
      last_four_digits: '5555',
      pos_id: 'POS-GONE',
    });
    const stays = await makeGuest(db, company.companyId);
    const checkIds = await recordVisits(db, company.companyId, guest.id, [
      { locationId: location.id, day: 1, lines: [], totalCents: 2500 },
      { locationId: location.id, day: 2, lines: [], totalCents: 1500 },
    ]);
    await recordVisits(db, company.companyId, stays.id, [
      { locationId: location.id, day: 3, lines: [], totalCents: 700 },
    ]);
    const subscriber = await makeSubscriber(db, company.companyId, { guest_id: guest.id });
    const base = `/api/pos/guests/${guest.id}`;
    await call(company, 'POST', `${base}/cards/`, { last_four_digits: '5555', name_on_card: 'G Girl' });
    await call(company, 'POST', `${base}/notes/`, { body: 'Regular on Fridays' });
    const before = await revenueOf(db, company.companyId);
    expect(before).toEqual({ cents: 4700, checks: 3 });

    expect((await call(company, 'DELETE', `${base}/?hashid=wrong&pos_id=POS-GONE`)).statusCode).toBe(404);
    expect((await call(bob, 'DELETE', profileUrl(guest))).statusCode).toBe(404);
    expect((await call(company, 'DELETE', profileUrl(guest))).statusCode).toBe(204);
    expect((await call(company, 'GET', profileUrl(guest))).statusCode).toBe(404);
    expect((await call(company, 'DELETE', profileUrl(guest))).statusCode).toBe(404);

    expect(await revenueOf(db, company.companyId)).toEqual(before);
    const leftovers = await db.owner(async (sql) => {
      const checks = await sql.query<{ guest_id: number | null }>(
        'SELECT guest_id FROM pos_checks WHERE id = ANY($1::bigint[]) ORDER BY id',
        [checkIds],
      );
      const counts = await sql.query<{ cards: number; notes: number; guests: number }>(
        `SELECT (SELECT count(*)::int FROM profile_cards WHERE guest_id = $1) AS cards,
                (SELECT count(*)::int FROM notes WHERE guest_id = $1) AS notes,
                (SELECT count(*)::int FROM guests WHERE id = $1) AS guests`,
        [guest.id],
      );
      const linked = await sql.query<{ guest_id: number | null }>(
        'SELECT guest_id FROM subscribers WHERE id = $1',
        [subscriber.id],
      );
      return { checks: checks.rows, ...counts.rows[0], subscriberGuest: linked.rows[0]!.guest_id };
    });
    expect(leftovers).toEqual({
      checks: [{ guest_id: null }, { guest_id: null }],
      cards: 0,
      notes: 0,
      guests: 0,
      subscriberGuest: null,
    });
    const deleted = (
      await call(company, 'GET', '/api/bigdata/get-deleted-customers/?customer_type=guest')
    ).json();
    expect(deleted.results).toEqual([
      {
        id: expect.any(Number),
        customer_type: 'guest',
        pos_id: 'POS-GONE',
        original_id: guest.id,
        deleted_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(deleted)).not.toContain('Gone Girl');
    const audit = await db.tenant(company.companyId, (sql) =>
      listAudit(sql, company.companyId, { entity: 'guest', entityId: guest.id }),
    );
    expect(JSON.stringify(audit)).not.toContain('Gone Girl');
    expect((await call(company, 'GET', '/api/pos/guests/')).json().count).toBe(1);
  });

  it('exports the filtered guests as CSV with formulas neutralised', async () => {
    const company = await t.newCaller('Guest export Co');
    const db = t.database.db;
    const north = await makeLocation(db, company.companyId, 'North');
    await makeGuest(db, company.companyId, {
      customer_name: '=HYPERLINK("http://evil.example","x")',
      pos_id: '-7',
      last_four_digits: '0042',
      first_location_id: north.id,
    });
    await makeGuest(db, company.companyId, { customer_name: '+Plus Sign', pos_id: '@home' });

    const all = await call(company, 'GET', '/api/pos/guests/export/');
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toContain('text/csv');
    expect(all.headers['content-disposition']).toBe('attachment; filename="guests.csv"');
    const lines = all.body.split('\r\n');
    expect(lines[0]).toBe(
      'id,pos_id,customer_name,last_four_digits,first_location_id,visit_count,total_spend,first_visit_at,last_visit_at,is_subscriber,email_consent',
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d+,'-7,"'=HYPERLINK\\(""http://evil.example"",""x""\\)",0042,${north.id},0,0.00,,,false,never_asked$`,
      ),
    );
    expect(lines[2]).toMatch(/^\d+,'@home,'\+Plus Sign,,,0,0\.00,,,false,never_asked$/);
    expect(lines.slice(3)).toEqual(['']);
    const filtered = await call(company, 'GET', `/api/pos/guests/export/?location_id=${north.id}`);
    expect(filtered.body.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(
      (await call(bob, 'GET', '/api/pos/guests/export/')).body.split('\r\n').filter(Boolean),
    ).toHaveLength(1);
  });
});
