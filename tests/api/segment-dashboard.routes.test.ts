import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeGuest, makeLocation } from '../support/factories.js';

/**
 * `GET /benchmark/segment-dashboardv2/{id}/`: the cached figures and the distributions of a segment's members
 * by visits, spend and location, each checked against a count worked out here in plain JS from the checks sent
 * (buckets written out by hand below, not read from the code under test); the picker, the segment's own
 * locations, the "computing" defaults, bad ids and isolation.
 */

interface SentCheck {
  location_id: number;
  check_number: string;
  opened_at: string;
  closed_at: string;
  total: number;
  guest: { pos_id: string };
  lines: never[];
}

/** A guest as the checks sent make them: visits, spend in cents, locations with a check. */
interface GuestSent {
  visits: number;
  spendCents: number;
  locations: Set<number>;
}

// The buckets as the issue names them, written independently of the schema's bounds.
const VISIT_BUCKETS: Array<[number, number | null]> = [
  [0, 0],
  [1, 1],
  [2, 2],
  [3, 3],
  [4, 5],
  [6, 10],
  [11, 20],
  [21, null],
];
const SPEND_BUCKETS: Array<[number, number | null]> = [
  [0, 0],
  [0.01, 24.99],
  [25, 49.99],
  [50, 99.99],
  [100, 249.99],
  [250, 499.99],
  [500, 999.99],
  [1000, null],
];

/** The expected buckets of `figures` over the ranges, both ends included. */
function expectedBuckets(figures: number[], ranges: Array<[number, number | null]>) {
  return ranges.map(([min, max]) => ({
    min,
    max,
    count: figures.filter((figure) => figure >= min && (max === null || figure <= max)).length,
  }));
}

