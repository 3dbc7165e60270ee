import { beforeAll, describe, expect, it } from 'vitest';
import type { Database, Sql } from '../../server/db/database.js';
import { DAY_PARTS } from '../../src/schemas/segment-catalogue.js';
import {
  dayPartPresenceGuests,
  presenceByLocation,
  presenceByPeriod,
  itemPresenceGuests,
  oneLocationGuests,
  presenceTotals,
  presenceVisitCounts,
  type PresenceScope,
} from '../../server/repositories/guest-presence.repository.js';
import {
  deleteLocationGroup,
  updateLocationGroup,
} from '../../server/repositories/location-groups.repository.js';
import { groupPresenceRunner } from '../../server/jobs/group-presence-runner.js';
import { presenceScopeFor } from '../../server/services/dashboard-scope.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { rebuildRollups, removeChecksFromRollups } from '../../server/repositories/pos-rollups.repository.js';
import { eraseGuest } from '../../server/services/customer-erasure.js';
import { locationsService } from '../../server/services/locations.service.js';
import { seededRandom } from '../support/clv-simulation.js';
import { dayPartOfHour, localHour } from '../support/day-parts.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

// The distinct-guest rollup (migration 0042) read back, as JSON rows sorted as text.
const STORED = `SELECT scope_kind, scope_id::int AS scope_id, day::text, prev_day::text, first_day::text,
                       guests::int, checks::int
                FROM pos_guest_presence WHERE company_id = $1`;

// The frequency rows stored, and as the bulk rebuild's function works them out from scratch.
const FREQUENCY = `SELECT scope_kind, scope_id::int AS scope_id, day::text, visits, before_day::text, guests::int
                   FROM pos_guest_frequency WHERE company_id = $1`;
const FREQUENCY_REBUILT = `SELECT scope_kind, scope_id::int AS scope_id, day::text, visits, before_day::text,
                                  guests::int
                           FROM pos_guest_frequency_rows($1, NULL, NULL)`;

// The spread rows (migration 0051) stored, and as the bulk rebuild's function works them out from scratch.
const SPREAD = `SELECT scope_kind, scope_id::int AS scope_id, day::text, since_day::text, guests::int
                FROM pos_guest_spread WHERE company_id = $1`;
const SPREAD_REBUILT = `SELECT scope_kind, scope_id::int AS scope_id, day::text, since_day::text, guests::int
                        FROM pos_guest_spread_rows($1, NULL, NULL)`;

/** A guest's check as the brute force sees it: the local day of its closing time in the company's zone. */
interface CheckDay {
  guest_id: number;
  location_id: number;
  day: string;
}

/**
 * The rollup's rows by their definition, counted here from the checks alone: for each scope (the company, each
 * location, each group's members now), each guest's days there in order, each day's previous day there
 * ('-infinity' for none) and, on a first day there, the guest's first day at the company.
 */
