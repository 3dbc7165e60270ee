import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { makeMenu, recordVisits } from '../support/customers.js';
import { makeGuest, makeLocation } from '../support/factories.js';
import { countRows, makeTestLocationGroup } from '../support/marketing.js';

describe('Subscribers API', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
  });
  afterAll(() => t.close());

  const call = (
    caller: ApiCaller,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: caller.headers });
  const create = async (caller: ApiCaller, fields: object) => {
    const response = await call(caller, 'POST', '/api/subscriptions/subscribers/', fields);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const profileUrl = (s: { id: number; hashid: string; pos_id: string | null }) =>
    `/api/subscriptions/subscribers/${s.id}/?hashid=${s.hashid}&pos_id=${encodeURIComponent(s.pos_id ?? '')}`;

  it('adds subscribers and lists them newest first, paged by 8, searched and filtered by location or group', async () => {
    const company = await t.newCaller('Paging Co');
    const north = await makeLocation(t.database.db, company.companyId, 'North');
    const south = await makeLocation(t.database.db, company.companyId, 'South');
    const group = await makeTestLocationGroup(t.database.db, company.companyId, 'Coast', [south.id]);
    const first = await create(company, {
      email: ' Ada@Example.com ',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '(503) 555-0100',
      zip: '97201',
      birthday: '1990-12-10',
      source_location_id: north.id,
    });
    expect(first).toMatchObject({
      email: 'Ada@Example.com',
      subscribed: true,
      SUBSCRIBED: 'True',
      pos_id: null,
      birthday: '1990-12-10',
      list_ids: [],
      source_location_id: north.id,
    });
    const unsubscribed = await create(company, { email: 'off@example.com', subscribed: false });
    expect(unsubscribed.SUBSCRIBED).toBe('False');
    const atSouth = [];
    for (let index = 0; index < 8; index += 1) {
      atSouth.push(await create(company, { email: `s${index}@example.com`, source_location_id: south.id }));
    }

    // 8 a page when the caller does not say (spec section 9).
    const page1 = (await call(company, 'GET', '/api/subscriptions/subscribers/')).json();
    expect(page1.count).toBe(10);
    expect(page1.results).toHaveLength(8);
    expect(page1.results[0].id).toBe(atSouth[7].id);
    // The next link numbers the page and carries a keyset cursor after the last row.
    expect(page1.next).toMatch(/^\/api\/subscriptions\/subscribers\/\?page=2&cursor=[\w-]+$/);
    expect(page1.count_estimated).toBe(false);
    const page2 = (await call(company, 'GET', page1.next)).json();
    expect(page2.results.map((s: { id: number }) => s.id)).toEqual([unsubscribed.id, first.id]);

    const search = (await call(company, 'GET', '/api/subscriptions/subscribers/?q=lovelace')).json();
    expect(search.results.map((s: { id: number }) => s.id)).toEqual([first.id]);
    const byLocation = (
      await call(company, 'GET', `/api/subscriptions/subscribers/?location_id=${north.id}&location_id=999999`)
    ).json();
    expect(byLocation.results.map((s: { id: number }) => s.id)).toEqual([first.id]);
    const byGroup = (
      await call(company, 'GET', `/api/subscriptions/subscribers/?location_group_id=${group.id}`)
    ).json();
    expect(byGroup.count).toBe(8);
    // Another company's location filters simply match nobody here.
    const bobLocation = await makeLocation(t.database.db, bob.companyId, 'Bob only');
    const foreign = (
      await call(company, 'GET', `/api/subscriptions/subscribers/?location_id=${bobLocation.id}`)
    ).json();
    expect(foreign).toEqual({ count: 0, count_estimated: false, next: null, previous: null, results: [] });
    expect((await call(bob, 'GET', '/api/subscriptions/subscribers/')).json().count).toBe(0);
  });

  it('orders by what the list shows: created newest first by default, email or name either way on request', async () => {
    const company = await t.newCaller('Ordering Co');
    const made = [
      await create(company, { email: 'carol@example.com', first_name: 'Carol', last_name: 'Zed' }),
      await create(company, { email: 'Alice@example.com', first_name: 'alice', last_name: 'Young' }),
      await create(company, { email: 'bob@example.com', first_name: 'Bob', last_name: 'Xu' }),
    ];
    // Creation dates that do not follow the ids, as an import of older sign-ups leaves them.
    const days = { 'carol@example.com': 3, 'Alice@example.com': 1, 'bob@example.com': 2 };
    await t.database.db.owner(async (sql) => {
      for (const subscriber of made)
        await sql.query(`UPDATE subscribers SET created_at = $2 WHERE id = $1`, [
          subscriber.id,
          `2026-0${days[subscriber.email as keyof typeof days]}-01T12:00:00Z`,
        ]);
    });
    const emails = async (query: string) =>
      (await call(company, 'GET', `/api/subscriptions/subscribers/?q=example${query}`))
        .json<{ results: { email: string }[] }>()
        .results.map((row) => row.email);
    expect(await emails('')).toEqual(['carol@example.com', 'bob@example.com', 'Alice@example.com']);
    expect(await emails('&ordering=created_at')).toEqual([
      'Alice@example.com',
      'bob@example.com',
      'carol@example.com',
    ]);
    // Letter case does not decide the order.
    expect(await emails('&ordering=email')).toEqual([
      'Alice@example.com',
      'bob@example.com',
      'carol@example.com',
    ]);
    expect(await emails('&ordering=-email')).toEqual([
      'carol@example.com',
      'bob@example.com',
      'Alice@example.com',
    ]);
    expect(await emails('&ordering=name')).toEqual([
      'Alice@example.com',
      'bob@example.com',
      'carol@example.com',
    ]);
    expect(await emails('&ordering=-name&page_size=1&page=2')).toEqual(['bob@example.com']);
    const bad = await call(company, 'GET', '/api/subscriptions/subscribers/?ordering=phone');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ ordering: 'ordering is not valid' });
  });

  it('rejects bad input with the spec messages and a duplicate email in any case, writing nothing', async () => {
    await create(alice, { email: 'taken@example.com' });
    const before = await countRows(t.database.db, 'subscribers', alice.companyId);
    const bad = await call(alice, 'POST', '/api/subscriptions/subscribers/', {
      email: 'not-an-email',
      phone: '12-34',
      zip: '1234',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      email: 'Email is not valid',
      phone: 'Phone is not valid',
      zip: 'Zip code is not valid',
    });
    const missing = await call(alice, 'POST', '/api/subscriptions/subscribers/', { first_name: 'No mail' });
    expect(missing.json().error.fields).toEqual({ email: 'Email is required' });
    const blank = await call(alice, 'POST', '/api/subscriptions/subscribers/', { email: '  ' });
    expect(blank.json().error.fields).toEqual({ email: 'Email is required' });
    const duplicate = await call(alice, 'POST', '/api/subscriptions/subscribers/', {
      email: 'TAKEN@example.com',
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().error).toMatchObject({
      code: 'validation_failed',
      fields: { email: 'Email already exists' },
    });
    const bobLocation = await makeLocation(t.database.db, bob.companyId, 'Not yours');
    const foreignLocation = await call(alice, 'POST', '/api/subscriptions/subscribers/', {
      email: 'where@example.com',
      source_location_id: bobLocation.id,
    });
    expect(foreignLocation.statusCode).toBe(400);
    expect(foreignLocation.json().error.fields).toEqual({ source_location_id: 'Location is not valid' });
    expect(await countRows(t.database.db, 'subscribers', alice.companyId)).toBe(before);
    // The same address is free in another company.
    expect(
      (await call(bob, 'POST', '/api/subscriptions/subscribers/', { email: 'taken@example.com' })).statusCode,
    ).toBe(201);
  });

  it('shows a profile only when id, hashid and pos_id all match, with the linked guest’s visits and lists', async () => {
    const db = t.database.db;
    const location = await makeLocation(db, alice.companyId, 'Harbor');
    const menu = await makeMenu(db, alice.companyId, { Chowder: 900 });
    const guest = await makeGuest(db, alice.companyId, { pos_id: 'POS-LINK', customer_name: 'Lin Ko' });
    await recordVisits(db, alice.companyId, guest.id, [
      {
        locationId: location.id,
        day: 3,
        lines: [{ menu_item_id: menu.Chowder!.id, quantity: 2, unit_price_cents: 900 }],
      },
      { locationId: location.id, day: 4, lines: [], totalCents: 1000 },
    ]);
    const subscriber = await create(alice, { email: 'lin@example.com', pos_id: 'POS-LINK' });
    expect(subscriber.guest_id).toBe(guest.id);
    const list = (await call(alice, 'POST', '/api/subscriptions/subscribers/list/', { name: 'VIP' })).json();
    await call(alice, 'POST', `/api/subscriptions/subscribers/list/${list.id}/members/`, {
      subscriber_ids: [subscriber.id],
    });

    const response = await call(alice, 'GET', profileUrl(subscriber));
    expect(response.statusCode).toBe(200);
    const profile = response.json();
    expect(profile.kind).toBe('subscriber');
    expect(profile.subscriber).toMatchObject({
      id: subscriber.id,
      email: 'lin@example.com',
      list_ids: [list.id],
    });
    expect(profile.lists).toEqual([{ id: list.id, name: 'VIP' }]);
    expect(profile.activity).toMatchObject({
      visits: 2,
      total_spend: 28,
      average_check: 14,
      first_visit_at: '2025-01-03T20:00:00.000Z',
      last_visit_at: '2025-01-04T20:00:00.000Z',
      favourite_items: [{ menu_item_id: menu.Chowder!.id, name: 'Chowder', quantity: 2, spend: 18 }],
      locations_visited: [{ location_id: location.id, name: 'Harbor', visits: 2, spend: 28 }],
    });
    expect(profile.activity.recent_visits.map((visit: { total: number }) => visit.total)).toEqual([10, 18]);

    const plain = await create(alice, { email: 'plain@example.com' });
    const plainProfile = (await call(alice, 'GET', profileUrl(plain))).json();
    expect(plainProfile.activity).toMatchObject({
      visits: 0,
      total_spend: 0,
      average_check: 0,
      recent_visits: [],
    });
    expect(plainProfile.lists).toEqual([]);

    for (const url of [
      `/api/subscriptions/subscribers/${subscriber.id}/?hashid=${plain.hashid}&pos_id=POS-LINK`,
      `/api/subscriptions/subscribers/${subscriber.id}/?hashid=${subscriber.hashid}&pos_id=POS-OTHER`,
      `/api/subscriptions/subscribers/${subscriber.id}/?hashid=${subscriber.hashid}`,
      `/api/subscriptions/subscribers/${plain.id}/?hashid=${plain.hashid}&pos_id=POS-LINK`,
    ]) {
      expect((await call(alice, 'GET', url)).statusCode, url).toBe(404);
    }
    expect((await call(bob, 'GET', profileUrl(subscriber))).statusCode).toBe(404);
    const noHashid = await call(alice, 'GET', `/api/subscriptions/subscribers/${subscriber.id}/`);
    expect(noHashid.statusCode).toBe(400);
    expect(noHashid.json().error.fields).toEqual({ hashid: 'hashid is required' });
  });

  it('replaces profile fields, stamps unsubscribing, and refuses bad fields and taken emails', async () => {
    const subscriber = await create(alice, { email: 'upd@example.com', first_name: 'Old', zip: '97201' });
    await create(alice, { email: 'other-upd@example.com' });
    const url = `/api/subscriptions/subscribers/${subscriber.id}/profile/`;
    const updated = await call(alice, 'PUT', url, {
      email: 'new-upd@example.com',
      first_name: 'New',
      phone: '+503 555 0199',
      subscribed: false,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      email: 'new-upd@example.com',
      first_name: 'New',
      last_name: '',
      zip: '',
      // Stored as '+' and the digits: written with a country code, not a possible US number.
      phone: '+5035550199',
      subscribed: false,
      SUBSCRIBED: 'False',
    });
    expect(updated.json().unsubscribed_at).not.toBeNull();

    const bad = await call(alice, 'PUT', url, { email: 'new-upd@example.com', zip: 'abcde', phone: '555' });
    expect(bad.json().error.fields).toEqual({ zip: 'Zip code is not valid', phone: 'Phone is not valid' });
    const taken = await call(alice, 'PUT', url, { email: 'Other-Upd@example.com' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.fields).toEqual({ email: 'Email already exists' });
    expect((await call(bob, 'PUT', url, { email: 'bob@example.com' })).statusCode).toBe(404);
    expect(
      (await call(alice, 'PUT', '/api/subscriptions/subscribers/999999/profile/', { email: 'x@example.com' }))
        .statusCode,
    ).toBe(404);
  });

  it('stores a phone however it was typed as one E.164 value, and the profile shows what was added', async () => {
    const company = await t.newCaller('Phones Co');
    const harbor = await makeLocation(t.database.db, company.companyId, 'Harbor');
    const formatted = await create(company, {
      email: 'formatted@example.com',
      phone: '(503) 555-4585',
      zip: '97201',
      birthday: '1988-07-14',
      source_location_id: harbor.id,
      subscribed: false,
    });
    const digits = await create(company, { email: 'digits@example.com', phone: '5035554585' });
    // The list is searched by the phone as shown, or typed any other way.
    for (const typed of ['(503) 555-4585', '503-555-4585', '555 4585']) {
      const found = await call(
        company,
        'GET',
        `/api/subscriptions/subscribers/?q=${encodeURIComponent(typed)}`,
      );
      expect(
        found
          .json()
          .results.map((row: { email: string }) => row.email)
          .sort(),
        typed,
      ).toEqual(['digits@example.com', 'formatted@example.com']);
    }
    expect(formatted.phone).toBe('+15035554585');
    expect(digits.phone).toBe('+15035554585');

    const profile = (await call(company, 'GET', profileUrl(formatted))).json();
    expect(profile.subscriber).toMatchObject({
      phone: '+15035554585',
      zip: '97201',
      birthday: '1988-07-14',
      source_location_id: harbor.id,
      subscribed: false,
    });

    // The profile's edit: the phone stored the same way, the source location changed and then cleared.
    const url = `/api/subscriptions/subscribers/${formatted.id}/profile/`;
    const pier = await makeLocation(t.database.db, company.companyId, 'Pier');
    const moved = await call(company, 'PUT', url, {
      email: 'formatted@example.com',
      phone: '503.555.0199',
      zip: '97202',
      birthday: '1988-07-14',
      subscribed: true,
      source_location_id: pier.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ phone: '+15035550199', zip: '97202', source_location_id: pier.id });
    // The list's dialog sends no source location: the stored one stays.
    const kept = await call(company, 'PUT', url, { email: 'formatted@example.com', phone: '' });
    expect(kept.json()).toMatchObject({ phone: '', source_location_id: pier.id });
    const cleared = await call(company, 'PUT', url, {
      email: 'formatted@example.com',
      source_location_id: null,
    });
    expect(cleared.json().source_location_id).toBeNull();
    const elsewhere = await makeLocation(t.database.db, alice.companyId, 'Not theirs');
    const foreign = await call(company, 'PUT', url, {
      email: 'formatted@example.com',
      source_location_id: elsewhere.id,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.fields).toEqual({ source_location_id: 'Location is not valid' });
  });

  it('links and unlinks cards and writes notes, for the company’s own subscribers only', async () => {
    const subscriber = await create(alice, { email: 'cards@example.com' });
    const base = `/api/subscriptions/subscribers/${subscriber.id}`;
    const card = await call(alice, 'POST', `${base}/cards/`, {
      last_four_digits: '4242',
      card_brand: 'Visa',
      name_on_card: 'C Ard',
    });
    expect(card.statusCode).toBe(201);
    expect(card.json()).toMatchObject({
      last_four_digits: '4242',
      card_brand: 'Visa',
      name_on_card: 'C Ard',
    });
    const badCard = await call(alice, 'POST', `${base}/cards/`, { last_four_digits: '42a2' });
    expect(badCard.json().error.fields).toEqual({ last_four_digits: 'Last four digits is not valid' });
    expect((await call(alice, 'GET', `${base}/cards/`)).json()).toHaveLength(1);

    const note = await call(alice, 'POST', `${base}/notes/`, { body: 'Prefers the patio' });
    expect(note.statusCode).toBe(201);
    expect(note.json()).toMatchObject({ body: 'Prefers the patio', author_name: null });
    expect((await call(alice, 'POST', `${base}/notes/`, { body: '   ' })).json().error.fields).toEqual({
      body: 'Note is required',
    });
    expect((await call(alice, 'GET', `${base}/notes/`)).json().map((n: { body: string }) => n.body)).toEqual([
      'Prefers the patio',
    ]);

    for (const [method, url, payload] of [
      ['GET', `${base}/cards/`, undefined],
      ['POST', `${base}/cards/`, { last_four_digits: '1111' }],
      ['DELETE', `${base}/cards/${card.json().id}/`, undefined],
      ['GET', `${base}/notes/`, undefined],
      ['POST', `${base}/notes/`, { body: 'Sneaky' }],
    ] as const) {
      expect((await call(bob, method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    const other = await create(alice, { email: 'other-card@example.com' });
    expect(
      (await call(alice, 'DELETE', `/api/subscriptions/subscribers/${other.id}/cards/${card.json().id}/`))
        .statusCode,
    ).toBe(404);
    expect((await call(alice, 'DELETE', `${base}/cards/${card.json().id}/`)).statusCode).toBe(204);
    expect((await call(alice, 'GET', `${base}/cards/`)).json()).toEqual([]);
  });

  it('deletes a subscriber with their cards, notes and memberships, keeping a record without personal data', async () => {
    const db = t.database.db;
    const subscriber = await create(alice, {
      email: 'leaving@example.com',
      first_name: 'Lea',
      pos_id: 'POS-LEAVE',
    });
    const base = `/api/subscriptions/subscribers/${subscriber.id}`;
    await call(alice, 'POST', `${base}/cards/`, { last_four_digits: '9999' });
    await call(alice, 'POST', `${base}/notes/`, { body: 'Birthday in May' });
    const list = (
      await call(alice, 'POST', '/api/subscriptions/subscribers/list/', { name: 'Leavers' })
    ).json();
    await call(alice, 'POST', `/api/subscriptions/subscribers/list/${list.id}/members/`, {
      subscriber_ids: [subscriber.id],
    });

    const wrongHash = `${base}/?hashid=nothashid&pos_id=POS-LEAVE`;
    expect((await call(alice, 'DELETE', wrongHash)).statusCode).toBe(404);
    expect(
      (await call(alice, 'DELETE', `${base}/?hashid=${subscriber.hashid}&pos_id=POS-X`)).statusCode,
    ).toBe(404);
    expect((await call(bob, 'DELETE', profileUrl(subscriber))).statusCode).toBe(404);

    expect((await call(alice, 'DELETE', profileUrl(subscriber))).statusCode).toBe(204);
    expect((await call(alice, 'GET', profileUrl(subscriber))).statusCode).toBe(404);
    expect((await call(alice, 'DELETE', profileUrl(subscriber))).statusCode).toBe(404);
    const leftovers = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ cards: number; notes: number; members: number }>(
        `SELECT (SELECT count(*)::int FROM profile_cards WHERE subscriber_id = $1) AS cards,
                (SELECT count(*)::int FROM notes WHERE subscriber_id = $1) AS notes,
                (SELECT count(*)::int FROM subscriber_list_members WHERE subscriber_id = $1) AS members`,
        [subscriber.id],
      );
      return rows[0];
    });
    expect(leftovers).toEqual({ cards: 0, notes: 0, members: 0 });
    expect(
      (await call(alice, 'GET', `/api/subscriptions/subscribers/list/${list.id}/members/`)).json().count,
    ).toBe(0);

    const deleted = (
      await call(
        alice,
        'GET',
        '/api/bigdata/get-deleted-customers/?customer_type=subscriber&pos_id=POS-LEAVE',
      )
    ).json();
    expect(deleted.results).toEqual([
      {
        id: expect.any(Number),
        customer_type: 'subscriber',
        pos_id: 'POS-LEAVE',
        original_id: subscriber.id,
        deleted_at: expect.any(String),
      },
    ]);
    const audit = await db.tenant(alice.companyId, (sql) =>
      listAudit(sql, alice.companyId, { entity: 'subscriber', entityId: subscriber.id }),
    );
    expect(JSON.stringify(audit)).not.toContain('leaving@example.com');
  });

  it('exports the filtered subscribers as CSV with formulas neutralised', async () => {
    const company = await t.newCaller('Export Co');
    const north = await makeLocation(t.database.db, company.companyId, 'North');
    await create(company, {
      email: 'hyper@example.com',
      first_name: '=HYPERLINK("http://evil.example","click")',
      last_name: '@SUM(A1)',
      phone: '+503-555-0100',
      source_location_id: north.id,
    });
    await create(company, { email: 'plain@example.com', first_name: '-dash', last_name: 'Plain' });

    const all = await call(company, 'GET', '/api/subscriptions/subscribers/export/');
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toContain('text/csv');
    expect(all.headers['content-disposition']).toBe('attachment; filename="subscribers.csv"');
    const lines = all.body.split('\r\n');
    expect(lines[0]).toBe(
      'id,email,first_name,last_name,phone,zip,birthday,subscribed,pos_id,source_location_id,created_at',
    );
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(lines[1]).toContain(
      `hyper@example.com,"'=HYPERLINK(""http://evil.example"",""click"")",'@SUM(A1),'+5035550100,`,
    );
    expect(lines[2]).toContain("plain@example.com,'-dash,Plain,");

    const filtered = await call(
      company,
      'GET',
      `/api/subscriptions/subscribers/export/?location_id=${north.id}`,
    );
    expect(filtered.body.split('\r\n').filter(Boolean)).toHaveLength(2);
    const searched = await call(company, 'GET', '/api/subscriptions/subscribers/export/?q=plain');
    expect(searched.body).not.toContain('hyper@example.com');
    expect((await call(bob, 'GET', '/api/subscriptions/subscribers/export/')).body).not.toContain(
      'hyper@example.com',
    );
  });

  it('lets an analyst read but not write, and only admins delete', async () => {
    const analyst = await t.newUser(alice.companyId, 'analyst');
    const marketer = await t.newUser(alice.companyId, 'marketer');
    expect((await call(analyst, 'GET', '/api/subscriptions/subscribers/')).statusCode).toBe(200);
    expect(
      (await call(analyst, 'POST', '/api/subscriptions/subscribers/', { email: 'a@example.com' })).statusCode,
    ).toBe(403);
    const subscriber = await create(marketer, { email: 'by-marketer@example.com' });
    expect((await call(marketer, 'DELETE', profileUrl(subscriber))).statusCode).toBe(403);
    expect((await call(alice, 'GET', profileUrl(subscriber))).statusCode).toBe(200);
  });

  it('keeps emails, names, phones and card digits out of the request logs', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logged = await buildApp({
      db: t.database.db,
      logLevel: 'debug',
      clientDir: null,
      logStream: stream,
      auth: t.auth,
    });
    const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
      logged.inject({ method, url, payload, headers: alice.headers });
    const created = await inject('POST', '/api/subscriptions/subscribers/', {
      email: 'secret.person@example.com',
      first_name: 'Secretfirst',
      last_name: 'Secretlast',
      phone: '503-555-0177',
    });
    const subscriber = created.json();
    await inject('POST', '/api/subscriptions/subscribers/', { email: 'secret.person@example.com' });
    await inject('POST', '/api/subscriptions/subscribers/', {
      email: 'secret.person@',
      phone: 'Secretphone',
    });
    await inject('GET', '/api/subscriptions/subscribers/?q=secret.person%40example.com');
    await inject('GET', profileUrl(subscriber));
    await inject('POST', `/api/subscriptions/subscribers/${subscriber.id}/cards/`, {
      last_four_digits: '8642',
      name_on_card: 'Secretcard',
    });
    await inject('GET', '/api/subscriptions/subscribers/export/?q=Secretlast');
    await logged.close();

    const log = lines.join('');
    expect(log).toContain('/api/subscriptions/subscribers/?q=[redacted]');
    // Whole-number boundaries: a response time such as 4.864270 must not pass for the card digits 8642.
    expect(log).not.toMatch(
      /secret\.person|Secretfirst|Secretlast|Secretphone|Secretcard|503-555-0177|\b8642\b/,
    );
  });
});
