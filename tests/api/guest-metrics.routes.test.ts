import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { replaceGuestPredictions, saveClvFit } from '../../server/repositories/clv.repository.js';
import { refreshCompanyClv } from '../../server/services/clv.service.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { makeLocation, makeSubscriber } from '../support/factories.js';

const DAY = 86_400_000;
const ZONE = 'America/New_York';

/** The guest's checks and lines straight from pos_checks, read as the owner so nothing filters them. */
async function rawChecks(db: Database, companyId: number, guestId: number) {
  return db.owner(async (sql) => ({
    checks: (
      await sql.query<{ location_id: number; opened_at: Date; closed_at: Date; total_cents: number }>(
        `SELECT location_id, opened_at, closed_at, total_cents FROM pos_checks
         WHERE company_id = $1 AND guest_id = $2`,
        [companyId, guestId],
      )
    ).rows,
    lines: (
      await sql.query<{ check_id: number; name: string; quantity: number }>(
        `SELECT l.check_id, i.name, l.quantity FROM pos_check_lines l
         JOIN pos_checks c ON c.id = l.check_id JOIN menu_items i ON i.id = l.menu_item_id
         WHERE c.company_id = $1 AND c.guest_id = $2`,
        [companyId, guestId],
      )
    ).rows,
  }));
}

/** The calendar day (YYYY-MM-DD) of a moment in a time zone. */
function dayIn(moment: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(moment);
}

/** The hour (0–23) of a moment in a time zone. */
function hourIn(moment: Date, timeZone: string): number {
  return Number(
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(moment),
  );
}

/** The day part of an opening hour, as docs/guest-data.md defines it. */
function dayPartOf(hour: number): 'breakfast' | 'lunch' | 'dinner' | 'late' {
  if (hour >= 5 && hour < 11) return 'breakfast';
  if (hour >= 11 && hour < 16) return 'lunch';
  if (hour >= 16 && hour < 22) return 'dinner';
  return 'late';
}