async function bruteForce(sql: Sql, companyId: number): Promise<string[]> {
  const checks = (
    await sql.query<CheckDay>(
      `SELECT c.guest_id::int AS guest_id, c.location_id::int AS location_id,
              to_char(c.closed_at AT TIME ZONE co.time_zone, 'YYYY-MM-DD') AS day
       FROM pos_checks c JOIN companies co ON co.id = c.company_id
       WHERE c.company_id = $1 AND c.guest_id IS NOT NULL`,
      [companyId],
    )
  ).rows;
  const groups = (
    await sql.query<{ group_id: number; location_id: number }>(
      `SELECT group_id::int AS group_id, location_id::int AS location_id FROM location_group_members
       WHERE company_id = $1`,
      [companyId],
    )
  ).rows;
  const firstDay = new Map<number, string>();
  for (const check of checks) {
    const first = firstDay.get(check.guest_id);
    if (first === undefined || check.day < first) firstDay.set(check.guest_id, check.day);
  }
  // scope key → guest → day → checks
  const scopes = new Map<string, Map<number, Map<string, number>>>();
  const count = (scope: string, check: CheckDay) => {
    const guests = scopes.get(scope) ?? new Map<number, Map<string, number>>();
    const days = guests.get(check.guest_id) ?? new Map<string, number>();
    days.set(check.day, (days.get(check.day) ?? 0) + 1);
    guests.set(check.guest_id, days);
    scopes.set(scope, guests);
  };
  for (const check of checks) {
    count('0/0', check);
    count(`1/${check.location_id}`, check);
    for (const member of groups.filter((m) => m.location_id === check.location_id)) {
      count(`2/${member.group_id}`, check);
    }
  }
  const rows = new Map<string, { guests: number; checks: number }>();
  for (const [scope, guests] of scopes) {
    for (const [guestId, days] of guests) {
      const ordered = [...days.keys()].sort();
      ordered.forEach((day, at) => {
        const prev = at === 0 ? '-infinity' : ordered[at - 1]!;
        const first = at === 0 ? firstDay.get(guestId)! : '-infinity';
        const key = `${scope}/${day}/${prev}/${first}`;
        const row = rows.get(key) ?? { guests: 0, checks: 0 };
        row.guests += 1;
        row.checks += days.get(day)!;
        rows.set(key, row);
      });
    }
  }
  return [...rows.entries()]
    .map(([key, row]) => {
      const [kind, id, day, prev, first] = key.split('/');
      return {
        scope_kind: Number(kind),
        scope_id: Number(id),
        day,
        prev_day: prev,
        first_day: first,
        ...row,
      };
    })
    .map((row) => JSON.stringify(row))
    .sort();
}

// The item presence rows (migrations 0055 and 0057) stored.
const ITEMS = `SELECT scope_kind, scope_id::int AS scope_id, menu_item_id::int AS menu_item_id, day_part, day::text,
                      prev_day::text, guests::int
               FROM pos_item_presence WHERE company_id = $1`;

/**
 * A guest check's item as the brute force sees it: the check's location, local day and day part (worked out here
 * from its opening hour in the location's zone), and the item — 0 standing for the check itself, lines or none.
 */
interface ItemDay extends CheckDay {
  menu_item_id: number;
  part: string;
}

/** The company's guest checks as item 0 and their lines as their items, each with its location, day and day part. */
async function itemDaysOf(sql: Sql, companyId: number): Promise<ItemDay[]> {
  const { rows } = await sql.query<CheckDay & { opened_at: Date; time_zone: string; items: number[] }>(
    `SELECT c.guest_id::int AS guest_id, c.location_id::int AS location_id, c.opened_at, loc.time_zone,
            to_char(c.closed_at AT TIME ZONE co.time_zone, 'YYYY-MM-DD') AS day,
            array(SELECT l.menu_item_id::int FROM pos_check_lines l WHERE l.check_id = c.id) AS items
     FROM pos_checks c JOIN companies co ON co.id = c.company_id JOIN locations loc ON loc.id = c.location_id
     WHERE c.company_id = $1 AND c.guest_id IS NOT NULL`,
    [companyId],
  );
  return rows.flatMap(({ opened_at, time_zone, items, ...check }) => {
    const part = dayPartOfHour(localHour(opened_at, time_zone));
    return [0, ...items].map((menu_item_id) => ({ ...check, menu_item_id, part }));
  });
}

/**
 * The item presence rows by their definition, counted here from the checks and lines alone: for each scope (the
 * company, each location, each group's members now), item and day part ('' every day part, not kept for item 0),
 * each guest's days there with the item at that day part in order, and each day's previous such day ('-infinity'
 * for none).
 */
