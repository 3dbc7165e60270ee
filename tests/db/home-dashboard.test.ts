import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { lapsedRegularsByLocation } from '../../server/repositories/home-dashboard.repository.js';
import { countSegment } from '../../server/repositories/segment-rules.repository.js';
import { homeDashboardService } from '../../server/services/home-dashboard.service.js';
import { dayPartRange } from '../../server/services/home-recommendations.js';
import { forgetKeptAudiences } from '../../server/services/kept-audiences.js';
import { keptAudiences } from '../../server/repositories/kept-audiences.repository.js';
import { segmentsService } from '../../server/services/segments.service.js';
import type { HomeDashboard } from '../../src/schemas/home-dashboard.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, makeSubscriber, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';
import { dayPartOfHour } from '../support/day-parts.js';

// Every figure of the home dashboard against the same figure worked out here in plain JS over the checks sent:
// KPI cards, chart data, emails, and each recommendation's audience (and the size of the segment its click saves).

const ZONE = 'America/New_York';
const ITEMS = ['Burger', 'Fries', 'Salad', 'Soda', 'Pie'] as const;
const DAY = 86_400_000;

/** The local `YYYY-MM-DD` of an instant in New York (the companies' and locations' default zone). */
const localDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(at);
/** The local hour of an instant in New York. */
const localHour = (at: Date) =>
  Number(new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', hourCycle: 'h23' }).format(at));
/** ISO weekday (1 Monday … 7 Sunday) of a `YYYY-MM-DD` day. */
const weekdayOf = (day: string) => ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
/** Days from `a` to `b`. */
const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** A check as generated, with what the expectations need. */
interface Sent extends IngestCheck {
  day: string;
}

describe('home dashboard figures and recommendations', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let places: number[] = [];
  const sent: Sent[] = [];
  const birthdays = new Map<string, string>();
  const random = seededRandom(1717);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  // The clock is pinned, so the figures do not depend on the day the test runs: two days after New York moved to
  // summer time, so the range and the previous period cross the change.
  const now = new Date('2026-03-10T14:30:00Z');
  const today = localDay(now);
  const range = { from: shift(today, -29), to: today };
  const previous = { from: shift(today, -59), to: shift(today, -30) };

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));
  // Only Date is faked (timers and the database's own I/O run as usual): the services and the segment engine
  // read "now" from it.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'], now });
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  /** A check of a guest (or nobody) at a place, `daysAgo` days back at a random hour; Tuesday lunch is rare. */
  function checkOf(number: number, guest: string | undefined, place: number, daysAgo: number): Sent | null {
    const hour = pick([7, 9, 12, 13, 14, 18, 19, 20, 23]);
    const opened = new Date(now.getTime() - daysAgo * DAY - Math.floor(random() * 3_600_000));
    opened.setUTCHours(hour + 5, Math.floor(random() * 60));
    if (opened.getTime() > now.getTime() - 3_600_000) opened.setTime(opened.getTime() - DAY);
    const closed = new Date(opened.getTime() + 40 * 60_000);
    const part = dayPartOfHour(localHour(opened));
    if (weekdayOf(localDay(closed)) === 2 && part === 'lunch' && random() < 0.9) return null;
    // Regulars of the first ten guests never order the burger; everyone else mostly does.
    const burgerless = guest !== undefined && Number(guest.slice(1)) < 10;
    const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const item = burgerless ? pick(ITEMS.slice(1)) : random() < 0.5 ? 'Burger' : pick(ITEMS);
      const quantity = 1 + Math.floor(random() * 2);
      return { menu_item: item, category: 'Food', quantity, amount: quantity * 700 };
    });
    return {
      location_id: place,
      check_number: `H-${number}`,
      opened_at: opened,
      closed_at: closed,
      total: lines.reduce((sum, line) => sum + line.amount, 0) + Math.floor(random() * 300),
      ...(guest ? { guest: { pos_id: guest } } : {}),
      lines,
      day: localDay(closed),
    };
  }

  beforeAll(async () => {
    places = [
      (await makeLocation(db, companyA, 'North')).id,
      (await makeLocation(db, companyA, 'South')).id,
      (await makeLocation(db, companyA, 'East')).id,
    ];
    const checks: Sent[] = [];
    let number = 0;
    for (let guest = 0; guest < 70; guest++) {
      const home = pick(places);
      // Guests 60–69 stopped coming 70 days ago: lapsed regulars of their home.
      const oldest = guest >= 60 ? 200 : 120;
      const newest = guest >= 60 ? 70 : 0;
      for (let visit = 0; visit < 2 + Math.floor(random() * 9); visit++) {
        const place = random() < 0.8 ? home : pick(places);
        const check = checkOf(
          number++,
          `G${guest}`,
          place,
          newest + Math.floor(random() * (oldest - newest)),
        );
        if (check) checks.push(check);
      }
    }
    // Checks without a guest, most in the range, so every day part has enough weekday checks to compare.
    for (let anonymous = 0; anonymous < 240; anonymous++) {
      const check = checkOf(number++, undefined, pick(places), Math.floor(random() * 45));
      if (check) checks.push(check);
    }
    await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), checks));
    sent.push(...checks);
    // Company B uses the same POS ids: a leak would change A's figures.
    const bPlace = (await makeLocation(db, companyB, 'Elsewhere')).id;
    const bChecks = checks.slice(0, 150).map((check) => ({ ...check, location_id: bPlace }));
    await db.tenant(companyB, (sql) => ingestChecks(sql, systemScope(companyB), bChecks));
    // Subscribers linked to every third guest, birthdays in every month (this month's among them).
    const month = Number(today.slice(5, 7));
    const guests = await db.tenant(companyA, (sql) =>
      sql.query<{ id: number; pos_id: string }>('SELECT id, pos_id FROM guests WHERE company_id = $1', [
        companyA,
      ]),
    );
    for (const [index, guest] of guests.rows.filter((_, n) => n % 3 === 0).entries()) {
      const birthMonth = index % 4 === 0 ? month : 1 + (index % 12);
      const birthday = `1990-${String(birthMonth).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`;
      await makeSubscriber(db, companyA, { guest_id: Number(guest.id), birthday });
      birthdays.set(guest.pos_id, birthday);
    }
    // Emails: three sent in the range, one before it, one that failed.
    await db.owner(async (sql) => {
      const run = await sql.query<{ id: number }>(
        `INSERT INTO mail_runs (company_id, kind, run_key, from_address, subject, html_template, text_template,
                                postal_address, language)
         VALUES ($1, 'campaign', 'r1', 'a@example.com', 'Hi', '<p>Hi</p>', 'Hi', 'Main St', 'en') RETURNING id`,
        [companyA],
      );
      const sentAt = [2, 5, 10, 45, 3].map((days) => new Date(now.getTime() - days * DAY));
      for (const [index, at] of sentAt.entries()) {
        await sql.query(
          `INSERT INTO mail_outbox (company_id, run_id, subscriber_id, email, status, message_id, sent_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            companyA,
            run.rows[0]!.id,
            index + 1,
            `m${index}@example.com`,
            index === 4 ? 'failed' : 'sent',
            `id${index}`,
            at,
          ],
        );
      }
    });
  });

  /** The KPI cards from the checks: at the locations, over the days. */
  function kpis(locations: number[], days: { from: string; to: string }) {
    const inRange = sent.filter(
      (check) => locations.includes(check.location_id) && check.day >= days.from && check.day <= days.to,
    );
    const revenue = inRange.reduce((sum, check) => sum + check.total, 0);
    const guests = new Set(inRange.filter((check) => check.guest).map((check) => check.guest!.pos_id!));
    const firstDay = new Map<string, string>();
    for (const check of sent.filter((one) => one.guest)) {
      const id = check.guest!.pos_id!;
      if (!firstDay.has(id) || check.day < firstDay.get(id)!) firstDay.set(id, check.day);
    }
    const fresh = [...guests].filter((id) => firstDay.get(id)! >= days.from).length;
    return {
      revenue: revenue / 100,
      checks: inRange.length,
      guests: guests.size,
      average_check: inRange.length > 0 ? Math.round(revenue / inRange.length) / 100 : null,
      new_guests: fresh,
      returning_guests: guests.size - fresh,
    };
  }

  /** Each guest's checks, by POS id. */
  function byGuest(): Map<string, Sent[]> {
    const map = new Map<string, Sent[]>();
    for (const check of sent.filter((one) => one.guest)) {
      const id = check.guest!.pos_id!;
      map.set(id, [...(map.get(id) ?? []), check]);
    }
    return map;
  }

  /** Guests who visited one of the locations (the picker). */
  const visited = (checks: Sent[], locations: number[]) =>
    checks.some((check) => locations.includes(check.location_id));

  /** The guests with 3+ checks at the place and none there in 60+ days, counted over the checks. */
  function lapsedAt(place: number): number {
    return [...byGuest().values()].filter((checks) => {
      const here = checks.filter((check) => check.location_id === place);
      const last = here
        .map((check) => check.day)
        .sort()
        .at(-1);
      return here.length >= 3 && last !== undefined && daysBetween(last, today) >= 60;
    }).length;
  }

  /** The expected audiences of the recommendations at the locations. */
  async function expectedAudiences(locations: number[], all: boolean) {
    const guests = byGuest();
    const lapsed = places
      .filter((place) => locations.includes(place))
      .map((place) => ({ place, audience: lapsedAt(place) }))
      .sort((a, b) => b.audience - a.audience || a.place - b.place)[0]!;
    const month = Number(today.slice(5, 7));
    const birthdayAudience = [...guests.entries()].filter(
      ([id, checks]) =>
        (all || visited(checks, locations)) && Number(birthdays.get(id)?.slice(5, 7)) === month,
    ).length;
    // The slowest weekday day part, per occurrence of the weekday in the range, against its five-weekday average.
    const occurrences = new Map<number, number>();
    for (let day = range.from; day <= range.to; day = shift(day, 1))
      occurrences.set(weekdayOf(day), (occurrences.get(weekdayOf(day)) ?? 0) + 1);
    let slow: { weekday: number; part: string; share: number } | null = null;
    for (const part of ['breakfast', 'lunch', 'dinner', 'late']) {
      const cells = [1, 2, 3, 4, 5].map((weekday) => {
        const checks = sent.filter(
          (check) =>
            locations.includes(check.location_id) &&
            check.day >= range.from &&
            check.day <= range.to &&
            weekdayOf(check.day) === weekday &&
            dayPartOfHour(localHour(check.opened_at)) === part,
        ).length;
        return { weekday, checks, perDay: checks / occurrences.get(weekday)! };
      });
      if (cells.reduce((sum, cell) => sum + cell.checks, 0) < 20) continue;
      const average = cells.reduce((sum, cell) => sum + cell.perDay, 0) / 5;
      for (const cell of cells) {
        const share = cell.perDay / average;
        if (share <= 0.75 && (!slow || share < slow.share)) slow = { weekday: cell.weekday, part, share };
      }
    }
    const windowStart = shift(today, -89);
    const slowAudience = slow
      ? [...guests.values()].filter((checks) => {
          const recent = checks.filter((check) => check.day >= windowStart);
          return (
            (all || visited(checks, locations)) &&
            recent.some((check) => dayPartOfHour(localHour(check.opened_at)) === slow.part) &&
            !recent.some((check) => weekdayOf(check.day) === slow.weekday)
          );
        }).length
      : 0;
    // The best seller of the range by units at the locations, then the regulars who never ordered it.
    const units = new Map<string, number>();
    for (const check of sent.filter(
      (one) => locations.includes(one.location_id) && one.day >= range.from && one.day <= range.to,
    ))
      for (const line of check.lines)
        units.set(line.menu_item, (units.get(line.menu_item) ?? 0) + line.quantity);
    const best = [...units.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    const untried = [...guests.values()].filter(
      (checks) =>
        (all || visited(checks, locations)) &&
        checks.length >= 3 &&
        !checks.some((check) => check.lines.some((line) => line.menu_item === best)),
    ).length;
    return { lapsed, birthdayAudience, slow, slowAudience, best, untried };
  }

  const query = (extra: Partial<{ location_id: number[]; compare: 'previous' }> = {}) => ({
    from_date: range.from,
    to_date: range.to,
    location_id: [],
    location_group_id: [],
    ...extra,
  });

  /** The service at `at`, waiting for every audience it counts (the background path has its own test). */
  const waitingService = (at: Date) =>
    homeDashboardService(db, () => at, { waitForAudiencesMs: Number.POSITIVE_INFINITY });

  /**
   * The database with the service's second transaction, its background count, held until `release` (or failed
   * with `fail`): a count that takes longer than the call waits, whatever the machine's speed.
   */
  function heldCount() {
    let transactions = 0;
    let release!: () => void;
    let fail!: (error: Error) => void;
    const gate = new Promise<void>((resolve, reject) => {
      release = resolve;
      fail = reject;
    });
    const held: Database = Object.assign(Object.create(db) as Database, {
      tenant: async <T>(companyId: number, work: Parameters<Database['tenant']>[1]): Promise<T> => {
        transactions += 1;
        if (transactions === 2) await gate;
        return db.tenant(companyId, work) as Promise<T>;
      },
    });
    return { held, release, fail, transactions: () => transactions };
  }

  it('answers at once without audiences not counted yet, counts them in the background once and keeps them', async () => {
    await forgetKeptAudiences(db, companyA);
    const whole = await expectedAudiences(places, true);
    const { held, release, transactions } = heldCount();
    const service = homeDashboardService(held, () => now, { waitForAudiencesMs: 20 });
    const first = await service.recommendations(companyA, query());
    // The KPI cards are whole; no recommendation is shown before its audience is counted.
    expect(first.kpis).toEqual(kpis(places, range));
    expect(first.recommendations).toEqual([]);
    expect(first.audiences_counting).toBe(true);
    expect(first.audiences_counted_at).toBeNull();
    // A second ask meanwhile joins the count under way (its own read is the third transaction, no fourth).
    const second = await service.recommendations(companyA, query());
    expect(second.audiences_counting).toBe(true);
    expect(transactions()).toBe(3);
    release();
    await service.settled();
    const counted = await service.recommendations(companyA, query());
    expect(transactions()).toBe(4);
    expect(counted.audiences_counting).toBe(false);
    expect(counted.audiences_counted_at).toBe(now.toISOString());
    const byKind = new Map(counted.recommendations.map((item) => [item.kind, item.audience]));
    expect(byKind.get('lapsed_regulars')).toBe(whole.lapsed.audience);
    expect(byKind.get('birthdays')).toBe(whole.birthdayAudience);
    expect(byKind.get('untried_item')).toBe(whole.untried);
    // The same answer as a call that waits for its counts.
    expect(await waitingService(now).recommendations(companyA, query())).toEqual(counted);
  });

  it('reports a background count that fails, tells the next ask once, and counts again at the one after', async () => {
    await forgetKeptAudiences(db, companyA);
    const { held, fail } = heldCount();
    const failures: unknown[] = [];
    const service = homeDashboardService(held, () => now, {
      waitForAudiencesMs: 20,
      onCountFailed: (error) => failures.push(error),
    });
    expect((await service.recommendations(companyA, query())).audiences_counting).toBe(true);
    fail(new Error('connection lost'));
    await service.settled();
    expect(failures).toEqual([new Error('connection lost')]);
    // The screen asking again learns of it (and shows the failure) rather than asking forever.
    await expect(service.recommendations(companyA, query())).rejects.toThrow('connection lost');
    // Nothing was kept: the ask after it counts (the held database lets every later transaction through).
    await service.recommendations(companyA, query());
    await service.settled();
    const next = await service.recommendations(companyA, query());
    expect(next.audiences_counting).toBe(false);
    expect(next.recommendations.length).toBeGreaterThan(0);
    expect(failures).toHaveLength(1);
  });

  it('answers the KPI cards of the range and the previous period, for the company and one location', async () => {
    const service = waitingService(now);
    for (const locations of [places, [places[0]!], [places[1]!, places[2]!]]) {
      const picked = locations === places ? [] : locations;
      const answer = await service.recommendations(
        companyA,
        query({ location_id: picked, compare: 'previous' }),
      );
      expect(answer.range).toEqual(range);
      expect(answer.previous).toEqual(previous);
      expect(answer.kpis).toEqual(kpis(locations, range));
      expect(answer.previous_kpis).toEqual(kpis(locations, previous));
    }
    const plain = await service.recommendations(companyA, query());
    expect(plain.previous).toBeNull();
    expect(plain.previous_kpis).toBeNull();
    expect(plain.kpis.checks).toBeGreaterThan(0);
  });

  it('answers the chart data: revenue and checks per day, the previous revenue over the same days, emails', async () => {
    const service = waitingService(now);
    const answer = await service.chartData(
      companyA,
      query({ location_id: [places[0]!], compare: 'previous' }),
    );
    const days = Array.from({ length: 30 }, (_, n) => shift(range.from, n));
    const at = (day: string) => sent.filter((check) => check.location_id === places[0] && check.day === day);
    const revenueOf = (day: string) => at(day).reduce((sum, check) => sum + check.total, 0) / 100;
    expect(answer.charts).toEqual([
      { name: 'revenue', data: days.map((day) => ({ x: day, y: revenueOf(day) })) },
      { name: 'checks', data: days.map((day) => ({ x: day, y: at(day).length })) },
      { name: 'previous_revenue', data: days.map((day) => ({ x: day, y: revenueOf(shift(day, -30)) })) },
    ]);
    expect(answer.revenue).toBeCloseTo(kpis([places[0]!], range).revenue, 6);
    expect(answer.emails).toBe(3);
    // Company B has sent none.
    const other = await service.chartData(companyB, query());
    expect(other.emails).toBe(0);
  });

  it('ranks recommendations whose audiences match the plain computation and the segments their clicks save', async () => {
    const service = waitingService(now);
    const segments = segmentsService(db);
    for (const locations of [places, [places[0]!]]) {
      const all = locations === places;
      const answer: HomeDashboard = await service.recommendations(
        companyA,
        query({ location_id: all ? [] : locations }),
      );
      const expected = await expectedAudiences(locations, all);
      const byKind = new Map(answer.recommendations.map((item) => [item.kind, item]));
      expect(expected.lapsed.audience).toBeGreaterThan(0);
      expect(byKind.get('lapsed_regulars')?.audience).toBe(expected.lapsed.audience);
      expect(byKind.get('lapsed_regulars')?.details.location_id).toBe(expected.lapsed.place);
      expect(byKind.get('birthdays')?.audience ?? 0).toBe(expected.birthdayAudience);
      if (all) {
        expect(expected.slow).not.toBeNull();
        expect(expected.birthdayAudience).toBeGreaterThan(0);
      }
      expect(byKind.get('slow_day_part')?.details.weekday ?? null).toBe(expected.slow?.weekday ?? null);
      expect(byKind.get('slow_day_part')?.details.day_part ?? null).toBe(expected.slow?.part ?? null);
      expect(byKind.get('slow_day_part')?.audience ?? 0).toBe(expected.slowAudience);
      expect(byKind.get('untried_item')?.details.item_name).toBe(expected.best);
      expect(byKind.get('untried_item')?.audience).toBe(expected.untried);
      // Ranked by expected revenue = audience × response rate × average check.
      const average = answer.kpis.average_check!;
      for (const item of answer.recommendations) {
        expect(item.audience).toBeGreaterThan(0);
        // The answer is in cents: within half a cent of the product (a product ending in exactly half a cent rounds up).
        const product = item.audience * item.response_rate * average;
        expect(Math.abs(item.expected_revenue! - product)).toBeLessThanOrEqual(0.005 + 1e-9);
      }
      const scores = answer.recommendations.map((item) => item.expected_revenue!);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      // The click saves the segment; its size is the audience.
      for (const item of answer.recommendations) {
        const saved = await segments.create(systemScope(companyA), {
          name: `From ${item.kind}`,
          ...item.segment,
        });
        expect(saved.segmentcache.all_customers).toBe(item.audience);
      }
    }
  });

  it("counts every location's lapsed regulars in one statement, as the checks and the segment engine count them", async () => {
    const grouped = await db.tenant(companyA, (sql) =>
      lapsedRegularsByLocation(sql, companyA, places, { minVisits: 3, days: 60, asOf: now }),
    );
    for (const place of places) {
      const engine = await db.tenant(companyA, (sql) =>
        countSegment(
          sql,
          companyA,
          {
            segment_groups: [
              {
                segment_rules: [
                  { type: 'location', operator: 'in', value: [place] },
                  { type: 'visit_count', operator: 'gte', value: 3 },
                  { type: 'days_since_last_visit', operator: 'gte', value: 60 },
                ],
              },
            ],
          },
          { asOf: now },
        ),
      );
      expect(grouped.get(place) ?? 0).toBe(lapsedAt(place));
      expect(engine.all).toBe(lapsedAt(place));
    }
    expect([...grouped.values()].filter((guests) => guests > 0).length).toBeGreaterThan(0);
  });

  it('reads the slow day part over the range’s last eight weeks at most', () => {
    expect(dayPartRange(range)).toEqual(range);
    expect(dayPartRange({ from: shift(today, -700), to: today })).toEqual({
      from: shift(today, -55),
      to: today,
    });
    expect(dayPartRange({ from: shift(today, -55), to: today })).toEqual({
      from: shift(today, -55),
      to: today,
    });
  });

  it('prices no recommendation when the range has no checks: null, not $0', async () => {
    const service = waitingService(now);
    const empty = {
      from_date: shift(today, -700),
      to_date: shift(today, -671),
      location_id: [],
      location_group_id: [],
    };
    const answer = await service.recommendations(companyA, empty);
    expect(answer.kpis).toEqual({ ...kpis(places, { from: empty.from_date, to: empty.to_date }) });
    expect(answer.kpis.average_check).toBeNull();
    // Lapsed regulars do not depend on the range, so there is still something to recommend, unpriced.
    expect(answer.recommendations.length).toBeGreaterThan(0);
    for (const item of answer.recommendations) expect(item.expected_revenue).toBeNull();
  });

  it('leaves the birthday recommendation out while a birthday flow is live', async () => {
    const service = waitingService(now);
    expect(
      (await service.recommendations(companyA, query())).recommendations.map((item) => item.kind),
    ).toContain('birthdays');
    await db.owner(async (sql) => {
      const flow = await sql.query<{ id: number }>(
        `INSERT INTO flows (company_id, name, status, published_version) VALUES ($1, 'Birthday', 'live', 1) RETURNING id`,
        [companyA],
      );
      await sql.query(
        `INSERT INTO flow_versions (company_id, flow_id, version, graph) VALUES ($1, $2, 1, $3::jsonb)`,
        [
          companyA,
          flow.rows[0]!.id,
          JSON.stringify([{ key: 't', kind: 'trigger', settings: { type: 'birthday', days_before: 0 } }]),
        ],
      );
    });
    expect(
      (await service.recommendations(companyA, query())).recommendations.map((item) => item.kind),
    ).not.toContain('birthdays');
  });

  it('answers nothing for another company’s location', async () => {
    const service = waitingService(now);
    await expect(
      service.recommendations(companyB, query({ location_id: [places[0]!] })),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it('keeps the audiences for the company’s day until its refresh forgets them, and counts them again the next day', async () => {
    // The birthday flow of the test above goes, so the birthday recommendation is back.
    await db.owner(async (sql) => {
      await sql.query('DELETE FROM flow_versions WHERE company_id = $1', [companyA]);
      await sql.query('DELETE FROM flows WHERE company_id = $1', [companyA]);
    });
    await forgetKeptAudiences(db, companyA);
    const later = new Date(now.getTime() + 3_600_000);
    const birthdaysOf = (answer: HomeDashboard) =>
      answer.recommendations.find((item) => item.kind === 'birthdays')?.audience;
    const first = await waitingService(now).recommendations(companyA, query());
    expect(first.audiences_counted_at).toBe(now.toISOString());
    const expected = (await expectedAudiences(places, true)).birthdayAudience;
    expect(birthdaysOf(first)).toBe(expected);

    // A guest with no subscriber gets one born this month: the birthday segment grows.
    const guest = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ id: number }>(
        `SELECT g.id FROM guests g WHERE g.company_id = $1
           AND NOT EXISTS (SELECT 1 FROM subscribers s WHERE s.guest_id = g.id) ORDER BY g.id LIMIT 1`,
        [companyA],
      );
      return Number(rows[0]!.id);
    });
    const added = await makeSubscriber(db, companyA, {
      guest_id: guest,
      birthday: `1985-${today.slice(5, 7)}-15`,
    });
    const birthdaySegment = first.recommendations.find((item) => item.kind === 'birthdays')!.segment;
    const engine = await db.tenant(companyA, (sql) =>
      countSegment(
        sql,
        companyA,
        { segment_groups: birthdaySegment.segment_groups as never },
        { asOf: later },
      ),
    );
    expect(engine.all).toBe(expected + 1);

    // An hour later, the same day: the kept audience, and when it was counted.
    const kept = await waitingService(later).recommendations(companyA, query());
    expect(birthdaysOf(kept)).toBe(expected);
    expect(kept.audiences_counted_at).toBe(now.toISOString());
    const day = today;
    const stored = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ audience_key: string }>(
        'SELECT audience_key FROM kept_audiences WHERE company_id = $1 AND counted_on = $2::date',
        [companyA, day],
      );
      return rows.map((row) => row.audience_key);
    });
    expect(stored.length).toBeGreaterThan(0);
    // Another company reads none of them.
    expect((await db.tenant(companyB, (sql) => keptAudiences(sql, companyA, day, stored))).size).toBe(0);

    // The refresh forgets them: counted again, with the new subscriber.
    await forgetKeptAudiences(db, companyA);
    const recounted = await waitingService(later).recommendations(companyA, query());
    expect(birthdaysOf(recounted)).toBe(expected + 1);
    expect(recounted.audiences_counted_at).toBe(later.toISOString());

    // The next local day counts again, and only that day's audiences are kept.
    const tomorrow = new Date(now.getTime() + DAY);
    const next = await waitingService(tomorrow).recommendations(companyA, query());
    expect(next.audiences_counted_at).toBe(tomorrow.toISOString());
    const days = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ day: string }>(
        `SELECT DISTINCT to_char(counted_on, 'YYYY-MM-DD') AS day FROM kept_audiences WHERE company_id = $1`,
        [companyA],
      );
      return rows.map((row) => row.day);
    });
    expect(days).toEqual([localDay(tomorrow)]);
    // The data as the other tests know it.
    await db.owner((sql) => sql.query('DELETE FROM subscribers WHERE id = $1', [added.id]));
  });
});
