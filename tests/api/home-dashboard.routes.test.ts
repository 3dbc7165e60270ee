import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';
import { makeLocation } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';

const DAY = 86_400_000;
const PATHS = ['/api/analytics/chart-data/', '/api/analytics/recommendations/'];
/** The local `YYYY-MM-DD` of an instant in New York (the companies' default zone). */
const localDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(at);
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

describe('home dashboard calls', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let analyst: UserCaller;
  let marketer: UserCaller;
  let bob: ApiCaller;
  let north: number;
  let bobsPlace: number;
  let bobsGroup: number;
  const today = localDay(new Date());
  const range = `from_date=${shift(today, -29)}&to_date=${today}`;
  const totals: { daysAgo: number; total: number; guest?: string }[] = [];

  const get = (caller: ApiCaller, url: string) =>
    t.app.inject({ method: 'GET', url, headers: caller.headers });
  /** The recommendations call asked again, as the screen does, until no audience is being counted any more. */
  async function counted(caller: ApiCaller, url: string) {
    for (let ask = 0; ask < 100; ask += 1) {
      const response = await get(caller, url);
      if (response.statusCode !== 200 || response.json().audiences_counting === false) return response;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${url}: audiences still being counted after 100 asks`);
  }

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Home');
    bob = await t.newCaller('Bob Home');
    analyst = await t.newUser(alice.companyId, 'analyst');
    marketer = await t.newUser(alice.companyId, 'marketer');
    const db = t.database.db;
    north = (await makeLocation(db, alice.companyId, 'North')).id;
    bobsPlace = (await makeLocation(db, bob.companyId, 'Bob’s')).id;
    bobsGroup = (await makeTestLocationGroup(db, bob.companyId, 'Bob’s group', [bobsPlace])).id;
    // Three regulars who stopped coming 70–90 days ago, and recent guests and walk-ins.
    for (const guest of ['L1', 'L2', 'L3'])
      for (const daysAgo of [70, 80, 90]) totals.push({ daysAgo, total: 20, guest });
    for (const [index, daysAgo] of [1, 2, 3, 5, 8, 13, 21, 34, 40, 50].entries())
      totals.push({ daysAgo, total: 10 + index, ...(index % 3 === 2 ? {} : { guest: `R${index % 4}` }) });
    const checks = totals.map((check, index) => {
      const closed = new Date(Date.now() - check.daysAgo * DAY);
      closed.setUTCHours(17, 30);
      return {
        location_id: north,
        check_number: `C${index}`,
        opened_at: new Date(closed.getTime() - 3_600_000).toISOString(),
        closed_at: closed.toISOString(),
        total: check.total,
        ...(check.guest ? { guest: { pos_id: check.guest } } : {}),
        lines: [{ menu_item: 'Tea', quantity: 1, amount: check.total }],
      };
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pos/checks/',
      payload: { checks },
      headers: alice.headers,
    });
    expect(response.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('answers the chart data exactly as spec §3 names it', async () => {
    const response = await get(alice, `/api/analytics/chart-data/?${range}&compare=previous`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['charts', 'emails', 'previous', 'range', 'revenue']);
    expect(body.charts.map((chart: { name: string }) => chart.name)).toEqual([
      'revenue',
      'checks',
      'previous_revenue',
    ]);
    expect(body.charts[0].data).toHaveLength(30);
    // The checks in the range, counted by their local day (17:30 UTC is the same day in New York).
    const inRange = totals.filter((check) => check.daysAgo <= 29);
    expect(body.revenue).toBeCloseTo(
      inRange.reduce((sum, check) => sum + check.total, 0),
      6,
    );
    expect(body.emails).toBe(0);
  });

  it('answers the KPI cards and recommendations to an analyst; the click’s segment is the audience, saved by a marketer', async () => {
    const response = await counted(analyst, `/api/analytics/recommendations/?${range}&location_id=${north}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const inRange = totals.filter((check) => check.daysAgo <= 29);
    expect(body.kpis.checks).toBe(inRange.length);
    expect(body.kpis.guests).toBe(new Set(inRange.filter((c) => c.guest).map((c) => c.guest)).size);
    const lapsed = body.recommendations.find((item: { kind: string }) => item.kind === 'lapsed_regulars');
    expect(lapsed.audience).toBe(3);
    expect(lapsed.details.location_id).toBe(north);
    // An analyst reads but does not save the segment; a marketer does, and its size is the audience.
    const payload = { name: 'Lapsed at North', ...lapsed.segment };
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/segments/',
      payload,
      headers: analyst.headers,
    });
    expect(refused.statusCode).toBe(403);
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/segments/',
      payload,
      headers: marketer.headers,
    });
    expect(saved.statusCode).toBe(201);
    expect(saved.json().segmentcache.all_customers).toBe(3);
  });

  it('refuses bad dates and filters naming the field', async () => {
    const cases: [string, string][] = [
      [`to_date=${today}`, 'from_date'],
      [`from_date=${today}`, 'to_date'],
      [`from_date=2025-13-01&to_date=${today}`, 'from_date'],
      ['from_date=2025-05-01&to_date=yesterday', 'to_date'],
      ['from_date=2025-05-01&to_date=2025-04-30', 'to_date'],
      ['from_date=2020-01-01&to_date=2025-01-01', 'to_date'],
      [`${range}&compare=next`, 'compare'],
      [`${range}&location_id=abc`, 'location_id'],
    ];
    for (const path of PATHS) {
      for (const [query, field] of cases) {
        const response = await get(alice, `${path}?${query}`);
        expect(response.statusCode, `${path}?${query}`).toBe(400);
        const fields = Object.keys(response.json().error.fields as object).map((name) => name.split('.')[0]);
        expect(fields, `${path}?${query}`).toContain(field);
      }
    }
  });

  it("answers 404 for another company's location or group, and 401 without credentials", async () => {
    for (const path of PATHS) {
      expect((await get(alice, `${path}?${range}&location_id=${bobsPlace}`)).statusCode).toBe(404);
      expect((await get(alice, `${path}?${range}&location_group_id=${bobsGroup}`)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `${path}?${range}` })).statusCode).toBe(401);
      expect((await get(analyst, `${path}?${range}`)).statusCode).toBe(200);
    }
  });

  it("never counts another company's checks", async () => {
    const response = await counted(bob, `/api/analytics/recommendations/?${range}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().kpis.checks).toBe(0);
    expect(response.json().recommendations).toEqual([]);
  });
});
