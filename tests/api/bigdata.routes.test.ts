import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { LIMITS } from '../../src/schemas/constants.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { recordVisits } from '../support/customers.js';
import { makeGuest, makeLocation, makeSubscriber } from '../support/factories.js';

/** Writes many guests at once (named Guest 1…n, POS ids BULK-1…n), as the POS import would, oldest first. */
async function bulkGuests(db: Database, companyId: number, count: number, locationId: number | null) {
  await db.owner((sql) =>
    sql.query(
      `INSERT INTO guests (company_id, pos_id, hashid, customer_name, last_four_digits, first_location_id)
       SELECT $1, 'BULK-' || n, $2 || n, 'Guest ' || n, lpad((n % 10000)::text, 4, '0'), $3
       FROM generate_series(1, $4) AS n ORDER BY n`,
      [companyId, randomBytes(4).toString('hex'), locationId, count],
    ),
  );
  // What createGuest does for a first location: the location filters read guest_locations.
  await db.owner((sql) =>
    sql.query(
      `INSERT INTO guest_locations (company_id, guest_id, location_id)
       SELECT company_id, id, first_location_id FROM guests
       WHERE company_id = $1 AND first_location_id IS NOT NULL ON CONFLICT DO NOTHING`,
      [companyId],
    ),
  );
}

