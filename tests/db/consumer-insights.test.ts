import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { hourFigures } from '../../server/repositories/consumer-insights.repository.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { rebuildRollups } from '../../server/repositories/pos-rollups.repository.js';
import { voidChecks } from '../../server/repositories/pos-voids.repository.js';
import { createSegment } from '../../server/repositories/segments.repository.js';
import { consumerInsightsService } from '../../server/services/consumer-insights.service.js';
import type { ConsumerInsightsQuery } from '../../src/schemas/consumer-insights.js';
import { previousPeriod } from '../../src/schemas/dashboard-query.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';
import { dayPartOfHour } from '../support/day-parts.js';

/**
 * Every figure of `GET /api/analytics/consumer-insights/` against a plain-JS count over the generated checks:
 * days, weekdays and hours by Intl in the company's zone, day parts by Intl in each location's zone, gaps from
 * each guest's sorted days, segment members by their checks counted here.
 */

const COMPANY_ZONE = 'America/Los_Angeles';
const ITEMS = [
  ['Eggs', 'Breakfast'],
  ['Pancakes', 'Breakfast'],
  ['Burger', 'Mains'],
  ['Steak', 'Mains'],
  ['Fries', 'Sides'],
  ['Soda', 'Drinks'],
  ['Wine', 'Drinks'],
  ['Pie', 'Desserts'],
] as const;
const GAP_BUCKETS = [
  ['1_7', 1, 7],
  ['8_14', 8, 14],
  ['15_30', 15, 30],
  ['31_60', 31, 60],
  ['61_90', 61, 90],
  ['91_plus', 91, Infinity],
] as const;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** A formatter per zone and options, made once: making one per check took most of the test's time. */
function formatter(zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${zone}${JSON.stringify(options)}`;
  if (!formatters.has(key)) {
    formatters.set(key, new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', ...options }));
  }
  return formatters.get(key)!;
}
const localDay = (at: Date) => formatter(COMPANY_ZONE, {}).format(at);
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const weekdayOf = (at: Date) =>
  WEEKDAYS.indexOf(formatter(COMPANY_ZONE, { weekday: 'short' }).format(at)) + 1;
const hourOf = (at: Date, zone = COMPANY_ZONE) => Number(formatter(zone, { hour: '2-digit' }).format(at));
const dayPartOf = (at: Date, zone: string) => dayPartOfHour(hourOf(at, zone));
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);
const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);
const avgCheck = (cents: number, checks: number) => (checks === 0 ? null : Math.round(cents / checks) / 100);

/** A generated check with where it was and whose it is. */
type Check = IngestCheck & { guest?: { pos_id: string } };

/** The call's figures counted over the checks by hand. */
function expected(
  checks: readonly Check[],
  zoneOf: ReadonlyMap<number, string>,
  locations: number[] | null,
  from: string,
  to: string,
  member: ((posId: string) => boolean) | null,
) {
  const inScope = (check: Check) =>
    (locations === null || locations.includes(check.location_id)) &&
    localDay(check.closed_at) >= from &&
    localDay(check.closed_at) <= to;
  const mine = checks.filter(inScope);
  const cents = mine.reduce((total, check) => total + check.total, 0);
  const covers = mine.reduce((total, check) => total + (check.guest_count ?? 1), 0);
  const totals = {
    checks: mine.length,
    revenue: cents / 100,
    covers,
    average_check: avgCheck(cents, mine.length),
    average_party: mine.length === 0 ? null : Math.round((covers / mine.length) * 100) / 100,
  };
  const cellOf = new Map<string, Check[]>();
  for (const check of mine) {
    const key = `${weekdayOf(check.opened_at)}|${hourOf(check.opened_at)}`;
    cellOf.set(key, [...(cellOf.get(key) ?? []), check]);
  }
  const hours = [];
  for (let weekday = 1; weekday <= 7; weekday++) {
    for (let hour = 0; hour < 24; hour++) {
      const cell = cellOf.get(`${weekday}|${hour}`) ?? [];
      hours.push({
        weekday,
        hour,
        checks: cell.length,
        revenue: cell.reduce((total, check) => total + check.total, 0) / 100,
      });
    }
  }
  const sizes = ['1', '2', '3', '4', '5', '6_plus'];
  const party_sizes = sizes.map((size, index) => ({
    size,
    checks: mine.filter((check) => Math.min(check.guest_count ?? 1, 6) === index + 1).length,
  }));
  const day_parts = ['breakfast', 'lunch', 'dinner', 'late'].map((name) => {
    const these = mine.filter((check) => dayPartOf(check.opened_at, zoneOf.get(check.location_id)!) === name);
    const revenue = these.reduce((total, check) => total + check.total, 0);
    return {
      day_part: name,
      checks: these.length,
      revenue: revenue / 100,
      average_check: avgCheck(revenue, these.length),
    };
  });
  // Days between visits: each guest's distinct days anywhere; a day at the locations in the range against the
  // guest's day before it.
  const daysOf = new Map<string, Set<string>>();
  for (const check of checks) {
    if (!check.guest) continue;
    daysOf.set(
      check.guest.pos_id,
      (daysOf.get(check.guest.pos_id) ?? new Set()).add(localDay(check.closed_at)),
    );
  }
  const visitDays = new Set(
    mine.filter((check) => check.guest).map((check) => `${check.guest!.pos_id}|${localDay(check.closed_at)}`),
  );
  const gaps: number[] = [];
  for (const key of visitDays) {
    const [guest, day] = key.split('|') as [string, string];
    const earlier = [...daysOf.get(guest)!].filter((other) => other < day).sort();
    if (earlier.length > 0) gaps.push(daysBetween(earlier.at(-1)!, day));
  }
  gaps.sort((a, b) => a - b);
  const median =
    gaps.length === 0
      ? null
      : gaps.length % 2 === 1
        ? gaps[(gaps.length - 1) / 2]!
        : (gaps[gaps.length / 2 - 1]! + gaps[gaps.length / 2]!) / 2;
  const visit_gaps = {
    visits: gaps.length,
    median_days: median,
    buckets: GAP_BUCKETS.map(([gap, low, high]) => ({
      gap,
      visits: gaps.filter((days) => days >= low && days <= high).length,
    })),
  };
  // Categories: every check's lines, and the segment members' checks' lines.
  const categoryTotals = (these: readonly Check[]) => {
    const totals = new Map<string, { units: number; cents: number }>();
    for (const check of these) {
      for (const line of check.lines) {
        const row = totals.get(line.category!) ?? { units: 0, cents: 0 };
        row.units += line.quantity;
        row.cents += line.amount;
        totals.set(line.category!, row);
      }
    }
    return totals;
  };
  const all = categoryTotals(mine);
  const theirs = member === null ? mine : mine.filter((check) => check.guest && member(check.guest.pos_id));
  const own = categoryTotals(theirs);
  const sumOf = (map: Map<string, { units: number; cents: number }>, key: 'units' | 'cents') =>
    [...map.values()].reduce((total, row) => total + row[key], 0);
  const guests = new Set(
    (member === null ? mine : theirs.filter((check) => check.lines.length > 0))
      .filter((check) => check.guest)
      .map((check) => check.guest!.pos_id),
  );
  return {
    totals,
    hours,
    party_sizes,
    day_parts,
    visit_gaps,
    categories: {
      guests: guests.size,
      units: sumOf(own, 'units'),
      revenue: sumOf(own, 'cents') / 100,
      all_units: sumOf(all, 'units'),
      all_revenue: sumOf(all, 'cents') / 100,
      rows: [...own]
        .sort(([a, x], [b, y]) => y.units - x.units || y.cents - x.cents || a.localeCompare(b))
        .slice(0, 10)
        .map(([category, row]) => ({
          category,
          units: row.units,
          revenue: row.cents / 100,
          units_share: pct(row.units, sumOf(own, 'units')),
          revenue_share: pct(row.cents, sumOf(own, 'cents')),
          all_units: all.get(category)?.units ?? 0,
          all_revenue: (all.get(category)?.cents ?? 0) / 100,
          all_units_share: pct(all.get(category)?.units ?? 0, sumOf(all, 'units')),
          all_revenue_share: pct(all.get(category)?.cents ?? 0, sumOf(all, 'cents')),
        })),
    },
  };
}

describe('consumer insights: figures equal plain-JS counts over the generated checks', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let locations: number[];
  let coast: number;
  let regulars: number;
  let northRegulars: number;
  let theirSegment: number;
  const zoneOf = new Map<number, string>();
  let checks: Check[] = [];
  const random = seededRandom(37);

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  /** Random checks over 2024–2025 for forty guests at any hour, some closing after local midnight. */
  function checksFor(places: number[], count: number, prefix: string): Check[] {
    return Array.from({ length: count }, (_, index) => {
      const opened = new Date(
        Date.UTC(
          2024,
          Math.floor(random() * 24),
          1 + Math.floor(random() * 28),
          Math.floor(random() * 24),
          Math.floor(random() * 60),
        ),
      );
      const lines: IngestCheck['lines'] = [];
      const lineCount = Math.floor(random() * 4);
      for (let line = 0; line < lineCount; line++) {
        const [item, category] = ITEMS[Math.floor(random() * ITEMS.length)]!;
        lines.push({
          menu_item: item,
          category,
          quantity: 1 + Math.floor(random() * 3),
          amount: 300 + Math.floor(random() * 2000),
        });
      }
      return {
        location_id: places[Math.floor(random() * places.length)]!,
        check_number: `${prefix}-${index}`,
        opened_at: opened,
        closed_at: new Date(opened.getTime() + (20 + Math.floor(random() * 160)) * 60_000),
        total: 500 + Math.floor(random() * 9000),
        guest_count: 1 + Math.floor(random() * 8),
        lines,
        ...(random() < 0.85 ? { guest: { pos_id: `G-${Math.floor(random() * 40)}` } } : {}),
      };
    });
  }

  beforeAll(async () => {
    await db.owner((sql) =>
      sql.query('UPDATE companies SET time_zone = $2 WHERE id = $1', [companyA, COMPANY_ZONE]),
    );
    locations = [];
    for (const name of ['North', 'South', 'East'])
      locations.push((await makeLocation(db, companyA, name)).id);
    // North and South keep New York's zone (day parts three hours after the company's hours); East is Tokyo.
    await db.owner((sql) =>
      sql.query(`UPDATE locations SET time_zone = 'Asia/Tokyo' WHERE id = $1`, [locations[2]]),
    );
    zoneOf
      .set(locations[0]!, 'America/New_York')
      .set(locations[1]!, 'America/New_York')
      .set(locations[2]!, 'Asia/Tokyo');
    coast = (await makeTestLocationGroup(db, companyA, 'Coast', [locations[1]!, locations[2]!])).id;
    for (let batch = 0; batch < 4; batch++) {
      const made = checksFor(locations, 120, `b${batch}`);
      await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), made));
      checks.push(...made);
    }
    // Voids take checks out of the hourly rollup as out of the others.
    const voided = checks.filter((_, index) => index % 23 === 0);
    await db.tenant(companyA, (sql) => voidChecks(sql, systemScope(companyA), voided));
    checks = checks.filter((check) => !voided.includes(check));
    // Company B: the same POS ids, days and items; a leak would change A's figures.
    const theirs = (await makeLocation(db, companyB, 'Theirs')).id;
    await db.tenant(companyB, (sql) =>
      ingestChecks(sql, systemScope(companyB), checksFor([theirs], 120, 'x')),
    );
    const rules = (segment_rules: object[]) => [{ segment_rules }];
    regulars = (
      await db.tenant(companyA, (sql) =>
        createSegment(sql, systemScope(companyA), {
          name: 'Regulars',
          segment_groups: rules([{ type: 'visit_count', operator: 'gte', value: 14 }]),
        }),
      )
    ).id;
    northRegulars = (
      await db.tenant(companyA, (sql) =>
        createSegment(sql, systemScope(companyA), {
          name: 'North regulars',
          location_ids: [locations[0]!],
          segment_groups: rules([{ type: 'visit_count', operator: 'gte', value: 12 }]),
        }),
      )
    ).id;
    theirSegment = (
      await db.tenant(companyB, (sql) => createSegment(sql, systemScope(companyB), { name: 'Theirs' }))
    ).id;
  });

  const visitsOf = (posId: string) => checks.filter((check) => check.guest?.pos_id === posId).length;
  const cameTo = (posId: string, place: number) =>
    checks.some((check) => check.guest?.pos_id === posId && check.location_id === place);
  const filters = (): [string, Partial<ConsumerInsightsQuery>, number[] | null][] => [
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
  const query = (from: string, to: string, extra: Partial<ConsumerInsightsQuery>): ConsumerInsightsQuery => ({
    from_date: from,
    to_date: to,
    compare: 'previous',
    location_id: [],
    location_group_id: [],
    ...extra,
  });
  const withoutIds = (answer: { categories: { rows: { category_id: number }[] } }) =>
    answer.categories.rows.map(({ category_id: _, ...row }) => row);

  it('counts hours, party sizes, day parts, visit gaps and every guest’s categories as the checks say', async () => {
    const service = consumerInsightsService(db);
    for (const [from, to] of ranges) {
      for (const [name, filter, places] of filters()) {
        const answer = await service.figures(companyA, query(from, to, filter));
        const want = expected(checks, zoneOf, places, from, to, null);
        const before = previousPeriod({ from, to });
        const earlier = expected(checks, zoneOf, places, before.from, before.to, null);
        const label = `${name} ${from}…${to}`;
        expect(answer, label).toMatchObject({
          range: { from, to },
          previous: before,
          totals: want.totals,
          previous_totals: earlier.totals,
          hours: want.hours,
          party_sizes: want.party_sizes,
          day_parts: want.day_parts,
          previous_day_parts: earlier.day_parts,
          visit_gaps: want.visit_gaps,
          previous_visit_gaps: earlier.visit_gaps,
          segments: [
            { id: northRegulars, name: 'North regulars' },
            { id: regulars, name: 'Regulars' },
          ],
        });
        const { rows: _, ...categories } = want.categories;
        expect(answer.categories, label).toMatchObject({ ...categories, segment_id: null });
        expect(withoutIds(answer), label).toEqual(want.categories.rows);
      }
    }
    const wide = expected(checks, zoneOf, null, '2024-01-01', '2025-12-31', null);
    expect(wide.visit_gaps.buckets.every((bucket) => bucket.visits > 0)).toBe(true);
    expect(wide.party_sizes.every((size) => size.checks > 0)).toBe(true);
    expect(wide.day_parts.every((dayPart) => dayPart.checks > 0)).toBe(true);
  });

  it("counts a segment's favourite categories from its members, beside every guest's", async () => {
    const service = consumerInsightsService(db);
    const segments: [number, (posId: string) => boolean][] = [
      [regulars, (posId) => visitsOf(posId) >= 14],
      [northRegulars, (posId) => visitsOf(posId) >= 12 && cameTo(posId, locations[0]!)],
    ];
    let members = 0;
    for (const [segment, member] of segments) {
      for (const [from, to] of ranges) {
        for (const [name, filter, places] of filters()) {
          const answer = await service.figures(companyA, query(from, to, { ...filter, segment_id: segment }));
          const want = expected(checks, zoneOf, places, from, to, member);
          const { rows: _, ...categories } = want.categories;
          const label = `segment ${segment} ${name} ${from}…${to}`;
          expect(answer.categories, label).toMatchObject({ ...categories, segment_id: segment });
          expect(withoutIds(answer), label).toEqual(want.categories.rows);
          members += want.categories.guests;
        }
      }
    }
    expect(members).toBeGreaterThan(0);
    await expect(
      service.figures(companyA, query('2025-03-01', '2025-03-31', { segment_id: theirSegment })),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it('keeps the hourly rollup equal to the raw checks and to its own rebuild', async () => {
    const range = { from: '2024-01-01', to: '2025-12-31' };
    const sorted = <Row extends { weekday: number; hour: number; day_part: string }>(rows: Row[]) =>
      [...rows].sort(
        (a, b) => a.weekday - b.weekday || a.hour - b.hour || a.day_part.localeCompare(b.day_part),
      );
    const read = (source: 'rollup' | 'raw') =>
      db.tenant(companyA, async (sql) => sorted(await hourFigures(sql, companyA, null, range, source)));
    const kept = await read('rollup');
    expect(kept).toEqual(await read('raw'));
    await db.tenant(companyA, (sql) => rebuildRollups(sql, companyA));
    expect(await read('rollup')).toEqual(kept);
  });

  it('answers zeros for a group without locations, and no comparison unless asked', async () => {
    const empty = (await makeTestLocationGroup(db, companyA, 'Empty', [])).id;
    const answer = await consumerInsightsService(db).figures(companyA, {
      ...query('2025-03-01', '2025-03-31', { location_group_id: [empty] }),
      compare: undefined,
    });
    expect(answer.totals).toEqual({
      checks: 0,
      revenue: 0,
      covers: 0,
      average_check: null,
      average_party: null,
    });
    expect(answer.previous).toBeNull();
    expect(answer.previous_totals).toBeNull();
    expect(answer.visit_gaps).toMatchObject({ visits: 0, median_days: null });
    expect(answer.categories).toMatchObject({ guests: 0, units: 0, rows: [] });
  });
});