describe('segment dashboard v2', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let home: number;
  let away: number;
  let corner: number;
  let bobsPlace: number;
  const guests = new Map<string, GuestSent>();
  const random = seededRandom(2024);

  const get = (caller: ApiCaller, url: string) =>
    t.app.inject({ method: 'GET', url, headers: caller.headers });
  const save = async (caller: ApiCaller, body: object) => {
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/segments/',
      headers: caller.headers,
      payload: body,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    return saved.json<{ id: number; segmentcache: Record<string, unknown> }>();
  };
  const dashboardOf = async (id: number, query = '') => {
    const answer = await get(alice, `/api/benchmark/segment-dashboardv2/${id}/${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };
  /** The members' expected distributions: every guest `keep` holds for. */
  const expected = (keep: (guest: GuestSent) => boolean) => {
    const members = [...guests.values()].filter(keep);
    return {
      members: members.length,
      visits: expectedBuckets(
        members.map((guest) => guest.visits),
        VISIT_BUCKETS,
      ),
      spend: expectedBuckets(
        members.map((guest) => guest.spendCents / 100),
        SPEND_BUCKETS,
      ),
      locations: [
        { id: home, name: 'Home' },
        { id: away, name: 'Away' },
        { id: corner, name: 'Corner' },
      ]
        .map((location) => ({
          ...location,
          count: members.filter((guest) => guest.locations.has(location.id)).length,
        }))
        .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    };
  };

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
    const db = t.database.db;
    home = (await makeLocation(db, alice.companyId, 'Home')).id;
    away = (await makeLocation(db, alice.companyId, 'Away')).id;
    corner = (await makeLocation(db, alice.companyId, 'Corner')).id;
    bobsPlace = (await makeLocation(db, bob.companyId, 'Bob’s')).id;
    // 50 guests with 1–30 checks of $0–$200 each (some at the bucket edges), at two of the three locations.
    const checks: SentCheck[] = [];
    for (let guest = 0; guest < 50; guest++) {
      const visits = guest < 8 ? guest + 1 : 1 + Math.floor(random() * 30);
      const posId = `G-${guest}`;
      const sent: GuestSent = { visits, spendCents: 0, locations: new Set() };
      for (let n = 0; n < visits; n++) {
        const cents = guest === 0 ? 2_500 : guest === 1 ? 0 : Math.floor(random() * 20_000);
        const location = random() < 0.7 ? home : away;
        const closed = new Date(Date.now() - Math.floor(random() * 300 * 24 * 60) * 60_000);
        checks.push({
          location_id: location,
          check_number: `D-${guest}-${n}`,
          opened_at: new Date(closed.getTime() - 30 * 60_000).toISOString(),
          closed_at: closed.toISOString(),
          total: cents / 100,
          guest: { pos_id: posId },
          lines: [],
        });
        sent.spendCents += cents;
        sent.locations.add(location);
      }
      guests.set(posId, sent);
    }
    for (let start = 0; start < checks.length; start += 200) {
      const batch = await t.app.inject({
        method: 'POST',
        url: '/api/pos/checks/',
        headers: alice.headers,
        payload: { checks: checks.slice(start, start + 200) },
      });
      expect(batch.statusCode, batch.body).toBe(200);
    }
    // Three guests without a check, one of them first seen at the corner (a location row with no visit).
    for (const posId of ['N-1', 'N-2', 'N-3']) {
      await makeGuest(db, alice.companyId, {
        pos_id: posId,
        ...(posId === 'N-1' ? { first_location_id: corner } : {}),
      });
      guests.set(posId, { visits: 0, spendCents: 0, locations: new Set() });
    }
    const bobs = await t.app.inject({
      method: 'POST',
      url: '/api/pos/checks/',
      headers: bob.headers,
      payload: { checks: [{ ...checks[0]!, location_id: bobsPlace, check_number: 'B-1' }] },
    });
    expect(bobs.statusCode, bobs.body).toBe(200);
  });
  afterAll(() => t.close());

  it('answers every guest of a segment without rules, by visits, spend and location', async () => {
    const everyone = await save(alice, { name: 'Everyone', segment_groups: [] });
    const answer = await dashboardOf(everyone.id);
    expect(answer.segment).toEqual({ id: everyone.id, name: 'Everyone' });
    expect(answer.computing).toBe(false);
    expect(answer.segmentcache).toEqual(everyone.segmentcache);
    expect(answer.distributions).toEqual(expected(() => true));
    // Edges: $25.00 exactly is in 25–49.99, $0 of spend with checks is in the $0 bucket, 0 visits in 0.
    expect(answer.distributions.spend[0].count).toBeGreaterThanOrEqual(4);
    expect(answer.distributions.visits[0].count).toBe(3);
  });

  it('counts a rule set’s members only, and honours the picker and the segment’s own locations', async () => {
    const rules = {
      segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 4 }] }],
    };
    const regulars = await save(alice, { name: 'Four and up', ...rules });
    expect(await dashboardOf(regulars.id).then((answer) => answer.distributions)).toEqual(
      expected((guest) => guest.visits >= 4),
    );
    const atAway = await dashboardOf(regulars.id, `?location_id=${away}`);
    expect(atAway.distributions).toEqual(expected((guest) => guest.visits >= 4 && guest.locations.has(away)));
    // The cache stays the segment's own: the picker narrows the distributions only.
    expect(atAway.segmentcache.all_customers).toBe(expected((guest) => guest.visits >= 4).members);

    const homeOnly = await save(alice, { name: 'Home regulars', location_ids: [home], ...rules });
    expect((await dashboardOf(homeOnly.id)).distributions).toEqual(
      expected((guest) => guest.visits >= 4 && guest.locations.has(home)),
    );
    // Its own locations and the picker share none: nobody, every location still listed at 0.
    const none = await dashboardOf(homeOnly.id, `?location_id=${corner}`);
    expect(none.distributions).toEqual(expected(() => false));
  });

  it('shows the zeroed defaults and "computing" while the figures are absent', async () => {
    const segment = await save(alice, { name: 'Not yet', segment_groups: [] });
    await t.database.db.owner((sql) =>
      sql.query('DELETE FROM segment_cache WHERE segment_id = $1', [segment.id]),
    );
    const answer = await dashboardOf(segment.id);
    expect(answer.computing).toBe(true);
    expect(answer.segmentcache.id).toBe(10_000 + segment.id);
    expect(answer.segmentcache.all_customers).toBe(0);
    expect(answer.segmentcache.computed_at).toBeNull();
    // The distributions do not wait for the cache.
    expect(answer.distributions.members).toBe(guests.size);
  });

  it('refuses bad ids and keeps each company to its own', async () => {
    const mine = await save(alice, { name: 'Mine', segment_groups: [] });
    expect((await get(bob, `/api/benchmark/segment-dashboardv2/${mine.id}/`)).statusCode).toBe(404);
    expect((await get(alice, '/api/benchmark/segment-dashboardv2/999999999/')).statusCode).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const answer = await get(alice, `/api/benchmark/segment-dashboardv2/${bad}/`);
      expect(answer.statusCode, bad).toBe(400);
      expect(answer.json().error.fields).toHaveProperty('id');
    }
    const badPicker = await get(alice, `/api/benchmark/segment-dashboardv2/${mine.id}/?location_id=x`);
    expect(badPicker.statusCode).toBe(400);
    expect(Object.keys(badPicker.json().error.fields).join()).toMatch(/^location_id/);
    // Another company's location in the picker is a 404, never a count over its guests.
    expect(
      (await get(alice, `/api/benchmark/segment-dashboardv2/${mine.id}/?location_id=${bobsPlace}`))
        .statusCode,
    ).toBe(404);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/benchmark/segment-dashboardv2/${mine.id}/`,
    });
    expect(anonymous.statusCode).toBe(401);
    // Bob's own dashboard lists Bob's location only.
    const bobs = await save(bob, { name: 'Bob’s everyone', segment_groups: [] });
    const answer = (await get(bob, `/api/benchmark/segment-dashboardv2/${bobs.id}/`)).json();
    expect(answer.distributions.members).toBe(1);
    expect(answer.distributions.locations).toEqual([{ id: bobsPlace, name: 'Bob’s', count: 1 }]);
  });
});