async function itemBruteForce(sql: Sql, companyId: number): Promise<string[]> {
  const lines = await itemDaysOf(sql, companyId);
  const members = (
    await sql.query<{ group_id: number; location_id: number }>(
      `SELECT group_id::int AS group_id, location_id::int AS location_id FROM location_group_members
       WHERE company_id = $1`,
      [companyId],
    )
  ).rows;
  // "scope kind/scope id/item/day part/guest" → the days
  const chains = new Map<string, Set<string>>();
  const add = (scope: string, line: ItemDay) => {
    const parts = line.menu_item_id === 0 ? [line.part] : [line.part, ''];
    for (const part of parts) {
      const key = `${scope}/${line.menu_item_id}/${part}/${line.guest_id}`;
      chains.set(key, (chains.get(key) ?? new Set()).add(line.day));
    }
  };
  for (const line of lines) {
    add('0/0', line);
    add(`1/${line.location_id}`, line);
    for (const member of members.filter((m) => m.location_id === line.location_id)) {
      add(`2/${member.group_id}`, line);
    }
  }
  const rows = new Map<string, number>();
  for (const [key, days] of chains) {
    const [kind, id, item, part] = key.split('/');
    const ordered = [...days].sort();
    ordered.forEach((day, at) => {
      const row = `${kind}/${id}/${item}/${part}/${day}/${at === 0 ? '-infinity' : ordered[at - 1]!}`;
      rows.set(row, (rows.get(row) ?? 0) + 1);
    });
  }
  return [...rows.entries()]
    .map(([key, guests]) => {
      const [kind, id, item, part, day, prev] = key.split('/');
      return JSON.stringify({
        scope_kind: Number(kind),
        scope_id: Number(id),
        menu_item_id: Number(item),
        day_part: part,
        day,
        prev_day: prev,
        guests,
      });
    })
    .sort();
}

/** Distinct guests of a range in a scope counted from the checks: all, those new to the company, their checks. */
function rangeByBruteForce(checks: CheckDay[], locations: number[] | null, from: string, to: string) {
  const firstDay = new Map<number, string>();
  for (const check of checks) {
    const first = firstDay.get(check.guest_id);
    if (first === undefined || check.day < first) firstDay.set(check.guest_id, check.day);
  }
  const inRange = checks.filter(
    (check) =>
      check.day >= from && check.day <= to && (locations === null || locations.includes(check.location_id)),
  );
  const guests = new Set(inRange.map((check) => check.guest_id));
  return {
    guests: guests.size,
    new_guests: [...guests].filter((guest) => firstDay.get(guest)! >= from).length,
    visits: inRange.length,
  };
}

/** Guests with a check at the locations (null: any) in a range whose every check in the range was at one location. */
function oneLocationByBruteForce(checks: CheckDay[], locations: number[] | null, from: string, to: string) {
  const seenAt = new Map<number, Set<number>>();
  for (const check of checks) {
    if (check.day < from || check.day > to) continue;
    seenAt.set(check.guest_id, (seenAt.get(check.guest_id) ?? new Set()).add(check.location_id));
  }
  return [...seenAt.values()].filter(
    (at) => at.size === 1 && (locations === null || locations.includes([...at][0]!)),
  ).length;
}

/** Guests by their number of checks in a range in a scope, 10 meaning 10 or more, only counts with guests. */
function visitCountsByBruteForce(checks: CheckDay[], locations: number[] | null, from: string, to: string) {
  const perGuest = new Map<number, number>();
  for (const check of checks) {
    if (check.day < from || check.day > to) continue;
    if (locations !== null && !locations.includes(check.location_id)) continue;
    perGuest.set(check.guest_id, (perGuest.get(check.guest_id) ?? 0) + 1);
  }
  const byCount = new Map<number, number>();
  for (const count of perGuest.values())
    byCount.set(Math.min(count, 10), (byCount.get(Math.min(count, 10)) ?? 0) + 1);
  return [...byCount.entries()].sort((a, b) => a[0] - b[0]).map(([visits, guests]) => ({ visits, guests }));
}