describe('Guest metrics and CLV in the profile API', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let harbor: number;
  let hill: number;

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
    harbor = (await makeLocation(t.database.db, alice.companyId, 'Harbor')).id;
    hill = (await makeLocation(t.database.db, alice.companyId, 'Hill')).id;
  });
  afterAll(() => t.close());

  const get = (caller: ApiCaller | null, url: string) =>
    t.app.inject({ method: 'GET', url, headers: caller?.headers ?? {} });
  const profileUrl = (g: { id: number; hashid: string; pos_id: string }) =>
    `/api/pos/guests/${g.id}/?hashid=${g.hashid}&pos_id=${encodeURIComponent(g.pos_id)}`;

  /** A check `daysAgo` days back, opened at the given UTC hour, for the POS guest `posId`. */
  const check = (
    number: string,
    daysAgo: number,
    utcHour: number,
    fields: { location_id: number; total: number; lines: object[]; posId?: string },
  ) => {
    const opened = new Date(Date.now() - daysAgo * DAY);
    opened.setUTCHours(utcHour, 0, 0, 0);
    return {
      location_id: fields.location_id,
      check_number: number,
      opened_at: opened.toISOString(),
      closed_at: new Date(opened.getTime() + 3_600_000).toISOString(),
      total: fields.total,
      guest: { pos_id: fields.posId ?? 'P-ANN', customer_name: 'Ann Lee' },
      lines: fields.lines,
    };
  };

  /** Posts checks through the POS API, then finds the guest by POS id in the list. */
  async function postChecks(caller: ApiCaller, checks: object[], posId = 'P-ANN') {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/pos/checks/',
      payload: { checks },
      headers: caller.headers,
    });
    expect(answer.json()).toMatchObject({ rejected: [] });
    const page = (await get(caller, `/api/pos/guests/?q=${posId}`)).json();
    return page.results.find((row: { pos_id: string }) => row.pos_id === posId) as {
      id: number;
      hashid: string;
      pos_id: string;
    };
  }

  it('answers a guest’s visits, spend, favourites, day parts and flags as the raw checks add up', async () => {
    const ann = await postChecks(alice, [
      check('M-1', 200, 13, {
        location_id: harbor,
        total: 40.5,
        lines: [
          { menu_item: 'Oysters', category: 'Raw bar', quantity: 2, amount: 30 },
          { menu_item: 'Ale', quantity: 1, amount: 10.5 },
        ],
      }),
      check('M-2', 90, 23, {
        location_id: hill,
        total: 22,
        lines: [{ menu_item: 'Ale', quantity: 2, amount: 22 }],
      }),
      check('M-3', 30, 16, {
        location_id: hill,
        total: 61.25,
        lines: [
          { menu_item: 'Oysters', quantity: 1, amount: 15 },
          { menu_item: 'Chowder', quantity: 1, amount: 12 },
          { menu_item: 'Ale', quantity: 3, amount: 34.25 },
        ],
      }),
      check('M-4', 3, 2, {
        location_id: hill,
        total: 9.99,
        lines: [{ menu_item: 'Chowder', quantity: 1, amount: 9.99 }],
      }),
    ]);

    const response = await get(alice, profileUrl(ann));
    expect(response.statusCode).toBe(200);
    const { metrics } = response.json();

    // The same figures, worked out here from the raw checks.
    const { checks, lines } = await rawChecks(t.database.db, alice.companyId, ann.id);
    const spendCents = checks.reduce((sum, row) => sum + Number(row.total_cents), 0);
    const closed = checks.map((row) => row.closed_at.getTime()).sort((x, y) => x - y);
    const first = new Date(closed[0]!);
    const last = new Date(closed.at(-1)!);
    const byLocation = new Map<number, { visits: number; cents: number }>();
    for (const row of checks) {
      const kept = byLocation.get(Number(row.location_id)) ?? { visits: 0, cents: 0 };
      byLocation.set(Number(row.location_id), {
        visits: kept.visits + 1,
        cents: kept.cents + Number(row.total_cents),
      });
    }
    const [favouriteId] = [...byLocation].sort(
      (x, y) => y[1].visits - x[1].visits || y[1].cents - x[1].cents,
    )[0]!;
    const units = new Map<string, { quantity: number; checks: Set<number> }>();
    for (const line of lines) {
      const kept = units.get(line.name) ?? { quantity: 0, checks: new Set<number>() };
      kept.quantity += Number(line.quantity);
      kept.checks.add(Number(line.check_id));
      units.set(line.name, kept);
    }
    const items = [...units]
      .map(([name, item]) => ({ name, quantity: item.quantity, checks: item.checks.size }))
      .sort((x, y) => y.quantity - x.quantity || y.checks - x.checks || x.name.localeCompare(y.name));
    const dayParts = { breakfast: 0, lunch: 0, dinner: 0, late: 0 };
    for (const row of checks) dayParts[dayPartOf(hourIn(row.opened_at, ZONE))] += 1;
    const daysSince = Math.round((Date.parse(dayIn(new Date(), ZONE)) - Date.parse(dayIn(last, ZONE))) / DAY);

    expect(checks).toHaveLength(4);
    expect(metrics).toMatchObject({
      visits: 4,
      spend: spendCents / 100,
      average_check: Math.round(spendCents / 4) / 100,
      first_visit_at: first.toISOString(),
      last_visit_at: last.toISOString(),
      days_since_last_visit: daysSince,
      favourite_location: { id: favouriteId, name: 'Hill' },
      day_parts: dayParts,
      trackable: true,
      marketable: false,
      clv: null,
    });
    expect(metrics.visits_per_month).toBeCloseTo(4 / ((Date.now() - first.getTime()) / DAY / 30.436875), 1);
    expect(
      metrics.favourite_items.map(({ name, quantity, checks: on }: (typeof items)[number]) => ({
        name,
        quantity,
        checks: on,
      })),
    ).toEqual(items);
  });

  it('shows the company’s CLV: none before a fit, the historical figures after, and a model fit’s figures', async () => {
    const ann = await postChecks(
      alice,
      [
        check('C-1', 400, 18, { location_id: harbor, total: 50, lines: [], posId: 'P-CLV' }),
        check('C-2', 100, 18, { location_id: harbor, total: 30, lines: [], posId: 'P-CLV' }),
        check('C-3', 20, 18, { location_id: harbor, total: 45.5, lines: [], posId: 'P-CLV' }),
      ],
      'P-CLV',
    );
    expect((await get(alice, profileUrl(ann))).json().metrics.clv).toBeNull();

    // A handful of guests: the historical method, each guest's last twelve months carried forward.
    const fit = await refreshCompanyClv(t.database.db, alice.companyId);
    expect(fit.method).toBe('historical');
    const historical = (await get(alice, profileUrl(ann))).json().metrics.clv;
    expect(historical).toMatchObject({
      method: 'historical',
      fitted_at: fit.fitted_at.toISOString(),
      horizon_years: 3,
      discount_rate: 0.1,
      figures: { probability_alive: null, clf: 2, expected_spend_per_visit: 37.75, annual_clv: 75.5 },
    });
    expect(historical.figures.clv).toBeGreaterThan(75.5);
    expect(historical.figures.clv).toBeLessThan(3 * 75.5);

    // A model fit, stored as the refresh would store one.
    await t.database.db.owner(async (sql) => {
      await saveClvFit(sql, alice.companyId, {
        method: 'model',
        calibration_end: '2026-01-31',
        guests: 900,
        repeat_guests: 400,
        r: 0.24,
        alpha: 4.4,
        a: 0.79,
        b: 2.4,
        log_likelihood: -9582.4,
        p: 6.25,
        q: 3.74,
        gamma: 15.44,
        horizon_years: 2,
        discount_rate: 0.08,
      });
      await replaceGuestPredictions(sql, alice.companyId, [
        {
          guest_id: ann.id,
          probability_alive: 0.75,
          expected_visits_next_year: 3.5,
          expected_spend_per_visit_cents: 4125,
          annual_clv_cents: 14438,
          clv_cents: 25012,
        },
      ]);
    });
    const modelled = (await get(alice, profileUrl(ann))).json().metrics.clv;
    expect(modelled).toMatchObject({
      method: 'model',
      calibration_end: '2026-01-31',
      horizon_years: 2,
      discount_rate: 0.08,
      figures: {
        probability_alive: 0.75,
        clf: 3.5,
        expected_spend_per_visit: 41.25,
        annual_clv: 144.38,
        clv: 250.12,
      },
    });
  });

  it('shows a subscriber’s linked guest’s metrics, and none without a linked guest', async () => {
    const ann = await postChecks(
      alice,
      [check('S-1', 10, 12, { location_id: harbor, total: 12, lines: [], posId: 'P-SUB' })],
      'P-SUB',
    );
    const linked = await makeSubscriber(t.database.db, alice.companyId, {
      guest_id: ann.id,
      pos_id: 'P-SUB',
    });
    const alone = await makeSubscriber(t.database.db, alice.companyId, {});
    const subscriberUrl = (s: { id: number; hashid: string; pos_id: string | null }) =>
      `/api/subscriptions/subscribers/${s.id}/?hashid=${s.hashid}&pos_id=${encodeURIComponent(s.pos_id ?? '')}`;
    const linkedProfile = (await get(alice, subscriberUrl(linked))).json();
    expect(linkedProfile.metrics).toMatchObject({ visits: 1, spend: 12, marketable: true, trackable: true });
    expect((await get(alice, subscriberUrl(alone))).json().metrics).toBeNull();
  });

  it('asks for a sign-in, and answers 404 for another company’s guest', async () => {
    const ann = await postChecks(
      alice,
      [check('I-1', 5, 12, { location_id: harbor, total: 8, lines: [], posId: 'P-ISO' })],
      'P-ISO',
    );
    expect((await get(null, profileUrl(ann))).statusCode).toBe(401);
    const foreign = await get(bob, profileUrl(ann));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Ann');
  });
});
