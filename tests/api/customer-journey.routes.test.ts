import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import { makeLocation } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';

const PATH = '/api/analytics/customer-journey/';
const MARCH = 'from_date=2025-03-01&to_date=2025-03-31';

describe('customer journey call', () => {
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
    alice = await t.newCaller('Alice Journeys');
    bob = await t.newCaller('Bob Journeys');
    const db = t.database.db;
    north = (await makeLocation(db, alice.companyId, 'North')).id;
    south = (await makeLocation(db, alice.companyId, 'South')).id;
    bobsPlace = (await makeLocation(db, bob.companyId, 'Bob’s')).id;
    bobsGroup = (await makeTestLocationGroup(db, bob.companyId, 'Bob’s group', [bobsPlace])).id;
    // G1 new at North, next at South; G2 new in January, back in March; G3 new, never back; G4 three times at
    // South, the third after March.
    const checks = [
      check(north, '1', '2025-03-05', 'G1'),
      check(south, '2', '2025-03-20', 'G1'),
      check(north, '3', '2025-01-10', 'G2'),
      check(south, '4', '2025-03-12', 'G2'),
      check(south, '5', '2025-03-25', 'G3'),
      check(south, '6', '2025-03-02', 'G4'),
      check(south, '7', '2025-03-09', 'G4'),
      check(south, '8', '2025-04-20', 'G4'),
      check(south, '9', '2025-03-15'),
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
  });
  afterAll(() => t.close());

  it('answers the moves, the days until the next visit and the totals of the range', async () => {
    const response = await get(alice, `${PATH}?${MARCH}&compare=previous`);
    expect(response.statusCode).toBe(200);
    const zeros = {
      guests: 0,
      multi_location_guests: 0,
      multi_location_share: 0,
      new_guests: 0,
      returned_guests: 0,
      return_rate: 0,
    };
    expect(response.json()).toEqual({
      range: { from: '2025-03-01', to: '2025-03-31' },
      previous: { from: '2025-01-29', to: '2025-02-28' },
      company_locations: 2,
      locations: [
        { id: north, name: 'North' },
        { id: south, name: 'South' },
      ],
      moves: [
        { from_location_id: north, to_location_id: south, guests: 1 },
        { from_location_id: south, to_location_id: south, guests: 1 },
        { from_location_id: south, to_location_id: null, guests: 1 },
      ],
      gaps: [
        {
          // G1 back after 15 days, G4 after 7, G3 never.
          visit_number: 1,
          visits: 3,
          returned: 2,
          median_days: 11,
          p25_days: 9,
          p75_days: 13,
          within_30: 0.6667,
          within_60: 0.6667,
          within_90: 0.6667,
          buckets: [1, 0, 1, 0, 0, 0, 0],
          not_returned: 1,
        },
        {
          // G4 back after 42 days (in April); G1 and G2 not yet.
          visit_number: 2,
          visits: 3,
          returned: 1,
          median_days: 42,
          p25_days: 42,
          p75_days: 42,
          within_30: 0,
          within_60: 0.3333,
          within_90: 0.3333,
          buckets: [0, 0, 0, 1, 0, 0, 0],
          not_returned: 2,
        },
      ],
      // G1 came to both locations in March; G4 came back in it, G3 did not.
      totals: {
        guests: 4,
        multi_location_guests: 1,
        multi_location_share: 0.25,
        new_guests: 3,
        returned_guests: 2,
        return_rate: 0.6667,
      },
      previous_totals: zeros,
    });
    const here = (await get(alice, `${PATH}?${MARCH}&location_id=${north}`)).json();
    expect(here.moves).toEqual([{ from_location_id: north, to_location_id: south, guests: 1 }]);
    expect(here.locations.map((location: { id: number }) => location.id)).toEqual([north, south]);
    expect(here.totals).toEqual({
      guests: 1,
      multi_location_guests: 1,
      multi_location_share: 1,
      new_guests: 1,
      returned_guests: 1,
      return_rate: 1,
    });
    expect(here.previous_totals).toBeNull();
  });

  it('lets an analyst read it', async () => {
    const analyst = await t.newUser(alice.companyId, 'analyst');
    expect((await get(analyst, `${PATH}?${MARCH}`)).statusCode).toBe(200);
  });

  it('refuses a company without the Customer Journey feature, as its page does', async () => {
    const carol = await t.newCaller('Carol Journeys', {
      features: ALL_FEATURES.filter((feature) => feature !== 'Customer Journey'),
    });
    const response = await get(carol, `${PATH}?${MARCH}`);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('feature_not_enabled');
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
    for (const [query, field] of cases) {
      const response = await get(alice, `${PATH}?${query}`);
      expect(response.statusCode, query).toBe(400);
      const fields = Object.keys(response.json().error.fields as object);
      // A repeated parameter's field is named with its position (location_id.0).
      expect(
        fields.map((name) => name.split('.')[0]),
        query,
      ).toContain(field);
    }
  });

  it("answers 404 for another company's location or group, and 401 without credentials", async () => {
    expect((await get(alice, `${PATH}?${MARCH}&location_id=${bobsPlace}`)).statusCode).toBe(404);
    expect((await get(alice, `${PATH}?${MARCH}&location_group_id=${bobsGroup}`)).statusCode).toBe(404);
    expect((await get(null, `${PATH}?${MARCH}`)).statusCode).toBe(401);
  });
});
