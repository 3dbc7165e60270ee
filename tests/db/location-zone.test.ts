import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { locationsService } from '../../server/services/locations.service.js';
import { seededRandom } from '../support/clv-simulation.js';
import { dayPartOfHour, localHour } from '../support/day-parts.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

/**
 * A location's new time zone moves its checks between day parts (a check's day part is the hour it opened in the
 * location's zone) everywhere day parts are kept: the location hours, the company hours, the guests' visits by
 * day part and the item presence rows' guests at a day part — each against the day parts worked out here in plain
 * JS from the raw checks.
 */

type RawCheck = { location_id: number; guest_id: number | null; opened_at: Date; time_zone: string };

/** Counts by key, as sorted entries. */
function tally(keys: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
}

describe("a location's time zone change", () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  const locations: number[] = [];
  const random = seededRandom(71);

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  /** Checks over a month at every hour, for thirty guests, at the given locations. */
  function checksFor(places: readonly number[], count: number, prefix: string): IngestCheck[] {
    return Array.from({ length: count }, (_, index) => {
      const opened = new Date(Date.UTC(2025, 4, 1) + Math.floor(random() * 30 * 24 * 60) * 60_000);
      return {
        location_id: places[Math.floor(random() * places.length)]!,
        check_number: `${prefix}-${index}`,
        opened_at: opened,
        closed_at: new Date(opened.getTime() + 45 * 60_000),
        total: 500 + Math.floor(random() * 5000),
        guest_count: 1 + Math.floor(random() * 3),
        // None to two lines of two dishes.
        lines: Array.from({ length: Math.floor(random() * 3) }, () => ({
          menu_item: random() < 0.5 ? 'Soup' : 'Pie',
          category: 'Food',
          quantity: 1,
          amount: 500,
        })),
        ...(random() < 0.85 ? { guest: { pos_id: `G-${Math.floor(random() * 30)}` } } : {}),
      };
    });
  }

  /** What the rollups hold and what the raw checks say, each as sorted `key → checks` entries. */
  async function keptAndRaw(companyId: number) {
    return db.owner(async (sql) => {
      const raw = (
        await sql.query<RawCheck>(
          `SELECT c.location_id::int AS location_id, c.guest_id::int AS guest_id, c.opened_at, loc.time_zone
           FROM pos_checks c JOIN locations loc ON loc.id = c.location_id WHERE c.company_id = $1`,
          [companyId],
        )
      ).rows;
      const locationHours = (
        await sql.query<{ key: string; checks: number }>(
          `SELECT location_id || '|' || day_part AS key, sum(checks)::int AS checks FROM pos_location_hours
           WHERE company_id = $1 GROUP BY 1 HAVING sum(checks) > 0`,
          [companyId],
        )
      ).rows;
      const companyHours = (
        await sql.query<{ key: string; checks: number }>(
          `SELECT day_part AS key, sum(checks)::int AS checks FROM pos_company_hours
           WHERE company_id = $1 GROUP BY 1 HAVING sum(checks) > 0`,
          [companyId],
        )
      ).rows;
      const guests = (
        await sql.query<{ id: number; breakfast: number; lunch: number; dinner: number; late: number }>(
          `SELECT id::int, breakfast_visits AS breakfast, lunch_visits AS lunch, dinner_visits AS dinner,
                  late_visits AS late
           FROM guests WHERE company_id = $1`,
          [companyId],
        )
      ).rows;
      // Each location's guests with a check at a day part, ever: the first days of the item presence rows of any
      // check (menu item 0, migration 0057).
      const itemPresence = (
        await sql.query<{ key: string; checks: number }>(
          `SELECT scope_id || '|' || day_part AS key, sum(guests)::int AS checks FROM pos_item_presence
           WHERE company_id = $1 AND scope_kind = 1 AND menu_item_id = 0 AND prev_day = '-infinity'
           GROUP BY 1 HAVING sum(guests) > 0`,
          [companyId],
        )
      ).rows;
      const entries = (rows: { key: string; checks: number }[]) =>
        rows.map((row): [string, number] => [row.key, row.checks]).sort(([a], [b]) => (a < b ? -1 : 1));
      const guestEntries = guests
        .flatMap((guest) =>
          (['breakfast', 'lunch', 'dinner', 'late'] as const).map((part): [string, number] => [
            `${guest.id}|${part}`,
            guest[part],
          ]),
        )
        .filter(([, visits]) => visits > 0)
        .sort(([a], [b]) => (a < b ? -1 : 1));
      const parts = raw.map((check) => ({
        ...check,
        part: dayPartOfHour(localHour(check.opened_at, check.time_zone)),
      }));
      return {
        kept: {
          locationHours: entries(locationHours),
          companyHours: entries(companyHours),
          guests: guestEntries,
          itemPresence: entries(itemPresence),
        },
        raw: {
          locationHours: tally(parts.map((check) => `${check.location_id}|${check.part}`)),
          companyHours: tally(parts.map((check) => check.part)),
          guests: tally(
            parts
              .filter((check) => check.guest_id !== null)
              .map((check) => `${check.guest_id}|${check.part}`),
          ),
          itemPresence: tally(
            [
              ...new Set(
                parts
                  .filter((check) => check.guest_id !== null)
                  .map((check) => `${check.location_id}|${check.part}|${check.guest_id}`),
              ),
            ].map((key) => key.split('|').slice(0, 2).join('|')),
          ),
        },
      };
    });
  }

  /**
   * The company's item presence rows kept by the increments against the same rows worked out afresh from every
   * check (the function itself is checked against plain JS in guest-presence.test.ts): the company and locations.
   */
  async function itemRowsAgree(companyId: number) {
    return db.owner(async (sql) => {
      const rows = (text: string) =>
        sql.query(text, [companyId]).then((result) => result.rows.map((row) => JSON.stringify(row)).sort());
      const columns = `scope_kind, scope_id::int AS scope_id, menu_item_id::int AS menu_item_id, day_part,
                       day::text, prev_day::text, guests::int`;
      const kept = await rows(`SELECT ${columns} FROM pos_item_presence WHERE company_id = $1`);
      const afresh = await rows(
        `SELECT ${columns} FROM pos_item_presence_rows($1, NULL, NULL) WHERE scope_kind < 2`,
      );
      return { kept, afresh };
    });
  }

  beforeAll(async () => {
    for (const name of ['Harbor', 'Hill']) locations.push((await makeLocation(db, companyA, name)).id);
    const theirs = (await makeLocation(db, companyB, 'Theirs')).id;
    await db.tenant(companyA, (sql) =>
      ingestChecks(sql, systemScope(companyA), checksFor(locations, 300, 'a')),
    );
    await db.tenant(companyB, (sql) =>
      ingestChecks(sql, systemScope(companyB), checksFor([theirs], 60, 'b')),
    );
  });

  it('moves its checks between day parts in the hours, its guests’ visits and item presence, and nowhere else', async () => {
    const before = await keptAndRaw(companyA);
    expect(before.kept).toEqual(before.raw);
    const otherCompany = await keptAndRaw(companyB);

    // New York to Tokyo: thirteen or fourteen hours on, so most checks land in another day part.
    await locationsService(db).update(systemScope(companyA), locations[0]!, { time_zone: 'Asia/Tokyo' });
    const after = await keptAndRaw(companyA);
    expect(after.kept).toEqual(after.raw);
    // Every item row (each dish and any check, each day part and every one, each chain) is the new zone's.
    const items = await itemRowsAgree(companyA);
    expect(items.kept).toEqual(items.afresh);
    expect(
      items.kept.some((row) => row.includes('"day_part":""') && !row.includes('"menu_item_id":0,')),
    ).toBe(true);
    expect(after.raw.locationHours).not.toEqual(before.raw.locationHours);
    expect(after.raw.guests).not.toEqual(before.raw.guests);
    expect(after.raw.itemPresence).not.toEqual(before.raw.itemPresence);
    // The other location's rows and the other company's stay as they were.
    const at = (entries: [string, number][], location: number) =>
      entries.filter(([key]) => key.startsWith(`${location}|`));
    expect(at(after.kept.locationHours, locations[1]!)).toEqual(at(before.kept.locationHours, locations[1]!));
    expect(await keptAndRaw(companyB)).toEqual(otherCompany);
  });
});