describe('distinct-guest rollup kept with the checks', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let locations: number[] = [];
  let groups: number[] = [];
  let locationB: number;
  const random = seededRandom(42);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const DISHES = ['Soup', 'Salad', 'Cake'] as const;

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  /** A check closing within 40 days of 2025-03-01 at any minute (local midnight and the DST change crossed). */
  function makeCheck(number: number, at: readonly number[]): IngestCheck {
    const closed = new Date(Date.UTC(2025, 2, 1) + Math.floor(random() * 40 * 24 * 60) * 60_000);
    return {
      location_id: pick(at),
      check_number: `G-${number}`,
      opened_at: new Date(closed.getTime() - 30 * 60_000),
      closed_at: closed,
      total: 500 + Math.floor(random() * 5000),
      guest_count: 1 + Math.floor(random() * 3),
      guest: random() < 0.15 ? undefined : { pos_id: `P-${Math.floor(random() * 30)}` },
      // None to three lines of three dishes (a dish twice on one check now and then).
      lines: Array.from({ length: Math.floor(random() * 4) }, () => {
        const dish = pick(DISHES);
        return { menu_item: dish, category: 'Food', quantity: 1, amount: 500 };
      }),
    };
  }

  const ingest = (companyId: number, checks: IngestCheck[]) =>
    db.tenant(companyId, (sql) => ingestChecks(sql, systemScope(companyId), checks));
  const rowsOf = async (sql: Sql, text: string, companyId: number) =>
    (await sql.query(text, [companyId])).rows.map((row) => JSON.stringify(row)).sort();
  const expectExact = async (companyId: number) => {
    const [stored, brute, frequency, rebuilt, spread, spreadRebuilt, items, itemsBrute] = await db.tenant(
      companyId,
      async (sql) => [
        await rowsOf(sql, STORED, companyId),
        await bruteForce(sql, companyId),
        await rowsOf(sql, FREQUENCY, companyId),
        await rowsOf(sql, FREQUENCY_REBUILT, companyId),
        await rowsOf(sql, SPREAD, companyId),
        await rowsOf(sql, SPREAD_REBUILT, companyId),
        await rowsOf(sql, ITEMS, companyId),
        await itemBruteForce(sql, companyId),
      ],
    );
    expect(stored).toEqual(brute);
    expect(items).toEqual(itemsBrute);
    // The frequency and spread rows kept by increments are those of the bulk rebuild (their sums are checked below).
    expect(frequency).toEqual(rebuilt);
    expect(spread).toEqual(spreadRebuilt);
    return stored;
  };

  /** The company's guest checks as the brute force reads them: guest, location, local day. */
  const checkDays = (companyId: number) =>
    db.tenant(companyId, async (sql) => {
      const { rows } = await sql.query<CheckDay>(
        `SELECT c.guest_id::int AS guest_id, c.location_id::int AS location_id,
                to_char(c.closed_at AT TIME ZONE co.time_zone, 'YYYY-MM-DD') AS day
         FROM pos_checks c JOIN companies co ON co.id = c.company_id
         WHERE c.company_id = $1 AND c.guest_id IS NOT NULL`,
        [companyId],
      );
      return rows;
    });
  /** The spread rows' guests at one location of a range in a scope, checked against the brute force. */
  const expectOneLocation = async (
    checks: CheckDay[],
    scope: PresenceScope,
    ids: number[] | null,
    range: { from: string; to: string },
  ) => {
    const oneLocation = await db.tenant(companyA, (sql) => oneLocationGuests(sql, companyA, scope, range));
    expect({ scope, ...range, oneLocation }).toEqual({
      scope,
      ...range,
      oneLocation: oneLocationByBruteForce(checks, ids, range.from, range.to),
    });
    return oneLocation;
  };

  beforeAll(async () => {
    await db.owner((sql) =>
      sql.query(`UPDATE companies SET time_zone = 'America/New_York' WHERE id = $1`, [companyA]),
    );
    locations = [
      (await makeLocation(db, companyA, 'North')).id,
      (await makeLocation(db, companyA, 'South')).id,
      (await makeLocation(db, companyA, 'East')).id,
    ];
    // East keeps Tokyo's hours: a day part is the location's, never the company's.
    await db.owner((sql) =>
      sql.query(`UPDATE locations SET time_zone = 'Asia/Tokyo' WHERE id = $1`, [locations[2]!]),
    );
    groups = [
      (await makeTestLocationGroup(db, companyA, 'North and South', [locations[0]!, locations[1]!])).id,
      (await makeTestLocationGroup(db, companyA, 'South and East', [locations[1]!, locations[2]!])).id,
    ];
    locationB = (await makeLocation(db, companyB, 'Elsewhere')).id;
  });

  it('equals its definition after shuffled batches with late checks, and the bulk rebuild agrees', async () => {
    // 300 checks in a shuffled order: a late check lands between two stored visits and moves the next one's
    // previous day; each batch also sends a few checks again.
    const all = Array.from({ length: 300 }, (_, n) => makeCheck(n, locations));
    const shuffled = [...all].sort(() => random() - 0.5);
    const sent: IngestCheck[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const fresh = shuffled.slice(batch * 30, batch * 30 + 30);
      const again = sent.length > 0 ? Array.from({ length: 3 }, () => pick(sent)) : [];
      await ingest(companyA, [...fresh, ...again]);
      sent.push(...fresh);
      await expectExact(companyA);
    }
    await ingest(companyB, [makeCheck(1_000, [locationB]), makeCheck(1_001, [locationB])]);
    const incremental = await expectExact(companyA);
    const parsed = incremental.map((row) => JSON.parse(row) as { scope_kind: number; prev_day: string });
    // Not trivial: guests came back in every kind of scope, and some came for the first time.
    for (const kind of [0, 1, 2]) {
      expect(parsed.some((row) => row.scope_kind === kind && row.prev_day !== '-infinity')).toBe(true);
      expect(parsed.some((row) => row.scope_kind === kind && row.prev_day === '-infinity')).toBe(true);
    }
    // So did guests to a dish: every kind of scope has item rows with a previous day.
    const items = await db.tenant(companyA, (sql) => rowsOf(sql, ITEMS, companyA));
    for (const kind of [0, 1, 2]) {
      expect(items.some((row) => row.includes(`"scope_kind":${kind},`) && !row.includes('"-infinity"'))).toBe(
        true,
      );
    }
    await db.tenant(companyA, (sql) => rebuildRollups(sql, companyA));
    expect(await expectExact(companyA)).toEqual(incremental);
    await expectExact(companyB);
  });

  it('sums to the distinct guests of any range in every scope', async () => {
    const checks = await checkDays(companyA);
    // Not trivial: some guest came to two locations on one day.
    const daysAt = new Map<string, Set<number>>();
    for (const check of checks) {
      const key = `${check.guest_id}/${check.day}`;
      daysAt.set(key, (daysAt.get(key) ?? new Set()).add(check.location_id));
    }
    expect([...daysAt.values()].some((at) => at.size > 1)).toBe(true);
    const scopes: Array<[PresenceScope, number[] | null]> = [
      [{ kind: 'company' }, null],
      [{ kind: 'location', id: locations[1]! }, [locations[1]!]],
      [{ kind: 'group', id: groups[0]! }, [locations[0]!, locations[1]!]],
      [{ kind: 'group', id: groups[1]! }, [locations[1]!, locations[2]!]],
    ];
    const frequencies: number[] = [];
    const lines = await db.tenant(companyA, (sql) => itemDaysOf(sql, companyA));
    const itemIds = [...new Set(lines.map((line) => line.menu_item_id))].filter((id) => id !== 0);
    // Not trivial: the three dishes were ordered, at every day part.
    expect(itemIds).toHaveLength(3);
    expect(new Set(lines.map((line) => line.part))).toEqual(new Set(DAY_PARTS));
    const itemCounts: number[] = [];
    const partCounts: number[] = [];
    const spread: { kind: PresenceScope['kind']; one: number; more: number }[] = [];
    for (let draw = 0; draw < 12; draw++) {
      const start = Math.floor(random() * 40);
      const from = new Date(Date.UTC(2025, 2, 1 + start)).toISOString().slice(0, 10);
      const to = new Date(Date.UTC(2025, 2, 1 + start + Math.floor(random() * 40)))
        .toISOString()
        .slice(0, 10);
      for (const [scope, ids] of scopes) {
        const totals = await db.tenant(companyA, (sql) => presenceTotals(sql, companyA, scope, { from, to }));
        expect({ scope, from, to, ...totals }).toEqual({
          scope,
          from,
          to,
          ...rangeByBruteForce(checks, ids, from, to),
        });
        const visits = await db.tenant(companyA, (sql) =>
          presenceVisitCounts(sql, companyA, scope, { from, to }, 10),
        );
        expect({ scope, from, to, visits }).toEqual({
          scope,
          from,
          to,
          visits: visitCountsByBruteForce(checks, ids, from, to),
        });
        frequencies.push(...visits.map((row) => row.visits));
        // The distinct guests of the range with the item (0: any check) at the day part (null: any).
        const expectedGuests = (itemId: number, part: string | null) =>
          new Set(
            lines
              .filter(
                (line) =>
                  line.menu_item_id === itemId &&
                  (part === null || line.part === part) &&
                  line.day >= from &&
                  line.day <= to &&
                  (ids === null || ids.includes(line.location_id)),
              )
              .map((line) => line.guest_id),
          ).size;
        for (const part of [null, ...DAY_PARTS]) {
          for (const itemId of itemIds) {
            const guests = await db.tenant(companyA, (sql) =>
              itemPresenceGuests(sql, companyA, scope, itemId, { from, to }, part),
            );
            expect({ scope, from, to, itemId, part, guests }).toEqual({
              scope,
              from,
              to,
              itemId,
              part,
              guests: expectedGuests(itemId, part),
            });
            itemCounts.push(guests);
          }
          if (part === null) continue;
          const guests = await db.tenant(companyA, (sql) =>
            dayPartPresenceGuests(sql, companyA, scope, { from, to }, part),
          );
          expect({ scope, from, to, part, guests }).toEqual({
            scope,
            from,
            to,
            part,
            guests: expectedGuests(0, part),
          });
          partCounts.push(guests);
        }
        const oneLocation = await expectOneLocation(checks, scope, ids, { from, to });
        spread.push({ kind: scope.kind, one: oneLocation, more: totals.guests - oneLocation });
      }
      // Per week: each week's days inside the range are a range of their own.
      const weeks = await db.tenant(companyA, (sql) =>
        presenceByPeriod(sql, companyA, { kind: 'company' }, { from, to }, 'week'),
      );
      for (const week of weeks) {
        const monday = week.period < from ? from : week.period;
        const sunday = new Date(Date.parse(`${week.period}T00:00:00Z`) + 6 * 86_400_000)
          .toISOString()
          .slice(0, 10);
        const expected = rangeByBruteForce(checks, null, monday, sunday < to ? sunday : to);
        expect(week).toEqual({
          period: week.period,
          guests: expected.guests,
          new_guests: expected.new_guests,
        });
      }
      const perLocation = await db.tenant(companyA, (sql) =>
        presenceByLocation(sql, companyA, null, { from, to }),
      );
      for (const id of locations) {
        const expected = rangeByBruteForce(checks, [id], from, to);
        const row = perLocation.find((found) => Number(found.location_id) === id);
        expect([Number(row?.guests ?? 0), Number(row?.returning_guests ?? 0)]).toEqual([
          expected.guests,
          expected.guests - expected.new_guests,
        ]);
      }
    }
    // Not trivial: guests came once, a few times and ten times or more; in every kind of scope some ranges had
    // guests at one location only and guests at two or more.
    expect(new Set(frequencies)).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    expect(itemCounts.some((guests) => guests === 0)).toBe(true);
    expect(itemCounts.some((guests) => guests > 5)).toBe(true);
    expect(partCounts.some((guests) => guests === 0)).toBe(true);
    expect(partCounts.some((guests) => guests > 5)).toBe(true);
    for (const kind of ['company', 'location', 'group'] as const) {
      expect(spread.some((row) => row.kind === kind && row.one > 0)).toBe(true);
      expect(spread.some((row) => row.kind === kind && row.more > 0)).toBe(true);
    }
  });

  it('follows a group’s members, guests erased, checks taken away and a location deleted', async () => {
    const before = await expectExact(companyA);
    await db.tenant(companyA, (sql) =>
      updateLocationGroup(sql, systemScope(companyA), groups[0]!, {
        location_ids: [locations[0]!, locations[2]!],
      }),
    );
    // Saving the group only marks its rows as waiting: the dashboards count its guests from the guest days.
    const query = { location_id: [], location_group_id: [groups[0]!] };
    const scopeNow = () =>
      db.tenant(companyA, (sql) => presenceScopeFor(sql, companyA, [locations[0]!, locations[2]!], query));
    expect(await scopeNow()).toBeNull();
    expect(await db.tenant(companyA, (sql) => rowsOf(sql, STORED, companyA))).toEqual(before);
    // The worker fills them from the new members, and the group is read from its rows again.
    const worker = groupPresenceRunner(db, { error: () => undefined }, { everyMs: 60_000 });
    expect(await worker.tick()).toBe(1);
    expect(await worker.tick()).toBe(0);
    expect(await scopeNow()).toEqual({ kind: 'group', id: groups[0]! });
    await expectExact(companyA);
    const guestIds = await db.tenant(companyA, async (sql) => {
      const { rows } = await sql.query<{ guest_id: number }>(
        `SELECT guest_id FROM pos_checks WHERE company_id = $1 AND guest_id IS NOT NULL
         GROUP BY guest_id ORDER BY count(*) DESC, guest_id LIMIT 2`,
        [companyA],
      );
      return rows.map((row) => row.guest_id);
    });
    for (const guestId of guestIds) {
      await db.tenant(companyA, (sql) => eraseGuest(sql, systemScope(companyA), guestId));
      await expectExact(companyA);
    }
    // Each guest's earliest check taken away (first days move forward), then a random fifth of the checks.
    const removals = await db.tenant(companyA, async (sql) => {
      const earliest = await sql.query<{ id: number }>(
        `SELECT DISTINCT ON (guest_id) id FROM pos_checks WHERE company_id = $1 AND guest_id IS NOT NULL
         ORDER BY guest_id, closed_at`,
        [companyA],
      );
      const others = await sql.query<{ id: number }>(
        'SELECT id FROM pos_checks WHERE company_id = $1 ORDER BY id',
        [companyA],
      );
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
      await expectExact(companyA);
    }
    await locationsService(db).remove(systemScope(companyA), locations[1]!);
    await expectExact(companyA);
    // More checks after all that still add up, and the group left without a member has no rows.
    await ingest(
      companyA,
      Array.from({ length: 40 }, (_, n) => makeCheck(2_000 + n, [locations[0]!, locations[2]!])),
    );
    const after = await expectExact(companyA);
    expect(after.some((row) => row.includes(`"scope_kind":1,"scope_id":${locations[1]},`))).toBe(false);
    // The guests at one location still add up after every change, in the scopes left.
    const left = await checkDays(companyA);
    for (const range of [
      { from: '2025-03-01', to: '2025-04-15' },
      { from: '2025-03-10', to: '2025-03-24' },
    ]) {
      await expectOneLocation(left, { kind: 'company' }, null, range);
      await expectOneLocation(left, { kind: 'location', id: locations[2]! }, [locations[2]!], range);
      await expectOneLocation(left, { kind: 'group', id: groups[0]! }, [locations[0]!, locations[2]!], range);
    }
    await expectExact(companyB);
  });
  it('fills a waiting group only once its company’s demo data are loaded; a deleted group leaves no rows', async () => {
    const worker = groupPresenceRunner(db, { error: () => undefined }, { everyMs: 60_000 });
    await worker.tick();
    const waiting = () =>
      db.owner(async (sql) =>
        (
          await sql.query<{ id: number }>(
            'SELECT id::int FROM location_groups WHERE company_id = $1 AND NOT presence_ready',
            [companyA],
          )
        ).rows.map((row) => row.id),
      );
    await db.owner((sql) =>
      sql.query(
        `INSERT INTO demo_loads (company_id, scale, seed, until_date, checks_total, checks_loaded)
         VALUES ($1, 'tiny', 1, '2025-06-01', 10, 10)`,
        [companyA],
      ),
    );
    await db.tenant(companyA, (sql) =>
      updateLocationGroup(sql, systemScope(companyA), groups[1]!, { location_ids: [locations[2]!] }),
    );
    expect(await waiting()).toEqual([groups[1]!]);
    // Its demo data are being summed: the group waits, untouched.
    expect(await worker.tick()).toBe(0);
    expect(await waiting()).toEqual([groups[1]!]);
    await db.owner((sql) =>
      sql.query('UPDATE demo_loads SET finished_at = now() WHERE company_id = $1', [companyA]),
    );
    expect(await worker.tick()).toBe(1);
    expect(await waiting()).toEqual([]);
    await expectExact(companyA);

    const groupRows = () =>
      db.owner(
        async (sql) =>
          (
            await sql.query<{ n: number }>(
              `SELECT (SELECT count(*) FROM pos_guest_presence WHERE scope_kind = 2 AND scope_id = $1)
                  + (SELECT count(*) FROM pos_guest_frequency WHERE scope_kind = 2 AND scope_id = $1)
                  + (SELECT count(*) FROM pos_guest_spread WHERE scope_kind = 2 AND scope_id = $1)
                  + (SELECT count(*) FROM pos_item_presence WHERE scope_kind = 2 AND scope_id = $1) AS n`,
              [groups[1]!],
            )
          ).rows[0]!.n,
      );
    expect(Number(await groupRows())).toBeGreaterThan(0);
    await db.tenant(companyA, (sql) => deleteLocationGroup(sql, systemScope(companyA), groups[1]!));
    expect(Number(await groupRows())).toBe(0);
    await expectExact(companyA);
  });

  it('moves only what a batch changes: one guest’s dish twice a day, a late earlier day, a void of part of a day', async () => {
    const at = (
      iso: string,
      number: string,
      dishes: string[],
      guest: string | null = 'EDGE',
    ): IngestCheck => ({
      location_id: locationB,
      check_number: number,
      opened_at: new Date(Date.parse(iso) - 30 * 60_000),
      closed_at: new Date(iso),
      total: 900,
      guest: guest === null ? undefined : { pos_id: guest },
      lines: dishes.map((dish) => ({ menu_item: dish, category: 'Food', quantity: 1, amount: 450 })),
    });
    const soupGuests = (from: string, to: string) =>
      db.tenant(companyB, async (sql) => {
        const { rows } = await sql.query<{ id: number }>(
          `SELECT id::int AS id FROM menu_items WHERE company_id = $1 AND name = 'Soup'`,
          [companyB],
        );
        return itemPresenceGuests(sql, companyB, { kind: 'location', id: locationB }, rows[0]!.id, {
          from,
          to,
        });
      });
    // A soup stored first; then a batch with two more soups that day (one check holding two), a late soup on an
    // earlier day, a cake two days on and a soup without a guest.
    await ingest(companyB, [at('2025-03-10T18:00:00Z', 'E-1', ['Soup'])]);
    await ingest(companyB, [
      at('2025-03-10T19:00:00Z', 'E-2', ['Soup', 'Soup']),
      at('2025-03-10T20:00:00Z', 'E-3', ['Soup']),
      at('2025-03-05T18:00:00Z', 'E-4', ['Soup']),
      at('2025-03-12T18:00:00Z', 'E-5', ['Cake']),
      at('2025-03-10T21:00:00Z', 'E-6', ['Soup'], null),
    ]);
    await expectExact(companyB);
    expect([
      await soupGuests('2025-03-06', '2025-03-12'),
      await soupGuests('2025-03-01', '2025-03-12'),
    ]).toEqual([1, 1]);
    const idsOf = (numbers: string[]) =>
      db.tenant(companyB, async (sql) => {
        const { rows } = await sql.query<{ id: number }>(
          'SELECT id::int AS id FROM pos_checks WHERE company_id = $1 AND check_number = ANY($2::text[])',
          [companyB, numbers],
        );
        return rows.map((row) => row.id);
      });
    const voidChecks = async (numbers: string[]) => {
      const ids = await idsOf(numbers);
      await db.tenant(companyB, async (sql) => {
        await removeChecksFromRollups(sql, companyB, ids);
        await sql.query('DELETE FROM pos_checks WHERE company_id = $1 AND id = ANY($2::bigint[])', [
          companyB,
          ids,
        ]);
      });
      await expectExact(companyB);
    };
    // Part of the day taken away: the first soup of the day still holds it.
    await voidChecks(['E-2', 'E-3']);
    expect(await soupGuests('2025-03-06', '2025-03-12')).toBe(1);
    // The whole day taken away: only the earlier day's soup is left.
    await voidChecks(['E-1']);
    expect([
      await soupGuests('2025-03-06', '2025-03-12'),
      await soupGuests('2025-03-05', '2025-03-05'),
    ]).toEqual([0, 1]);
  });
});
