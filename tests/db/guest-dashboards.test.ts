import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { demographicsDashboardService } from '../../server/services/demographics-dashboard.service.js';
import { guestAnalyticsDashboardService } from '../../server/services/guest-analytics-dashboard.service.js';
import type { DashboardQuery } from '../../src/schemas/dashboard-query.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeCompany, makeLocation, makeSubscriber, systemScope } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

const TIME_ZONE = 'America/Los_Angeles';
const BANDS = ['under_18', '18_24', '25_34', '35_44', '45_54', '55_64', '65_plus'] as const;

/** A stored check, read back for the plain-JS computation. */
interface RawCheck {
  guest_id: number;
  location_id: number;
  closed_at: Date;
  total_cents: number;
}

/** A stored subscriber, read back. */
interface RawSubscriber {
  id: number;
  guest_id: number | null;
  birthday: string | null;
  zip: string;
  source_location_id: number | null;
  created_at: Date;
}

/** The day `days` after a `YYYY-MM-DD` day, on the calendar (not the code's own day arithmetic). */
function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** The period a range is compared with, counted here: as many days, ending the day before it starts. */
function periodBefore(from: string, to: string): { from: string; to: string } {
  let length = 0;
  for (let day = from; day <= to; day = addDays(day, 1)) length++;
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/** The local day of an instant in the company's zone, as the JS runtime (not the database) reads it. */
const dayOf = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(at);

/** The first day of a day's week (Monday) or month. */
function periodStart(day: string, period: 'day' | 'week' | 'month'): string {
  if (period === 'day') return day;
  if (period === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The guest analytics figures computed straight from the raw checks. */
function expectedGuests(checks: readonly RawCheck[], locations: number[] | null, from: string, to: string) {
  const firstDay = new Map<number, string>();
  for (const check of checks) {
    const day = dayOf(check.closed_at);
    if (!firstDay.has(check.guest_id) || day < firstDay.get(check.guest_id)!)
      firstDay.set(check.guest_id, day);
  }
  const mine = checks.filter((check) => {
    const day = dayOf(check.closed_at);
    return (locations === null || locations.includes(check.location_id)) && day >= from && day <= to;
  });
  const visits = new Map<number, number>();
  for (const check of mine) visits.set(check.guest_id, (visits.get(check.guest_id) ?? 0) + 1);
  const guests = [...visits.keys()];
  const newGuests = guests.filter((guest) => firstDay.get(guest)! >= from).length;
  const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  const period = days <= 31 ? 'day' : days <= 182 ? 'week' : 'month';
  const series = new Map<string, { all: Set<number>; fresh: Set<number> }>();
  for (let day = periodStart(from, period); day <= to;) {
    series.set(day, { all: new Set(), fresh: new Set() });
    day =
      period === 'day'
        ? addDays(day, 1)
        : period === 'week'
          ? addDays(day, 7)
          : `${new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 1)).toISOString().slice(0, 10)}`;
  }
  for (const check of mine) {
    const start = periodStart(dayOf(check.closed_at), period);
    const cell = series.get(start)!;
    cell.all.add(check.guest_id);
    const since = start > from ? start : from;
    if (firstDay.get(check.guest_id)! >= since) cell.fresh.add(check.guest_id);
  }
  const frequency = new Map<number, number>();
  for (const count of visits.values()) {
    const bucket = Math.min(count, 10);
    frequency.set(bucket, (frequency.get(bucket) ?? 0) + 1);
  }
  return {
    totals: {
      guests: guests.length,
      new_guests: newGuests,
      returning_guests: guests.length - newGuests,
      visits: mine.length,
    },
    period,
    new_vs_returning: [...series].map(([start, cell]) => ({
      period: start,
      new_guests: cell.fresh.size,
      returning_guests: cell.all.size - cell.fresh.size,
    })),
    visit_frequency: [...frequency].sort(([a], [b]) => a - b).map(([visits, guests]) => ({ visits, guests })),
  };
}

/** The first day of the month eleven months before a day's month. */
function yearBefore(day: string): string {
  const index = Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1 - 11;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/** A `YYYY-MM` month as a count of months. */
const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
/** A count of months as `YYYY-MM`. */
const monthOf = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

/**
 * The cohort rows straight from the raw checks (docs/guest-data.md "Cohorts"): only checks at the locations count,
 * a guest's cohort is their first local month there, cohorts whose month is from `fromMonth` to `toMonth`, twelve
 * offsets at most, each up to the latest month with a check at the locations.
 */
function expectedCohorts(
  checks: readonly RawCheck[],
  locations: number[] | null,
  fromMonth: string,
  toMonth: string,
) {
  const here = checks
    .filter((check) => locations === null || locations.includes(check.location_id))
    .map((check) => ({ ...check, month: monthIndex(dayOf(check.closed_at).slice(0, 7)) }));
  if (here.length === 0) return [];
  const latest = Math.max(...here.map((check) => check.month));
  const first = new Map<number, number>();
  for (const check of here)
    first.set(check.guest_id, Math.min(first.get(check.guest_id) ?? Infinity, check.month));
  const cohorts = [...new Set(first.values())]
    .filter((month) => month >= monthIndex(fromMonth) && month <= monthIndex(toMonth))
    .sort((a, b) => a - b);
  return cohorts.map((cohort) => {
    const members = [...first].filter(([, month]) => month === cohort).map(([guest]) => guest);
    const months = [];
    for (let offset = 0; offset < 12 && cohort + offset <= latest; offset++) {
      const these = here.filter(
        (check) => check.month === cohort + offset && first.get(check.guest_id) === cohort,
      );
      const active = new Set(these.map((check) => check.guest_id)).size;
      months.push({
        offset,
        month: monthOf(cohort + offset),
        active,
        retention: Math.round((active / members.length) * 10_000) / 10_000,
        revenue: these.reduce((sum, check) => sum + check.total_cents, 0) / 100,
        checks: these.length,
      });
    }
    return { cohort: monthOf(cohort), size: members.length, months };
  });
}

/** Whole years from a birthday to a day. */
function ageOn(birthday: string, day: string): number {
  const years = Number(day.slice(0, 4)) - Number(birthday.slice(0, 4));
  return day.slice(5) < birthday.slice(5) ? years - 1 : years;
}

/** The demographics figures computed straight from the raw checks and subscribers. */
function expectedDemographics(
  checks: readonly RawCheck[],
  subscribers: readonly RawSubscriber[],
  zipOf: ReadonlyMap<number, string>,
  locations: number[] | null,
  from: string,
  to: string,
) {
  const visited = new Map<number, Set<number>>();
  for (const check of checks) {
    const day = dayOf(check.closed_at);
    if ((locations !== null && !locations.includes(check.location_id)) || day < from || day > to) continue;
    visited.set(check.guest_id, (visited.get(check.guest_id) ?? new Set()).add(check.location_id));
  }
  const people: { kind: string; birthday: string | null; zip: string; places: number[] }[] = [];
  const byId = [...subscribers].sort((a, b) => a.id - b.id);
  for (const [guest, places] of visited) {
    const profile = byId.find((subscriber) => subscriber.guest_id === guest);
    people.push({
      kind: profile ? 'guests_subscribed' : 'guests_only',
      birthday: profile?.birthday ?? null,
      zip: profile?.zip ?? '',
      places: [...places],
    });
  }
  // Subscribers who joined in the range without a visit there: one person per guest (or unlinked subscriber),
  // described by its lowest-id such subscriber.
  const seen = new Set<string>();
  for (const subscriber of byId) {
    const day = dayOf(subscriber.created_at);
    if (locations !== null && !locations.includes(subscriber.source_location_id ?? -1)) continue;
    if (day < from || day > to || (subscriber.guest_id !== null && visited.has(subscriber.guest_id)))
      continue;
    const person = subscriber.guest_id === null ? `s${subscriber.id}` : `g${subscriber.guest_id}`;
    if (seen.has(person)) continue;
    seen.add(person);
    people.push({
      kind: 'subscribers_only',
      birthday: subscriber.birthday,
      zip: subscriber.zip,
      places: subscriber.source_location_id === null ? [] : [subscriber.source_location_id],
    });
  }
  const count = (test: (person: (typeof people)[number]) => boolean) => people.filter(test).length;
  const band = (age: number) =>
    age < 18
      ? 'under_18'
      : age < 25
        ? '18_24'
        : age < 35
          ? '25_34'
          : age < 45
            ? '35_44'
            : age < 55
              ? '45_54'
              : age < 65
                ? '55_64'
                : '65_plus';
  const zips = new Map<string, number>();
  for (const person of people) if (person.zip) zips.set(person.zip, (zips.get(person.zip) ?? 0) + 1);
  const zipped = count((person) => person.zip !== '');
  const top = [...zips].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).slice(0, 10);
  const nearness = (person: (typeof people)[number]) => {
    const placeZips = person.places.map((place) => zipOf.get(place) ?? '').filter((zip) => zip !== '');
    if (person.zip === '' || placeZips.length === 0) return 'unknown';
    return placeZips.includes(person.zip) ? 'same_zip' : 'elsewhere';
  };
  return {
    share: {
      people: people.length,
      guests_subscribed: count((person) => person.kind === 'guests_subscribed'),
      guests_only: count((person) => person.kind === 'guests_only'),
      subscribers_only: count((person) => person.kind === 'subscribers_only'),
    },
    age_bands: BANDS.map((name) => ({
      band: name,
      people: count((person) => person.birthday !== null && band(ageOn(person.birthday, to)) === name),
    })),
    no_birthday: count((person) => person.birthday === null),
    zips: top.map(([zip, n]) => ({ zip, people: n, share: Math.round((n / zipped) * 10_000) / 10_000 })),
    other_zips: zipped - top.reduce((total, [, n]) => total + n, 0),
    no_zip: people.length - zipped,
    distance: {
      same_zip: count((person) => nearness(person) === 'same_zip'),
      elsewhere: count((person) => nearness(person) === 'elsewhere'),
      unknown: count((person) => nearness(person) === 'unknown'),
    },
  };
}

describe('guest dashboards: figures equal plain-JS counts over the raw rows', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let locations: number[];
  let coast: number;
  const random = seededRandom(17);

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  const raw = () =>
    db.owner(async (sql) => {
      const checks = await sql.query<RawCheck>(
        `SELECT guest_id::int AS guest_id, location_id::int AS location_id, closed_at, total_cents::int AS total_cents
         FROM pos_checks
         WHERE company_id = $1 AND guest_id IS NOT NULL`,
        [companyA],
      );
      const subscribers = await sql.query<RawSubscriber>(
        `SELECT id::int AS id, guest_id::int AS guest_id, to_char(birthday, 'YYYY-MM-DD') AS birthday, zip,
                source_location_id::int AS source_location_id, created_at
         FROM subscribers WHERE company_id = $1`,
        [companyA],
      );
      const zips = await sql.query<{ id: number; zip: string }>(
        'SELECT id::int AS id, zip FROM locations WHERE company_id = $1',
        [companyA],
      );
      return {
        checks: checks.rows,
        subscribers: subscribers.rows,
        zipOf: new Map(zips.rows.map((row) => [Number(row.id), row.zip])),
      };
    });

  /** Random checks over 2024–2025 for forty guests, some near midnight where the zone moves the day. */
  function checksFor(companyId: number, places: number[], count: number, prefix: string): IngestCheck[] {
    return Array.from({ length: count }, (_, index) => {
      const closed = new Date(
        Date.UTC(2024, Math.floor(random() * 24), 1 + Math.floor(random() * 28), random() < 0.3 ? 7 : 19, 30),
      );
      return {
        location_id: places[Math.floor(random() * places.length)]!,
        check_number: `${prefix}${companyId}-${index}`,
        opened_at: new Date(closed.getTime() - 3_600_000),
        closed_at: closed,
        total: 500 + Math.floor(random() * 5000),
        lines: [],
        ...(random() < 0.9 ? { guest: { pos_id: `G-${Math.floor(random() * 40)}` } } : {}),
      };
    });
  }

  beforeAll(async () => {
    await db.owner((sql) =>
      sql.query('UPDATE companies SET time_zone = $2 WHERE id = $1', [companyA, TIME_ZONE]),
    );
    locations = [];
    for (const name of ['North', 'South', 'East'])
      locations.push((await makeLocation(db, companyA, name)).id);
    coast = (await makeTestLocationGroup(db, companyA, 'Coast', [locations[1]!, locations[2]!])).id;
    // East has no zip on file: its people's distance is unknown.
    await db.owner((sql) =>
      sql.query(
        `UPDATE locations SET zip = CASE name WHEN 'North' THEN '94110' WHEN 'South' THEN '94111' ELSE '' END
                 WHERE company_id = $1`,
        [companyA],
      ),
    );
    const theirs = (await makeLocation(db, companyB, 'Theirs')).id;
    for (let batch = 0; batch < 4; batch++) {
      const checks = checksFor(companyA, locations, 80, `b${batch}-`);
      await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), checks));
    }
    // A guest of one visit long before every range: the subscribers linked to them join without visiting.
    await db.tenant(companyA, (sql) =>
      ingestChecks(sql, systemScope(companyA), [
        {
          location_id: locations[0]!,
          check_number: 'lonely-1',
          opened_at: new Date('2021-05-04T18:00:00Z'),
          closed_at: new Date('2021-05-04T19:00:00Z'),
          total: 1200,
          lines: [],
          guest: { pos_id: 'LONELY' },
        },
      ]),
    );
    // Company B has the same POS ids and subscribers in the same months: a leak would change A's figures.
    await db.tenant(companyB, (sql) =>
      ingestChecks(sql, systemScope(companyB), checksFor(companyB, [theirs], 80, 'x')),
    );
    const guestIds = await db.owner(
      async (sql) =>
        (
          await sql.query<{ id: number }>(
            'SELECT id::int AS id FROM guests WHERE company_id = $1 ORDER BY (pos_id = $2) DESC, id',
            [companyA, 'LONELY'],
          )
        ).rows,
    );
    const zips = ['94110', '94111', '10001', '60601', ''];
    for (const [companyId, places] of [
      [companyA, locations],
      [companyB, [theirs]],
    ] as const) {
      for (let index = 0; index < 70; index++) {
        const year = 1950 + Math.floor(random() * 60);
        // Every seventh of A's subscribers is linked to the lonely guest: several subscribers, one person.
        const linked =
          companyId !== companyA
            ? null
            : index % 7 === 0
              ? guestIds[0]!
              : random() < 0.6
                ? guestIds[Math.floor(random() * guestIds.length)]!
                : null;
        const subscriber = await makeSubscriber(db, companyId, {
          zip: zips[Math.floor(random() * zips.length)]!,
          birthday:
            random() < 0.3
              ? null
              : `${year}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
          guest_id: linked?.id ?? null,
          source_location_id: random() < 0.2 ? null : places[Math.floor(random() * places.length)]!,
        });
        const joined = new Date(
          Date.UTC(2024, Math.floor(random() * 24), 1 + Math.floor(random() * 28), 7, 30),
        );
        await db.owner((sql) =>
          sql.query('UPDATE subscribers SET created_at = $2 WHERE id = $1', [subscriber.id, joined]),
        );
      }
    }
  });

  const filters = (): [string, Partial<DashboardQuery>, number[] | null][] => [
    ['all', {}, null],
    ['North', { location_id: [locations[0]!] }, [locations[0]!]],
    ['North and East', { location_id: [locations[0]!, locations[2]!] }, [locations[0]!, locations[2]!]],
    ['Coast', { location_group_id: [coast] }, [locations[1]!, locations[2]!]],
  ];
  const ranges: [string, string][] = [
    ['2025-03-01', '2025-03-31'],
    ['2024-11-15', '2025-02-20'],
    ['2024-02-01', '2025-12-31'],
  ];
  const query = (from: string, to: string, extra: Partial<DashboardQuery>): DashboardQuery => ({
    from_date: from,
    to_date: to,
    compare: 'previous',
    location_id: [],
    location_group_id: [],
    ...extra,
  });

  it('counts new and returning guests, visit frequency and cohorts as the raw checks say', async () => {
    const { checks } = await raw();
    const service = guestAnalyticsDashboardService(db);
    for (const [from, to] of ranges) {
      for (const [name, filter, places] of filters()) {
        const answer = await service.figures(companyA, query(from, to, filter));
        const expected = expectedGuests(checks, places, from, to);
        const before = periodBefore(from, to);
        expect(answer, `${name} ${from}…${to}`).toMatchObject({
          ...expected,
          range: { from, to },
          previous: before,
          previous_totals: expectedGuests(checks, places, before.from, before.to).totals,
        });
        // A year of cohorts up to the range's last month, or the range's own months when it is longer.
        const cohortsFrom = from < yearBefore(to) ? from : yearBefore(to);
        expect(answer.cohorts, `${name} ${from}…${to} cohorts`).toEqual(
          expectedCohorts(checks, places, cohortsFrom.slice(0, 7), to.slice(0, 7)),
        );
      }
    }
    const wide = expectedGuests(checks, null, '2024-02-01', '2025-12-31');
    expect(wide.totals.new_guests).toBeGreaterThan(0);
    expect(wide.totals.returning_guests).toBeGreaterThan(0);
    expect(wide.visit_frequency.length).toBeGreaterThan(3);
  });

  it('counts age bands, zips, distance and kinds as the raw subscribers and checks say', async () => {
    const { checks, subscribers, zipOf } = await raw();
    const service = demographicsDashboardService(db);
    for (const [from, to] of ranges) {
      for (const [name, filter, places] of filters()) {
        const answer = await service.figures(companyA, query(from, to, filter));
        const before = periodBefore(from, to);
        expect(answer, `${name} ${from}…${to}`).toEqual({
          ...expectedDemographics(checks, subscribers, zipOf, places, from, to),
          range: { from, to },
          previous: before,
          previous_share: expectedDemographics(checks, subscribers, zipOf, places, before.from, before.to)
            .share,
        });
      }
    }
    // Several subscribers of one guest are one person: some range counts fewer people than subscriber rows.
    const subscriberRows = (from: string, to: string) =>
      subscribers.filter((subscriber) => {
        const day = dayOf(subscriber.created_at);
        const came = checks.some(
          (check) =>
            check.guest_id === subscriber.guest_id &&
            dayOf(check.closed_at) >= from &&
            dayOf(check.closed_at) <= to,
        );
        return day >= from && day <= to && !came;
      }).length;
    expect(
      ranges.some(
        ([from, to]) =>
          subscriberRows(from, to) >
          expectedDemographics(checks, subscribers, zipOf, null, from, to).share.subscribers_only,
      ),
    ).toBe(true);
    const wide = expectedDemographics(checks, subscribers, zipOf, null, '2024-01-01', '2025-12-31');
    for (const figure of [wide.share.guests_subscribed, wide.share.guests_only, wide.share.subscribers_only])
      expect(figure).toBeGreaterThan(0);
    expect(wide.no_birthday).toBeGreaterThan(0);
    expect(wide.distance.same_zip * wide.distance.elsewhere * wide.distance.unknown).toBeGreaterThan(0);
  });

  it('answers nothing for a group without locations, and no comparison unless asked', async () => {
    const empty = (await makeTestLocationGroup(db, companyA, 'Empty', [])).id;
    const guests = await guestAnalyticsDashboardService(db).figures(companyA, {
      ...query('2025-03-01', '2025-03-31', { location_group_id: [empty] }),
      compare: undefined,
    });
    expect(guests.totals).toEqual({ guests: 0, new_guests: 0, returning_guests: 0, visits: 0 });
    expect(guests.previous).toBeNull();
    expect(guests.previous_totals).toBeNull();
    expect(guests.cohorts).toEqual([]);
    const people = await demographicsDashboardService(db).figures(
      companyA,
      query('2025-03-01', '2025-03-31', { location_group_id: [empty] }),
    );
    expect(people.share.people).toBe(0);
  });

  it('puts a birthday on a band’s edge in the band its age in whole years says, 29 February included', async () => {
    const company = (await makeCompany(db, 'Ages')).id;
    const place = (await makeLocation(db, company, 'Only')).id;
    /** Whole years from a birthday to a day, counted on the calendar. */
    const ageOn = (birthday: string, day: string) => {
      const [by, bm, bd] = birthday.split('-').map(Number) as [number, number, number];
      const [y, m, d] = day.split('-').map(Number) as [number, number, number];
      return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
    };
    const bandOf = (age: number) => BANDS[[18, 25, 35, 45, 55, 65].filter((start) => age >= start).length]!;
    for (const to of ['2025-02-28', '2024-02-29', '2025-03-01']) {
      const year = Number(to.slice(0, 4));
      // Each band's edge and the days either side, and the leap days near it.
      const birthdays = [18, 25, 35, 45, 55, 65].flatMap((years) =>
        [-1, 0, 1].map((shift) => addDays(`${year - years}${to.slice(4)}`, shift)),
      );
      birthdays.push('2004-02-29', '2000-02-29', '1960-02-29', '2007-02-28', '2007-03-01');
      const checks: IngestCheck[] = birthdays.map((_, n) => ({
        location_id: place,
        check_number: `${to}-${n}`,
        opened_at: new Date(`${to}T18:00:00Z`),
        closed_at: new Date(`${to}T19:00:00Z`),
        total: 1000,
        guest: { pos_id: `age-${to}-${n}` },
        lines: [],
      }));
      await db.tenant(company, (sql) => ingestChecks(sql, systemScope(company), checks));
      const guests = await db.tenant(company, async (sql) => {
        const { rows } = await sql.query<{ id: number; pos_id: string }>(
          'SELECT id::int AS id, pos_id FROM guests WHERE company_id = $1 AND pos_id LIKE $2',
          [company, `age-${to}-%`],
        );
        return new Map(rows.map((row) => [row.pos_id, row.id]));
      });
      for (const [n, birthday] of birthdays.entries())
        await makeSubscriber(db, company, { guest_id: guests.get(`age-${to}-${n}`)!, birthday });
      const expected = BANDS.map((band) => ({
        band,
        people: birthdays.filter((birthday) => bandOf(ageOn(birthday, to)) === band).length,
      }));
      for (const filter of [{}, { location_id: [place] }]) {
        const answer = await demographicsDashboardService(db).figures(company, query(to, to, filter));
        expect({ to, filter, bands: answer.age_bands }).toEqual({ to, filter, bands: expected });
      }
      // The edges are there: some people turned a year older on that very day (leap days among them).
      const birthdaysThatDay = birthdays.filter(
        (birthday) => ageOn(birthday, to) !== ageOn(birthday, addDays(to, -1)),
      );
      expect(birthdaysThatDay.length).toBeGreaterThanOrEqual(3);
    }
  });
});
