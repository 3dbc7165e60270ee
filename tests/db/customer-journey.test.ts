import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { rebuildRollups, removeChecksFromRollups } from '../../server/repositories/pos-rollups.repository.js';
import { customerJourneyService, journeyFigures } from '../../server/services/customer-journey.service.js';
import { eraseGuest } from '../../server/services/customer-erasure.js';
import { locationsService } from '../../server/services/locations.service.js';
import type { CustomerJourneyQuery } from '../../src/schemas/customer-journey.js';
import { previousPeriod } from '../../src/schemas/dashboard-query.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

const TIME_ZONE = 'America/Los_Angeles';
const BUCKET_TOPS = [7, 14, 30, 60, 90, 180, Infinity];

/** A stored check, read back for the plain-JS computation. */
interface RawCheck {
  guest_id: number;
  location_id: number;
  closed_at: Date;
}

/** One visit as the test works it out: a guest's local day, at the lowest location id of that day. */
interface Visit {
  guest: number;
  day: string;
  location: number;
  number: number;
  next: Visit | null;
}

/** The local day of an instant in the company's zone, as the JS runtime (not the database) reads it. */
const dayOf = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(at);
/** Whole days from one day to a later one. */
const between = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
/** A share rounded to four decimals (0 of nothing). */
const share = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;

/** Every guest's visits in order, straight from the raw checks. */
function visitsOf(checks: readonly RawCheck[]): Visit[] {
  const days = new Map<number, Map<string, number>>();
  for (const check of checks) {
    const byDay = days.get(check.guest_id) ?? new Map<string, number>();
    const day = dayOf(check.closed_at);
    byDay.set(day, Math.min(byDay.get(day) ?? Infinity, check.location_id));
    days.set(check.guest_id, byDay);
  }
  const visits: Visit[] = [];
  for (const [guest, byDay] of days) {
    const ordered = [...byDay].sort(([a], [b]) => (a < b ? -1 : 1));
    const mine = ordered.map(([day, location], index) => ({
      guest,
      day,
      location,
      number: index + 1,
      next: null as Visit | null,
    }));
    mine.forEach((visit, index) => (visit.next = mine[index + 1] ?? null));
    visits.push(...mine);
  }
  return visits;
}

/**
 * The journey-gap rollup the visits make, counted in JS: each visit on its day at its location and at location 0
 * (the company), by visit number (10: ten and later) and days until the next visit (0: none).
 */