describe('Big-data API', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
  });
  afterAll(() => t.close());

  const get = (caller: ApiCaller, url: string) =>
    t.app.inject({ method: 'GET', url, headers: caller.headers });

  it('pages guests oldest first, filtered by subscription and location', async () => {
    const db = t.database.db;
    const company = await t.newCaller('Bigdata guests Co');
    const north = await makeLocation(db, company.companyId, 'North');
    const south = await makeLocation(db, company.companyId, 'South');
    const a = await makeGuest(db, company.companyId, { customer_name: 'A', first_location_id: north.id });
    const b = await makeGuest(db, company.companyId, { customer_name: 'B' });
    const c = await makeGuest(db, company.companyId, { customer_name: 'C', last_four_digits: '4321' });
    await recordVisits(db, company.companyId, b.id, [
      { locationId: south.id, day: 1, lines: [], totalCents: 100 },
    ]);
    await makeSubscriber(db, company.companyId, { guest_id: c.id });
    await makeSubscriber(db, company.companyId, { guest_id: a.id });

    const all = (await get(company, '/api/pos/guests-bigdata/?page_size=2')).json();
    expect(all.count).toBe(3);
    expect(all.results).toEqual([
      {
        id: a.id,
        hashid: a.hashid,
        pos_id: a.pos_id,
        customer_name: 'A',
        last_four_digits: '',
        is_subscriber: true,
      },
      {
        id: b.id,
        hashid: b.hashid,
        pos_id: b.pos_id,
        customer_name: 'B',
        last_four_digits: '',
        is_subscriber: false,
      },
    ]);
    expect((await get(company, all.next)).json().results.map((g: { id: number }) => g.id)).toEqual([c.id]);
    const idsOf = async (query: string) =>
      (await get(company, `/api/pos/guests-bigdata/?${query}`))
        .json()
        .results.map((g: { id: number }) => g.id);
    expect(await idsOf('is_subscriber=true')).toEqual([a.id, c.id]);
    expect(await idsOf('is_subscriber=false')).toEqual([b.id]);
    expect(await idsOf(`location_id=${south.id}`)).toEqual([b.id]);
    expect(await idsOf(`is_subscriber=true&location_id=${north.id}&location_id=${south.id}`)).toEqual([a.id]);
    const bad = await get(company, '/api/pos/guests-bigdata/?is_subscriber=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ is_subscriber: 'is_subscriber is not valid' });
    expect((await get(bob, '/api/pos/guests-bigdata/')).json().count).toBe(0);
  });

  it('answers file URLs page by page and each file as CSV with a header, in id order', async () => {
    const db = t.database.db;
    const company = await t.newCaller('Files Co');
    const north = await makeLocation(db, company.companyId, 'North');
    const total = LIMITS.fileRowsPerFile * LIMITS.fileUrlsPerPage + 50;
    await bulkGuests(db, company.companyId, total, north.id);
    await makeGuest(db, company.companyId, {
      customer_name: '=1+2',
      pos_id: '-POS',
      last_four_digits: '1234',
    });

    const page1 = (await get(company, `/api/bigdata/file-urls/?location_id=${north.id}`)).json();
    expect(page1.count).toBe(total);
    expect(page1.max_count).toBe(LIMITS.fileRowsPerFile);
    expect(page1.urls).toHaveLength(LIMITS.fileUrlsPerPage);
    expect(page1.urls[0]).toBe(`/api/bigdata/files/guest/1/?location_id=${north.id}`);
    const page2 = (await get(company, `/api/bigdata/file-urls/?location_id=${north.id}&page=2`)).json();
    expect(page2.urls).toEqual([
      `/api/bigdata/files/guest/${LIMITS.fileUrlsPerPage + 1}/?location_id=${north.id}`,
    ]);
    expect((await get(company, `/api/bigdata/file-urls/?location_id=${north.id}&page=3`)).json()).toEqual({
      count: total,
      max_count: LIMITS.fileRowsPerFile,
      urls: [],
    });

    const first = await get(company, page1.urls[0]);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toContain('text/csv');
    const firstLines = first.body.split('\r\n').filter(Boolean);
    expect(firstLines).toHaveLength(LIMITS.fileRowsPerFile + 1);
    expect(firstLines.slice(0, 3)).toEqual([
      'customer_name,last_four_digits,pos_id',
      'Guest 1,0001,BULK-1',
      'Guest 2,0002,BULK-2',
    ]);
    const second = (await get(company, `/api/bigdata/files/guest/2/?location_id=${north.id}`)).body.split(
      '\r\n',
    );
    expect(second[1]).toBe(`Guest ${LIMITS.fileRowsPerFile + 1},0101,BULK-${LIMITS.fileRowsPerFile + 1}`);
    const last = (await get(company, page2.urls[0])).body.split('\r\n').filter(Boolean);
    expect(last).toHaveLength(51);
    expect(last[50]).toBe(`Guest ${total},${String(total % 10000).padStart(4, '0')},BULK-${total}`);

    // Without the location filter the last guest (not at North) is in the file after the bulk ones.
    const everyone = (await get(company, '/api/bigdata/file-urls/?page=2')).json();
    expect(everyone.count).toBe(total + 1);
    const tail = (await get(company, everyone.urls[0])).body.split('\r\n').filter(Boolean);
    expect(tail[tail.length - 1]).toBe("'=1+2,1234,'-POS");
    expect((await get(company, '/api/bigdata/files/guest/99/')).body).toBe(
      'customer_name,last_four_digits,pos_id\r\n',
    );

    expect((await get(bob, page1.urls[0])).body).toBe('customer_name,last_four_digits,pos_id\r\n');
    expect((await get(bob, `/api/bigdata/file-urls/?location_id=${north.id}`)).json()).toEqual({
      count: 0,
      max_count: LIMITS.fileRowsPerFile,
      urls: [],
    });
    const badKind = await get(company, '/api/bigdata/files/people/1/');
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().error.fields).toEqual({ kind: 'Kind is not valid' });
    expect((await get(company, '/api/bigdata/files/guest/0/')).json().error.fields).toEqual({
      fileNumber: 'fileNumber must be 1 or more',
    });
  });

  it('answers subscriber files as email,pos_id with an empty POS id when unknown', async () => {
    const db = t.database.db;
    const company = await t.newCaller('Subscriber files Co');
    const north = await makeLocation(db, company.companyId, 'North');
    await makeSubscriber(db, company.companyId, {
      email: 'one@example.com',
      pos_id: 'P1',
      source_location_id: north.id,
    });
    await makeSubscriber(db, company.companyId, { email: 'two@example.com', source_location_id: north.id });
    await makeSubscriber(db, company.companyId, { email: 'elsewhere@example.com' });

    const urls = (
      await get(company, `/api/bigdata/file-urls/?is_subscriber=true&location_id=${north.id}`)
    ).json();
    expect(urls).toEqual({
      count: 2,
      max_count: LIMITS.fileRowsPerFile,
      urls: [`/api/bigdata/files/subscriber/1/?location_id=${north.id}`],
    });
    expect((await get(company, urls.urls[0])).body).toBe(
      'email,pos_id\r\none@example.com,P1\r\ntwo@example.com,\r\n',
    );
    expect((await get(company, '/api/bigdata/file-urls/?is_subscriber=true')).json().count).toBe(3);
    expect((await get(company, '/api/bigdata/file-urls/?is_subscriber=yes')).json().error.fields).toEqual({
      is_subscriber: 'is_subscriber is not valid',
    });
  });

  it('tells which POS ids already have a guest or subscriber in the company', async () => {
    const db = t.database.db;
    await makeGuest(db, alice.companyId, { pos_id: 'EX-1' });
    await makeGuest(db, alice.companyId, { pos_id: 'EX-2' });
    await makeSubscriber(db, alice.companyId, { pos_id: 'EX-2' });
    await makeGuest(db, bob.companyId, { pos_id: 'EX-3' });

    const guests = await get(
      alice,
      '/api/bigdata/existing-records/?kind=guest&pos_id=EX-1&pos_id=EX-2&pos_id=EX-3',
    );
    expect(guests.json()).toEqual({ kind: 'guest', pos_ids: ['EX-1', 'EX-2'] });
    const subscribers = await get(
      alice,
      '/api/bigdata/existing-records/?kind=subscriber&pos_id=EX-1&pos_id=EX-2',
    );
    expect(subscribers.json()).toEqual({ kind: 'subscriber', pos_ids: ['EX-2'] });
    expect((await get(alice, '/api/bigdata/existing-records/?kind=guest')).json()).toEqual({
      kind: 'guest',
      pos_ids: [],
    });
    expect((await get(bob, '/api/bigdata/existing-records/?kind=guest&pos_id=EX-1')).json().pos_ids).toEqual(
      [],
    );
    const bad = await get(alice, '/api/bigdata/existing-records/?pos_id=EX-1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ kind: 'Kind is not valid' });
  });

  it('lists deleted customers newest first, by type and POS id, without personal data', async () => {
    const company = await t.newCaller('Deleted Co');
    const db = t.database.db;
    const guest = await makeGuest(db, company.companyId, { pos_id: 'DEL-G', customer_name: 'Dee Lee' });
    const subscriber = await makeSubscriber(db, company.companyId, { email: 'del@example.com' });
    const inject = (url: string) => t.app.inject({ method: 'DELETE', url, headers: company.headers });
    expect(
      (await inject(`/api/pos/guests/${guest.id}/?hashid=${guest.hashid}&pos_id=DEL-G`)).statusCode,
    ).toBe(204);
    expect(
      (await inject(`/api/subscriptions/subscribers/${subscriber.id}/?hashid=${subscriber.hashid}`))
        .statusCode,
    ).toBe(204);

    const all = (await get(company, '/api/bigdata/get-deleted-customers/')).json();
    expect(all.count).toBe(2);
    expect(all.results.map((row: { customer_type: string }) => row.customer_type)).toEqual([
      'subscriber',
      'guest',
    ]);
    expect(all.results[0]).toEqual({
      id: expect.any(Number),
      customer_type: 'subscriber',
      pos_id: null,
      original_id: subscriber.id,
      deleted_at: expect.any(String),
    });
    expect(JSON.stringify(all)).not.toMatch(/Dee Lee|del@example\.com/);
    expect(
      (await get(company, '/api/bigdata/get-deleted-customers/?pos_id=DEL-G')).json().results,
    ).toHaveLength(1);
    expect((await get(company, '/api/bigdata/get-deleted-customers/?customer_type=guest')).json().count).toBe(
      1,
    );
    expect(
      (await get(company, '/api/bigdata/get-deleted-customers/?customer_type=user')).json().error.fields,
    ).toEqual({
      customer_type: 'Kind is not valid',
    });
    expect((await get(bob, '/api/bigdata/get-deleted-customers/')).json().count).toBe(0);
  });
});
