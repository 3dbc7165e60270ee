import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLocation, makeSubscriber } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';

const PATHS = ['/api/analytics/guests/', '/api/analytics/demographics/'];
const MARCH = 'from_date=2025-03-01&to_date=2025-03-31';

describe('guest dashboard calls', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let north: number;
  let south: number;
  let bobsPlace: number;
  let bobsGroup: number;

  const get = (caller: ApiCaller | null, url: string) =>
    t.app.inject({ method: 'GET', url, ...(caller ? { headers: caller.headers } : {}) });

  /** A check at a location on a day (mid-afternoon in New York), for a guest or none. */
  const check = (location: number, number: string, day: string, guest?: string) => ({
    location_id: location,
    check_number: number,
    opened_at: `${day}T17:00:00Z`,
    closed_at: `${day}T18:00:00Z`,
    total: 25,
    lines: [{ menu_item: 'Tea', quantity: 1, amount: 25 }],
    ...(guest ? { guest: { pos_id: guest } } : {}),
  });

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Dashboards');
    bob = await t.newCaller('Bob Dashboards');
    const db = t.database.db;
    north = (await makeLocation(db, alice.companyId, 'North')).id;
    south = (await makeLocation(db, alice.companyId, 'South')).id;
    bobsPlace = (await makeLocation(db, bob.companyId, 'Bob’s')).id;
    bobsGroup = (await makeTestLocationGroup(db, bob.companyId, 'Bob’s group', [bobsPlace])).id;
    await db.owner((sql) =>
      sql.query(
        `UPDATE locations SET zip = CASE name WHEN 'North' THEN '94110' ELSE '94111' END WHERE id = ANY($1)`,
        [[north, south]],
      ),
    );
    // G1 new in March with two visits at North; G2 came in January, back in March at South; G3 new at South.
    const checks = [
      check(north, '1', '2025-03-05', 'G1'),
      check(north, '2', '2025-03-20', 'G1'),
      check(north, '3', '2025-01-10', 'G2'),
      check(south, '4', '2025-03-12', 'G2'),
      check(south, '5', '2025-03-25', 'G3'),
      check(south, '6', '2025-03-15'),
    ];
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/pos/checks/',
      payload: { checks },
      headers: alice.headers,
    });
    expect(sent.statusCode).toBe(200);
    // Bob's guests carry the same POS ids and days: a leak would change Alice's figures.
    const bobs = await t.app.inject({
      method: 'POST',
      url: '/api/pos/checks/',
      payload: { checks: checks.map((one) => ({ ...one, location_id: bobsPlace })) },
      headers: bob.headers,
    });
    expect(bobs.statusCode).toBe(200);
    const guests = await db.owner(
      async (sql) =>
        (
          await sql.query<{ id: number; pos_id: string }>(
            'SELECT id, pos_id FROM guests WHERE company_id = $1',
            [alice.companyId],
          )
        ).rows,
    );
    const guest = (posId: string) => Number(guests.find((row) => row.pos_id === posId)!.id);
    await makeSubscriber(db, alice.companyId, {
      guest_id: guest('G1'),
      birthday: '1990-06-01',
      zip: '94110',
    });
    await makeSubscriber(db, alice.companyId, { guest_id: guest('G2'), zip: '10001' });
  });
  afterAll(() => t.close());

  it('answers the guest figures of the range, the whole company and one location', async () => {
    const all = (await get(alice, `/api/analytics/guests/?${MARCH}&compare=previous`)).json();
    expect(all.range).toEqual({ from: '2025-03-01', to: '2025-03-31' });
    expect(all.previous).toEqual({ from: '2025-01-29', to: '2025-02-28' });
    expect(all.totals).toEqual({ guests: 3, new_guests: 2, returning_guests: 1, visits: 4 });
    expect(all.previous_totals).toEqual({ guests: 0, new_guests: 0, returning_guests: 0, visits: 0 });
    expect(all.period).toBe('day');
    expect(all.new_vs_returning).toHaveLength(31);
    expect(all.new_vs_returning[11]).toEqual({ period: '2025-03-12', new_guests: 0, returning_guests: 1 });
    expect(all.new_vs_returning[4]).toEqual({ period: '2025-03-05', new_guests: 1, returning_guests: 0 });
    expect(all.new_vs_returning[19]).toEqual({ period: '2025-03-20', new_guests: 0, returning_guests: 1 });
    expect(all.visit_frequency).toEqual([
      { visits: 1, guests: 2 },
      { visits: 2, guests: 1 },
    ]);
    // A year of cohorts up to March: G2's January, then G1 and G3 in March.
    expect(all.cohorts.map((row: { cohort: string; size: number }) => [row.cohort, row.size])).toEqual([
      ['2025-01', 1],
      ['2025-03', 2],
    ]);
    expect(all.cohorts[0].months.map((month: { active: number }) => month.active)).toEqual([1, 0, 1]);
    const here = (await get(alice, `/api/analytics/guests/?${MARCH}&location_id=${north}`)).json();
    expect(here.totals).toEqual({ guests: 1, new_guests: 1, returning_guests: 0, visits: 2 });
    expect(here.previous_totals).toBeNull();
  });

  it('answers the people of the range by kind, age band, zip and distance', async () => {
    const response = await get(alice, `/api/analytics/demographics/?${MARCH}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      range: { from: '2025-03-01', to: '2025-03-31' },
      previous: null,
      share: { people: 3, guests_subscribed: 2, guests_only: 1, subscribers_only: 0 },
      previous_share: null,
      age_bands: [
        { band: 'under_18', people: 0 },
        { band: '18_24', people: 0 },
        { band: '25_34', people: 1 },
        { band: '35_44', people: 0 },
        { band: '45_54', people: 0 },
        { band: '55_64', people: 0 },
        { band: '65_plus', people: 0 },
      ],
      no_birthday: 2,
      zips: [
        { zip: '10001', people: 1, share: 0.5 },
        { zip: '94110', people: 1, share: 0.5 },
      ],
      other_zips: 0,
      no_zip: 1,
      // G1 lives in North's zip; G2 came to South from elsewhere; G3 gave no zip.
      distance: { same_zip: 1, elsewhere: 1, unknown: 1 },
    });
  });

  it('lets an analyst read both', async () => {
    const analyst = await t.newUser(alice.companyId, 'analyst');
    for (const path of PATHS) {
      expect((await get(analyst, `${path}?${MARCH}`)).statusCode, path).toBe(200);
    }
  });

  it('refuses bad dates and filters naming the field', async () => {
    const cases: [string, string][] = [
      ['to_date=2025-03-31', 'from_date'],
      ['from_date=2025-13-01&to_date=2025-12-31', 'from_date'],
      ['from_date=2025-03-01&to_date=yesterday', 'to_date'],
      ['from_date=2025-05-01&to_date=2025-04-30', 'to_date'],
      ['from_date=2023-01-01&to_date=2025-01-31', 'to_date'],
      [`${MARCH}&compare=next`, 'compare'],
      [`${MARCH}&location_id=abc`, 'location_id'],
      [`${MARCH}&location_group_id=-1`, 'location_group_id'],
    ];
    for (const path of PATHS) {
      for (const [query, field] of cases) {
        const response = await get(alice, `${path}?${query}`);
        expect(response.statusCode, `${path}?${query}`).toBe(400);
        const fields = Object.keys(response.json().error.fields as object);
        // A repeated parameter's field is named with its position (location_id.0).
        expect(
          fields.map((name) => name.split('.')[0]),
          `${path}?${query}`,
        ).toContain(field);
      }
    }
  });

  it("answers 404 for another company's location or group, and 401 without credentials", async () => {
    for (const path of PATHS) {
      expect((await get(alice, `${path}?${MARCH}&location_id=${bobsPlace}`)).statusCode).toBe(404);
      expect(
        (await get(alice, `${path}?${MARCH}&location_id=${north}&location_group_id=${bobsGroup}`)).statusCode,
      ).toBe(404);
      expect((await get(null, `${path}?${MARCH}`)).statusCode).toBe(401);
    }
  });
});
