import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCompanyFeatures } from '../../server/repositories/company-features.repository.js';
import { createSegment } from '../../server/repositories/segments.repository.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';

const PATH = '/api/analytics/consumer-insights/';
const MARCH = 'from_date=2025-03-01&to_date=2025-03-31';

describe('consumer insights call', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let north: number;
  let south: number;
  let bobsPlace: number;
  let bobsGroup: number;
  let regulars: number;
  let bobsSegment: number;

  const get = (caller: ApiCaller | null, url: string) =>
    t.app.inject({ method: 'GET', url, ...(caller ? { headers: caller.headers } : {}) });

  /** A check opened at a UTC hour of a day (New York, the test company's zone, is 4–5 hours behind). */
  const check = (
    location: number,
    number: string,
    openedAt: string,
    guests: number,
    lines: { menu_item: string; category: string; quantity: number; amount: number }[],
    guest?: string,
  ) => ({
    location_id: location,
    check_number: number,
    opened_at: openedAt,
    closed_at: new Date(Date.parse(openedAt) + 3_600_000).toISOString(),
    total: lines.reduce((sum, line) => sum + line.amount, 0), // dollars, as the API takes them
    guest_count: guests,
    lines,
    ...(guest ? { guest: { pos_id: guest } } : {}),
  });
  const tea = (quantity: number) => ({
    menu_item: 'Tea',
    category: 'Drinks',
    quantity,
    amount: 4 * quantity,
  });
  const cake = (quantity: number) => ({
    menu_item: 'Cake',
    category: 'Desserts',
    quantity,
    amount: 6 * quantity,
  });

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Insights');
    bob = await t.newCaller('Bob Insights');
    const db = t.database.db;
    north = (await makeLocation(db, alice.companyId, 'North')).id;
    south = (await makeLocation(db, alice.companyId, 'South')).id;
    bobsPlace = (await makeLocation(db, bob.companyId, 'Bob’s')).id;
    bobsGroup = (await makeTestLocationGroup(db, bob.companyId, 'Bob’s group', [bobsPlace])).id;
    await db.owner((sql) =>
      sql.query(`UPDATE companies SET time_zone = 'America/New_York' WHERE id = ANY($1)`, [
        [alice.companyId, bob.companyId],
      ]),
    );
    // G1: Monday 3 March 08:15 and Monday 10 March 12:30 (New York) at North; G2: 10 January, then Saturday
    // 15 March 19:00 at South; one check without a guest on Friday 28 March 23:30.
    const checks = [
      check(north, '1', '2025-03-03T13:15:00Z', 2, [tea(2)], 'G1'),
      check(north, '2', '2025-03-10T16:30:00Z', 1, [tea(1), cake(1)], 'G1'),
      check(south, '3', '2025-01-10T17:00:00Z', 4, [cake(1)], 'G2'),
      check(south, '4', '2025-03-15T23:00:00Z', 7, [cake(3)], 'G2'),
      check(south, '5', '2025-03-29T03:30:00Z', 3, []),
    ];
    for (const [caller, place] of [
      [alice, null],
      [bob, bobsPlace],
    ] as const) {
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/pos/checks/',
        payload: { checks: place ? checks.map((one) => ({ ...one, location_id: place })) : checks },
        headers: caller.headers,
      });
      expect(sent.statusCode).toBe(200);
    }
    regulars = (
      await db.tenant(alice.companyId, (sql) =>
        createSegment(sql, systemScope(alice.companyId), {
          name: 'Regulars',
          location_ids: [north],
          segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 2 }] }],
        }),
      )
    ).id;
    bobsSegment = (
      await db.tenant(bob.companyId, (sql) =>
        createSegment(sql, systemScope(bob.companyId), { name: 'Bob’s' }),
      )
    ).id;
  });
  afterAll(() => t.close());

  it('answers the figures of the range counted by hand', async () => {
    const response = await get(alice, `${PATH}?${MARCH}&compare=previous`);
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.range).toEqual({ from: '2025-03-01', to: '2025-03-31' });
    expect(answer.previous).toEqual({ from: '2025-01-29', to: '2025-02-28' });
    expect(answer.totals).toEqual({
      checks: 4,
      revenue: 36,
      covers: 13,
      average_check: 9,
      average_party: 3.25,
    });
    expect(answer.previous_totals).toEqual({
      checks: 0,
      revenue: 0,
      covers: 0,
      average_check: null,
      average_party: null,
    });
    const cell = (weekday: number, hour: number) =>
      answer.hours.find(
        (one: { weekday: number; hour: number }) => one.weekday === weekday && one.hour === hour,
      );
    expect(answer.hours).toHaveLength(168);
    expect(cell(1, 8)).toEqual({ weekday: 1, hour: 8, checks: 1, revenue: 8 });
    expect(cell(1, 12)).toEqual({ weekday: 1, hour: 12, checks: 1, revenue: 10 });
    expect(cell(6, 19)).toEqual({ weekday: 6, hour: 19, checks: 1, revenue: 18 });
    expect(cell(5, 23)).toEqual({ weekday: 5, hour: 23, checks: 1, revenue: 0 });
    expect(answer.party_sizes).toEqual([
      { size: '1', checks: 1 },
      { size: '2', checks: 1 },
      { size: '3', checks: 1 },
      { size: '4', checks: 0 },
      { size: '5', checks: 0 },
      { size: '6_plus', checks: 1 },
    ]);
    expect(answer.day_parts).toEqual([
      { day_part: 'breakfast', checks: 1, revenue: 8, average_check: 8 },
      { day_part: 'lunch', checks: 1, revenue: 10, average_check: 10 },
      { day_part: 'dinner', checks: 1, revenue: 18, average_check: 18 },
      { day_part: 'late', checks: 1, revenue: 0, average_check: 0 },
    ]);
    // G1 came back after 7 days, G2 after 64 (10 January → 15 March).
    expect(answer.visit_gaps).toEqual({
      visits: 2,
      median_days: 35.5,
      buckets: [
        { gap: '1_7', visits: 1 },
        { gap: '8_14', visits: 0 },
        { gap: '15_30', visits: 0 },
        { gap: '31_60', visits: 0 },
        { gap: '61_90', visits: 1 },
        { gap: '91_plus', visits: 0 },
      ],
    });
    expect(answer.segments).toEqual([{ id: regulars, name: 'Regulars' }]);
    expect(answer.categories).toMatchObject({ segment_id: null, guests: 2, units: 7, all_units: 7 });
    expect(answer.categories.rows.map((row: { category: string }) => row.category)).toEqual([
      'Desserts',
      'Drinks',
    ]);
  });

  it("answers a segment's favourite categories beside every guest's", async () => {
    // Regulars at North (two visits or more): G1 alone, whose March items are three teas and a cake.
    const answer = (await get(alice, `${PATH}?${MARCH}&segment_id=${regulars}`)).json();
    expect(answer.categories).toEqual({
      segment_id: regulars,
      guests: 1,
      units: 4,
      revenue: 18,
      all_units: 7,
      all_revenue: 36,
      rows: [
        expect.objectContaining({
          category: 'Drinks',
          units: 3,
          units_share: 75,
          revenue_share: 66.67,
          all_units: 3,
          all_units_share: 42.86,
        }),
        expect.objectContaining({
          category: 'Desserts',
          units: 1,
          units_share: 25,
          all_units: 4,
          all_units_share: 57.14,
        }),
      ],
    });
    const south_ = (await get(alice, `${PATH}?${MARCH}&segment_id=${regulars}&location_id=${south}`)).json();
    expect(south_.categories).toMatchObject({ guests: 0, units: 0, rows: [] });
  });

  it('lets an analyst read it', async () => {
    const analyst = await t.newUser(alice.companyId, 'analyst');
    expect((await get(analyst, `${PATH}?${MARCH}`)).statusCode).toBe(200);
  });

  it('refuses bad dates, filters and segment ids naming the field', async () => {
    const cases: [string, string][] = [
      ['to_date=2025-03-31', 'from_date'],
      ['from_date=2025-13-01&to_date=2025-12-31', 'from_date'],
      ['from_date=2025-03-01&to_date=yesterday', 'to_date'],
      ['from_date=2025-05-01&to_date=2025-04-30', 'to_date'],
      ['from_date=2023-01-01&to_date=2025-01-31', 'to_date'],
      [`${MARCH}&compare=next`, 'compare'],
      [`${MARCH}&location_id=abc`, 'location_id'],
      [`${MARCH}&location_group_id=-1`, 'location_group_id'],
      [`${MARCH}&segment_id=abc`, 'segment_id'],
      [`${MARCH}&segment_id=0`, 'segment_id'],
      [`${MARCH}&segment_id=1.5`, 'segment_id'],
    ];
    for (const [query, field] of cases) {
      const response = await get(alice, `${PATH}?${query}`);
      expect(response.statusCode, query).toBe(400);
      const fields = Object.keys(response.json().error.fields as object);
      expect(
        fields.map((name) => name.split('.')[0]),
        query,
      ).toContain(field);
    }
  });

  it("answers 404 for another company's location, group or segment, and 401 without credentials", async () => {
    expect((await get(alice, `${PATH}?${MARCH}&location_id=${bobsPlace}`)).statusCode).toBe(404);
    expect(
      (await get(alice, `${PATH}?${MARCH}&location_id=${north}&location_group_id=${bobsGroup}`)).statusCode,
    ).toBe(404);
    const segment = await get(alice, `${PATH}?${MARCH}&segment_id=${bobsSegment}`);
    expect(segment.statusCode).toBe(404);
    expect(segment.json().error.message).toBe('Segment not found');
    expect((await get(null, `${PATH}?${MARCH}`)).statusCode).toBe(401);
  });

  it('answers 403 to a company without Consumer Insights Analytics, as its page is hidden', async () => {
    await t.database.db.tenant(alice.companyId, (sql) =>
      setCompanyFeatures(
        sql,
        systemScope(alice.companyId),
        ALL_FEATURES.filter((feature) => feature !== 'Consumer Insights Analytics'),
      ),
    );
    try {
      expect((await get(alice, `${PATH}?${MARCH}`)).statusCode).toBe(403);
    } finally {
      await t.database.db.tenant(alice.companyId, (sql) =>
        setCompanyFeatures(sql, systemScope(alice.companyId), [...ALL_FEATURES]),
      );
    }
  });
});
