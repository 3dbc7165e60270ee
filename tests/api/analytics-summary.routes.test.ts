import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { makeLocation } from '../support/factories.js';

// The Summary and Overview calls' edges: who may read, what a bad query names, another company's location.
// Their figures are checked against the checks in tests/db/analytics-summary.test.ts.

describe('GET /api/analytics/summary/ and /api/analytics/overview/', () => {
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
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pos/checks/',
      headers: alice.headers,
      payload: {
        checks: [
          {
            location_id: home,
            check_number: 'A-1',
            opened_at: '2025-03-04T18:00:00Z',
            closed_at: '2025-03-04T19:00:00Z',
            total: 42.5,
            guest: { pos_id: 'G-1' },
            lines: [],
          },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
  });
  afterAll(() => t.close());

  const get = (caller: { headers: Record<string, string> } | null, url: string) =>
    t.app.inject({ method: 'GET', url, ...(caller ? { headers: caller.headers } : {}) });

  for (const path of ['/api/analytics/summary/', '/api/analytics/overview/']) {
    it(`${path}: refuses a caller who is not signed in`, async () => {
      expect((await get(null, `${path}?from_date=2025-03-01&to_date=2025-03-31`)).statusCode).toBe(401);
    });

    it(`${path}: names the field of a bad query`, async () => {
      for (const [query, field] of [
        ['to_date=2025-03-31', 'from_date'],
        ['from_date=2025-3-1&to_date=2025-03-31', 'from_date'],
        ['from_date=2025-03-31&to_date=2025-03-01', 'to_date'],
        ['from_date=2023-01-01&to_date=2025-03-01', 'to_date'],
        ['from_date=2025-03-01&to_date=2025-03-31&compare=yes', 'compare'],
        ['from_date=2025-03-01&to_date=2025-03-31&location_id=x', 'location_id'],
      ] as const) {
        const response = await get(alice, `${path}?${query}`);
        expect(response.statusCode, query).toBe(400);
        // A repeated parameter's item is named with its place (`location_id.0`).
        const fields = Object.keys(response.json().error.fields ?? {}).map((name) => name.split('.')[0]);
        expect(fields, query).toContain(field);
      }
    });

    it(`${path}: answers 404 for another company's location, never its figures`, async () => {
      const response = await get(
        alice,
        `${path}?from_date=2025-03-01&to_date=2025-03-31&location_id=${bobsPlace}`,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe('Location not found');
      const other = await get(
        alice,
        `${path}?from_date=2025-03-01&to_date=2025-03-31&location_group_id=999999`,
      );
      expect(other.statusCode).toBe(404);
    });

    it(`${path}: lets an analyst read the figures, with the previous period when asked`, async () => {
      const analyst = await t.newUser(alice.companyId, 'analyst');
      const response = await get(analyst, `${path}?from_date=2025-03-01&to_date=2025-03-31&compare=previous`);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.range).toEqual({ from: '2025-03-01', to: '2025-03-31' });
      expect(body.previous).toEqual({ from: '2025-01-29', to: '2025-02-28' });
      expect(body.totals).toMatchObject({ revenue: 42.5, checks: 1, guests: 1, new_guests: 1 });
      expect(body.previous_totals).toMatchObject({ revenue: 0, checks: 0 });
      expect(body.series).toHaveLength(31);
      expect(body.locations).toEqual([
        expect.objectContaining({ location_id: home, revenue: 42.5, trend: expect.any(Array) }),
      ]);
      const bobs = (await get(bob, `${path}?from_date=2025-03-01&to_date=2025-03-31`)).json();
      expect(bobs.totals.checks).toBe(0);
    });
  }
});
