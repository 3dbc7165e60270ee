import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';

/** A check as sent to the API, with what the cohort computation needs. */
interface SentCheck {
  location_id: number;
  check_number: string;
  opened_at: string;
  closed_at: string;
  total: number;
  guest?: { pos_id: string };
  lines: { menu_item: string; quantity: number; amount: number }[];
}

/** `YYYY-MM` of an instant in New York (the companies' default zone), read by the JS runtime. */
function monthOf(at: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date(at)).slice(0, 7);
}

function addMonths(month: string, count: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + count;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The cohort rows computed in plain JS from the checks sent: first month per guest at the locations, then per
 * offset up to the latest month with a check there (or `months`), guests active, revenue and checks.
 */
function expectedRows(
  checks: readonly SentCheck[],
  locations: readonly number[],
  options: { months?: number; from?: string; to?: string } = {},
) {
  const months = options.months ?? 12;
  const mine = checks.filter((check) => check.guest && locations.includes(check.location_id));
  const activity = new Map<string, Map<string, { checks: number; revenue: number }>>();
  for (const check of mine) {
    const guest = activity.get(check.guest!.pos_id) ?? new Map<string, { checks: number; revenue: number }>();
    const month = monthOf(check.closed_at);
    const cell = guest.get(month) ?? { checks: 0, revenue: 0 };
    cell.checks += 1;
    cell.revenue += Math.round(check.total * 100);
    guest.set(month, cell);
    activity.set(check.guest!.pos_id, guest);
  }
  const latest = mine
    .map((check) => monthOf(check.closed_at))
    .sort()
    .at(-1);
  const cohorts = new Map<string, Map<string, { active: number; checks: number; revenue: number }>>();
  for (const guest of activity.values()) {
    const first = [...guest.keys()].sort()[0]!;
    const cohort =
      cohorts.get(first) ?? new Map<string, { active: number; checks: number; revenue: number }>();
    for (const [month, cell] of guest) {
      const sum = cohort.get(month) ?? { active: 0, checks: 0, revenue: 0 };
      sum.active += 1;
      sum.checks += cell.checks;
      sum.revenue += cell.revenue;
      cohort.set(month, sum);
    }
    cohorts.set(first, cohort);
  }
  return [...cohorts.keys()]
    .sort()
    .filter((cohort) => (!options.from || cohort >= options.from) && (!options.to || cohort <= options.to))
    .map((cohort) => {
      const cells = cohorts.get(cohort)!;
      const size = cells.get(cohort)!.active;
      const rows = [];
      for (let offset = 0; offset < months && addMonths(cohort, offset) <= latest!; offset++) {
        const cell = cells.get(addMonths(cohort, offset)) ?? { active: 0, checks: 0, revenue: 0 };
        rows.push({
          offset,
          month: addMonths(cohort, offset),
          active: cell.active,
          retention: Math.round((cell.active / size) * 10_000) / 10_000,
          revenue: cell.revenue / 100,
          checks: cell.checks,
        });
      }
      return { cohort, size, months: rows };
    });
}

describe('cohort calls', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let north: number;
  let south: number;
  let east: number;
  let coast: number;
  let bobsPlace: number;
  let bobsGroup: number;
  const sent: SentCheck[] = [];

  const get = (caller: ApiCaller, url: string) =>
    t.app.inject({ method: 'GET', url, headers: caller.headers });
  const post = (caller: ApiCaller, checks: SentCheck[]) =>
    t.app.inject({ method: 'POST', url: '/api/pos/checks/', payload: { checks }, headers: caller.headers });

  /** Random checks over 2025 for forty guests, sent in an order that is not their time order. */
  function checksAt(places: number[], count: number, prefix: string, seed: number): SentCheck[] {
    const random = seededRandom(seed);
    return Array.from({ length: count }, (_, index) => {
      const closed = new Date(
        Date.UTC(2025, Math.floor(random() * 12), 1 + Math.floor(random() * 28), 23, 30),
      );
      const guest = Math.floor(random() * 40);
      return {
        location_id: places[Math.floor(random() * places.length)]!,
        check_number: `${prefix}${index}`,
        opened_at: new Date(closed.getTime() - 3_600_000).toISOString(),
        closed_at: closed.toISOString(),
        total: Math.round(500 + random() * 9000) / 100,
        ...(index % 9 === 8 ? {} : { guest: { pos_id: `${prefix}G${guest}` } }),
        lines: [{ menu_item: 'Tea', quantity: 1, amount: 2 }],
      };
    });
  }

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Cohorts');
    bob = await t.newCaller('Bob Cohorts');
    const db = t.database.db;
    north = (await makeLocation(db, alice.companyId, 'North')).id;
    south = (await makeLocation(db, alice.companyId, 'South')).id;
    east = (await makeLocation(db, alice.companyId, 'East')).id;
    coast = (await makeTestLocationGroup(db, alice.companyId, 'Coast', [south, east])).id;
    bobsPlace = (await makeLocation(db, bob.companyId, 'Bob’s')).id;
    bobsGroup = (await makeTestLocationGroup(db, bob.companyId, 'Bob’s group', [bobsPlace])).id;
    const checks = checksAt([north, south, east], 120, 'A', 21);
    for (const batch of [checks.slice(60), checks.slice(0, 60)])
      expect((await post(alice, batch)).statusCode).toBe(200);
    sent.push(...checks);
    // Bob uses the same POS ids and months: a leak would change Alice's figures.
    expect((await post(bob, checksAt([bobsPlace], 60, 'A', 22))).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('answers the cohorts of the whole company, a location, a group and several locations', async () => {
    const all = [north, south, east];
    const cases: [string, number[]][] = [
      ['', all],
      [`location_id=${north}`, [north]],
      [`location_group_id=${coast}`, [south, east]],
      [`location_id=${north}&location_id=${east}`, [north, east]],
      // Both given: the locations in both.
      [`location_id=${north}&location_id=${east}&location_group_id=${coast}`, [east]],
    ];
    for (const [query, locations] of cases) {
      const response = await get(alice, `/api/bigdata/cohort/?${query}`);
      expect(response.statusCode, query).toBe(200);
      expect(response.json(), query).toEqual({ results: expectedRows(sent, locations) });
    }
    const rows = expectedRows(sent, all);
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.some((row) => row.months.some((month) => month.offset > 0 && month.active > 0))).toBe(true);
  });

  it('keeps cohorts whose first month holds a day of the range, and as many offsets as asked', async () => {
    const response = await get(
      alice,
      '/api/bigdata/cohort/?from_date=2025-03-31&to_date=2025-06-01&months=3',
    );
    expect(response.json()).toEqual({
      results: expectedRows(sent, [north, south, east], { months: 3, from: '2025-03', to: '2025-06' }),
    });
    const cohorts = response.json().results.map((row: { cohort: string }) => row.cohort);
    expect(cohorts.length).toBeGreaterThan(0);
    for (const cohort of cohorts) expect(cohort >= '2025-03' && cohort <= '2025-06').toBe(true);
  });

  it("sets a location's cohorts beside the company's size-weighted baseline", async () => {
    const response = await get(alice, `/api/benchmark/cohort/?location_id=${south}&months=6`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.results).toEqual(expectedRows(sent, [south], { months: 6 }));
    const company = expectedRows(sent, [north, south, east], { months: 6 });
    const expected = [];
    for (let offset = 0; offset < 6; offset++) {
      const reached = company.filter((row) => row.months.length > offset);
      if (reached.length === 0) break;
      const size = reached.reduce((total, row) => total + row.size, 0);
      const active = reached.reduce((total, row) => total + row.months[offset]!.active, 0);
      const revenue = reached.reduce((total, row) => total + row.months[offset]!.revenue, 0);
      const checks = reached.reduce((total, row) => total + row.months[offset]!.checks, 0);
      expected.push({
        offset,
        cohorts: reached.length,
        size,
        active,
        retention: Math.round((active / size) * 10_000) / 10_000,
        revenue_per_guest: Math.round((revenue / size) * 100) / 100,
        checks_per_guest: Math.round((checks / size) * 1000) / 1000,
      });
    }
    expect(body.baseline).toEqual({ months: expected });
    expect(expected[0]!.retention).toBe(1);
  });

  it('refuses bad dates and months naming the field', async () => {
    const cases: [string, string][] = [
      ['from_date=2025-13-01', 'from_date'],
      ['to_date=yesterday', 'to_date'],
      ['from_date=2025-05-01&to_date=2025-04-30', 'to_date'],
      ['months=0', 'months'],
      ['months=61', 'months'],
      ['location_id=abc', 'location_id'],
    ];
    for (const [query, field] of cases) {
      for (const path of ['/api/bigdata/cohort/', '/api/benchmark/cohort/']) {
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
    for (const path of ['/api/bigdata/cohort/', '/api/benchmark/cohort/']) {
      expect((await get(alice, `${path}?location_id=${bobsPlace}`)).statusCode).toBe(404);
      expect(
        (await get(alice, `${path}?location_id=${north}&location_group_id=${bobsGroup}`)).statusCode,
      ).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(401);
    }
  });

  it("never counts another company's checks", async () => {
    const bobs = (await get(bob, '/api/bigdata/cohort/')).json();
    const total = (body: { results: { months: { checks: number }[] }[] }) =>
      body.results.flatMap((row) => row.months).reduce((sum, month) => sum + month.checks, 0);
    const bobChecks = checksAt([bobsPlace], 60, 'A', 22).filter((check) => check.guest).length;
    expect(total(bobs)).toBe(bobChecks);
    const alices = (await get(alice, '/api/bigdata/cohort/?months=60')).json();
    expect(total(alices)).toBe(sent.filter((check) => check.guest).length);
  });
});