function journeyGapsOf(visits: readonly Visit[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const visit of visits) {
    const gap = visit.next ? between(visit.day, visit.next.day) : 0;
    for (const location of [visit.location, 0]) {
      const key = `${location}:${visit.day}:${Math.min(visit.number, 10)}:${gap}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  return counts;
}

/** The quantile by sorting every value (linear between the nearest ranks), to a tenth. */
function quantile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = q * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.min(low + 1, sorted.length - 1);
  return Math.round((sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low)) * 10) / 10;
}

/** The headline figures of a range, straight from the raw checks. */
function expectedTotals(checks: readonly RawCheck[], places: number[] | null, from: string, to: string) {
  const at = (location: number) => places === null || places.includes(location);
  const spread = new Map<number, { here: boolean; places: Set<number> }>();
  for (const check of checks) {
    const day = dayOf(check.closed_at);
    if (day < from || day > to) continue;
    const guest = spread.get(check.guest_id) ?? { here: false, places: new Set<number>() };
    guest.here ||= at(check.location_id);
    guest.places.add(check.location_id);
    spread.set(check.guest_id, guest);
  }
  const guests = [...spread.values()].filter((guest) => guest.here);
  const multi = guests.filter((guest) => guest.places.size > 1).length;
  const firsts = visitsOf(checks).filter(
    (visit) => visit.number === 1 && visit.day >= from && visit.day <= to && at(visit.location),
  );
  const returned = firsts.filter((visit) => visit.next !== null && visit.next.day <= to).length;
  return {
    guests: guests.length,
    multi_location_guests: multi,
    multi_location_share: share(multi, guests.length),
    new_guests: firsts.length,
    returned_guests: returned,
    return_rate: share(returned, firsts.length),
  };
}

/** The whole answer's figures, straight from the raw checks. */
function expected(checks: readonly RawCheck[], places: number[] | null, from: string, to: string) {
  const at = (location: number) => places === null || places.includes(location);
  const visits = visitsOf(checks).filter(
    (visit) => visit.day >= from && visit.day <= to && at(visit.location),
  );
  const cells = new Map<string, number>();
  for (const visit of visits.filter((one) => one.number === 1)) {
    const next = visit.next && visit.next.day <= to ? visit.next.location : null;
    const key = `${visit.location}:${next}`;
    cells.set(key, (cells.get(key) ?? 0) + 1);
  }
  const moves = [...cells]
    .map(([key, guests]) => {
      const [from_location_id, to_location_id] = key.split(':');
      return {
        from_location_id: Number(from_location_id),
        to_location_id: to_location_id === 'null' ? null : Number(to_location_id),
        guests,
      };
    })
    .sort(
      (a, b) =>
        a.from_location_id - b.from_location_id ||
        (a.to_location_id ?? Infinity) - (b.to_location_id ?? Infinity),
    );
  const gaps = [];
  for (let number = 1; number <= 10; number++) {
    const mine = visits.filter((visit) => Math.min(visit.number, 10) === number);
    if (mine.length === 0) continue;
    const days = mine.filter((visit) => visit.next).map((visit) => between(visit.day, visit.next!.day));
    const bucketOf = (gap: number) => BUCKET_TOPS.findIndex((top) => gap <= top);
    gaps.push({
      visit_number: number,
      visits: mine.length,
      returned: days.length,
      median_days: quantile(days, 0.5),
      p25_days: quantile(days, 0.25),
      p75_days: quantile(days, 0.75),
      within_30: share(days.filter((gap) => gap <= 30).length, mine.length),
      within_60: share(days.filter((gap) => gap <= 60).length, mine.length),
      within_90: share(days.filter((gap) => gap <= 90).length, mine.length),
      buckets: BUCKET_TOPS.map((_, index) => days.filter((gap) => bucketOf(gap) === index).length),
      not_returned: mine.length - days.length,
    });
  }
  return { moves, gaps, totals: expectedTotals(checks, places, from, to) };
}

describe('customer journey: figures equal plain-JS counts over the raw checks', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let locations: number[];
  let coast: number;
  const random = seededRandom(38);

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  const raw = () =>
    db.owner(
      async (sql) =>
        (
          await sql.query<RawCheck>(
            `SELECT guest_id::int AS guest_id, location_id::int AS location_id, closed_at FROM pos_checks
             WHERE company_id = $1 AND guest_id IS NOT NULL`,
            [companyA],
          )
        ).rows,
    );

  /** The stored visits of company A, as the rollup keeps them. */
  const storedVisits = () =>
    db.owner(
      async (sql) =>
        (
          await sql.query<{
            guest: number;
            day: string;
            location: number;
            number: number;
            next: string | null;
          }>(
            `SELECT guest_id::int AS guest, to_char(day, 'YYYY-MM-DD') AS day, location_id::int AS location,
                    visit_number AS number,
                    to_char(next_day, 'YYYY-MM-DD') || ':' || next_location_id AS next
             FROM pos_guest_visits WHERE company_id = $1 ORDER BY guest_id, day`,
            [companyA],
          )
        ).rows,
    );

  /** The rollup's rows must be exactly the visits the raw checks make. */
  async function expectVisitsExact() {
    const want = visitsOf(await raw())
      .map((visit) => ({
        guest: visit.guest,
        day: visit.day,
        location: visit.location,
        number: visit.number,
        next: visit.next ? `${visit.next.day}:${visit.next.location}` : null,
      }))
      .sort((a, b) => a.guest - b.guest || (a.day < b.day ? -1 : 1));
    expect(await storedVisits()).toEqual(want);
    expect(await storedJourneyGaps()).toEqual(journeyGapsOf(visitsOf(await raw())));
  }

  /** The journey-gap rollup's rows (migration 0049), as `location:day:visit number:gap` → visits. */
  const storedJourneyGaps = () =>
    db.owner(async (sql) =>
      Object.fromEntries(
        (
          await sql.query<{ key: string; visits: number }>(
            `SELECT location_id || ':' || to_char(day, 'YYYY-MM-DD') || ':' || visit_number || ':' || gap AS key,
                    visits::int AS visits
             FROM pos_journey_gaps WHERE company_id = $1`,
            [companyA],
          )
        ).rows.map((row) => [row.key, row.visits]),
      ),
    );

  /** Random checks over 2024–2025 for sixty regulars and some one-off guests, clustered so that many come back, some near midnight. */
  function checksFor(companyId: number, places: number[], count: number, prefix: string): IngestCheck[] {
    return Array.from({ length: count }, (_, index) => {
      const closed = new Date(
        Date.UTC(2024, Math.floor(random() * 24), 1 + Math.floor(random() * 28), random() < 0.3 ? 7 : 19, 30),
      );
      // Most guests keep to a home location; a third of their checks go anywhere.
      const guest = Math.floor(random() * 60);
      const location =
        random() < 0.65 ? places[guest % places.length]! : places[Math.floor(random() * places.length)]!;
      return {
        location_id: location,
        check_number: `${prefix}${companyId}-${index}`,
        opened_at: new Date(closed.getTime() - 3_600_000),
        closed_at: closed,
        total: 500 + Math.floor(random() * 5000),
        lines: [],
        // One check in ten has no guest; one in ten is a guest who never comes back.
        ...(random() < 0.9
          ? { guest: { pos_id: random() < 0.1 ? `once-${prefix}${index}` : `G-${guest}` } }
          : {}),
      };
    });
  }

  beforeAll(async () => {
    await db.owner((sql) =>
      sql.query('UPDATE companies SET time_zone = $2 WHERE id = $1', [companyA, TIME_ZONE]),
    );
    locations = [];
    for (const name of ['North', 'South', 'East', 'West'])
      locations.push((await makeLocation(db, companyA, name)).id);
    coast = (await makeTestLocationGroup(db, companyA, 'Coast', [locations[1]!, locations[2]!])).id;
    const theirs = (await makeLocation(db, companyB, 'Theirs')).id;
    // Batches scattered over the two years: later batches put older checks before stored ones.
    for (let batch = 0; batch < 5; batch++) {
      const checks = checksFor(companyA, locations, 120, `b${batch}-`);
      await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), checks));
    }
    // Company B has the same POS ids on the same days: a leak would change A's figures.
    await db.tenant(companyB, (sql) =>
      ingestChecks(sql, systemScope(companyB), checksFor(companyB, [theirs], 120, 'x')),
    );
  });

  const filters = (): [string, Partial<CustomerJourneyQuery>, number[] | null][] => [
    ['all', {}, null],
    ['North', { location_id: [locations[0]!] }, [locations[0]!]],
    [
      'North and the last',
      { location_id: [locations[0]!, locations.at(-1)!] },
      [locations[0]!, locations.at(-1)!],
    ],
    ['Coast', { location_group_id: [coast] }, [locations[1]!, locations[2]!]],
  ];
  const ranges: [string, string][] = [
    ['2025-03-01', '2025-03-31'],
    ['2024-11-15', '2025-02-20'],
    ['2024-01-01', '2025-12-31'],
  ];
  const query = (from: string, to: string, extra: Partial<CustomerJourneyQuery>): CustomerJourneyQuery => ({
    from_date: from,
    to_date: to,
    compare: 'previous',
    location_id: [],
    location_group_id: [],
    ...extra,
  });

  /** Every figure of every filter and range equals the plain-JS computation (and the raw-checks reading). */
  async function expectFiguresExact() {
    const checks = await raw();
    const service = customerJourneyService(db);
    for (const [from, to] of ranges) {
      for (const [name, filter, places] of filters()) {
        const answer = await service.figures(companyA, query(from, to, filter));
        const before = previousPeriod({ from, to });
        expect(answer, `${name} ${from}…${to}`).toMatchObject({
          ...expected(checks, places, from, to),
          range: { from, to },
          previous: before,
          previous_totals: expectedTotals(checks, places, before.from, before.to),
          company_locations: locations.length,
        });
        const fromRaw = await db.tenant(companyA, (sql) =>
          journeyFigures(sql, companyA, query(from, to, filter), 'raw'),
        );
        expect(fromRaw, `raw ${name} ${from}…${to}`).toEqual(answer);
      }
    }
  }

  it('keeps one visit row per guest day, numbered and chained, through shuffled batches', async () => {
    await expectVisitsExact();
    const visits = visitsOf(await raw());
    // The data is worth testing: guests move between locations, come back many times, and some never do.
    const firsts = visits.filter((visit) => visit.number === 1);
    expect(
      firsts.filter((visit) => visit.next && visit.next.location !== visit.location).length,
    ).toBeGreaterThan(5);
    expect(
      firsts.filter((visit) => visit.next && visit.next.location === visit.location).length,
    ).toBeGreaterThan(5);
    expect(visits.some((visit) => visit.number > 10)).toBe(true);
  });

  it('answers the matrix, the gaps by visit number and the totals as the raw checks say', async () => {
    await expectFiguresExact();
    const wide = expected(await raw(), null, '2024-01-01', '2025-12-31');
    expect(wide.moves.some((move) => move.to_location_id === null)).toBe(true);
    expect(wide.gaps).toHaveLength(10);
    expect(wide.totals.multi_location_guests).toBeGreaterThan(0);
    const march = expected(await raw(), null, '2025-03-01', '2025-03-31');
    expect(march.totals.new_guests).toBeGreaterThanOrEqual(0);
  });

  it('lists the scope’s locations and where guests went, and nothing for a group without locations', async () => {
    const answer = await customerJourneyService(db).figures(
      companyA,
      query('2024-01-01', '2025-12-31', { location_id: [locations[0]!] }),
    );
    const listed = answer.locations.map((location) => location.id);
    expect(listed).toContain(locations[0]);
    for (const move of answer.moves)
      if (move.to_location_id !== null) expect(listed).toContain(move.to_location_id);
    const empty = (await makeTestLocationGroup(db, companyA, 'Empty', [])).id;
    const none = await customerJourneyService(db).figures(companyA, {
      ...query('2025-03-01', '2025-03-31', { location_group_id: [empty] }),
      compare: undefined,
    });
    expect(none).toMatchObject({ moves: [], gaps: [], previous: null, previous_totals: null });
    expect(none.totals).toEqual({
      guests: 0,
      multi_location_guests: 0,
      multi_location_share: 0,
      new_guests: 0,
      returned_guests: 0,
      return_rate: 0,
    });
  });

  it('stays exact when guests are erased, checks taken away, a location deleted and the rollups rebuilt', async () => {
    const [erased] = await db.owner(
      async (sql) =>
        (
          await sql.query<{ id: number }>(
            `SELECT guest_id::int AS id FROM pos_checks WHERE company_id = $1 AND guest_id IS NOT NULL
             GROUP BY guest_id ORDER BY count(*) DESC, guest_id LIMIT 1`,
            [companyA],
          )
        ).rows,
    );
    await db.tenant(companyA, (sql) => eraseGuest(sql, systemScope(companyA), erased!.id));
    await expectVisitsExact();
    // Each guest's earliest check taken away, then a random fifth: first visits move on, visits renumber.
    const removals = await db.tenant(companyA, async (sql) => {
      const earliest = await sql.query<{ id: number }>(
        `SELECT DISTINCT ON (guest_id) id FROM pos_checks WHERE company_id = $1 AND guest_id IS NOT NULL
         ORDER BY guest_id, closed_at`,
        [companyA],
      );
      const others = await sql.query<{ id: number }>('SELECT id FROM pos_checks WHERE company_id = $1', [
        companyA,
      ]);
      return [
        earliest.rows.map((row) => row.id),
        others.rows.map((row) => row.id).filter(() => random() < 0.2),
      ];
    });
    for (const ids of removals) {
      await db.tenant(companyA, async (sql) => {
        await removeChecksFromRollups(sql, companyA, ids);
        await sql.query('DELETE FROM pos_checks WHERE company_id = $1 AND id = ANY($2::bigint[])', [
          companyA,
          ids,
        ]);
      });
      await expectVisitsExact();
    }
    await locationsService(db).remove(systemScope(companyA), locations[3]!);
    locations = locations.slice(0, 3);
    await expectVisitsExact();
    await expectFiguresExact();
    await db.tenant(companyA, (sql) => rebuildRollups(sql, companyA));
    await expectVisitsExact();
    await expectFiguresExact();
  });
});
