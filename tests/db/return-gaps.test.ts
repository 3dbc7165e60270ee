import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { rebuildRollups, removeChecksFromRollups } from '../../server/repositories/pos-rollups.repository.js';
import { eraseGuest } from '../../server/services/customer-erasure.js';
import { locationsService } from '../../server/services/locations.service.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

/**
 * The rollups of migration 0043 — the return gaps (`pos_return_gaps`, `pos_return_gap_bins`) and the company's
 * hours (`pos_company_hours`) — against a brute-force count over the raw checks in plain JS — after checks arrive in scattered batches (older checks after newer ones),
 * several locations on one day, a guest's erasure, checks taken away, a location's deletion — and against their
 * own bulk rebuild.
 */

const TIME_ZONE = 'America/Los_Angeles';

/** The local day of an instant in the company's zone, as the JS runtime reads it. */
const dayOf = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(at);
const between = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** The bin of a gap, written out from the migration's boundaries (not from its formula). */
function binOf(gap: number): number {
  const starts = [1, 8, 15, 22, 31, 41, 51, 61, 76, 91, 121, 151, 181, 271, 366];
  let bin = starts.filter((start) => start <= gap).pop()!;
  while (bin + 90 <= gap && bin >= 366) bin += 90;
  return bin;
}

/** Return visits (`day|location|gap` → count) from the raw checks: each guest's local days in order. */
function returnVisitsOf(checks: readonly { guest_id: number; location_id: number; closed_at: Date }[]) {
  const days = new Map<number, Map<string, number>>();
  for (const check of checks) {
    const byDay = days.get(check.guest_id) ?? new Map<string, number>();
    const day = dayOf(check.closed_at);
    byDay.set(day, Math.min(byDay.get(day) ?? Infinity, check.location_id));
    days.set(check.guest_id, byDay);
  }
  const exact = new Map<string, number>();
  const bins = new Map<string, number>();
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const byDay of days.values()) {
    const ordered = [...byDay].sort(([a], [b]) => (a < b ? -1 : 1));
    ordered.forEach(([day, location], index) => {
      if (index === 0) return;
      const gap = between(ordered[index - 1]![0], day);
      add(exact, `${day}|${location}|${gap}`);
      add(bins, `${day}|${location}|${binOf(gap)}`);
    });
  }
  return { exact, bins };
}

describe('return-gap and company-hour rollups: equal to the raw checks and to their own rebuild', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  const locations: number[] = [];
  const random = seededRandom(53);

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  /** Random checks over 2024–2025 for forty guests, a few days at two locations, some near midnight. */
  function checksFor(places: number[], count: number, prefix: string): IngestCheck[] {
    return Array.from({ length: count }, (_, index) => {
      const closed = new Date(
        Date.UTC(2024, Math.floor(random() * 24), 1 + Math.floor(random() * 28), random() < 0.3 ? 7 : 19, 30),
      );
      return {
        location_id: places[Math.floor(random() * places.length)]!,
        check_number: `${prefix}-${index}`,
        opened_at: new Date(closed.getTime() - 3_600_000),
        closed_at: closed,
        total: 500 + Math.floor(random() * 5000),
        lines: [],
        ...(random() < 0.9 ? { guest: { pos_id: `G-${Math.floor(random() * 40)}` } } : {}),
      };
    });
  }

  /** The stored rows of both tables for company A, as `day|location|gap-or-bin` → visits. */
  async function stored() {
    return db.owner(async (sql) => {
      const read = async (table: string, column: string) =>
        new Map(
          (
            await sql.query<{ key: string; visits: number }>(
              `SELECT to_char(day, 'YYYY-MM-DD') || '|' || location_id || '|' || ${column} AS key,
                      visits::int AS visits
               FROM ${table} WHERE company_id = $1`,
              [companyA],
            )
          ).rows.map((row) => [row.key, row.visits]),
        );
      return { exact: await read('pos_return_gaps', 'gap'), bins: await read('pos_return_gap_bins', 'bin') };
    });
  }

  /** Both tables hold exactly the return visits the raw checks make. */
  async function expectExact() {
    const checks = await db.owner(
      async (sql) =>
        (
          await sql.query<{ guest_id: number; location_id: number; closed_at: Date }>(
            `SELECT guest_id::int AS guest_id, location_id::int AS location_id, closed_at FROM pos_checks
             WHERE company_id = $1 AND guest_id IS NOT NULL`,
            [companyA],
          )
        ).rows,
    );
    const want = returnVisitsOf(checks);
    const got = await stored();
    expect(new Map([...got.exact].sort())).toEqual(new Map([...want.exact].sort()));
    expect(new Map([...got.bins].sort())).toEqual(new Map([...want.bins].sort()));
    await expectCompanyHoursExact();
  }

  /**
   * `pos_company_hours` holds exactly the locations' hourly rows summed over the locations, and its checks per
   * local day are the raw checks counted in plain JS (every check, with a guest or not).
   */
  async function expectCompanyHoursExact() {
    const [company, summed, checks] = await db.owner(async (sql) => {
      const columns = `to_char(day, 'YYYY-MM-DD') AS day, weekday::int AS weekday, hour::int AS hour, day_part,
        sum(checks)::int AS checks, sum(revenue_cents)::int AS revenue_cents, sum(covers)::int AS covers,
        sum(party_1)::int AS p1, sum(party_2)::int AS p2, sum(party_3)::int AS p3, sum(party_4)::int AS p4,
        sum(party_5)::int AS p5, sum(party_6_plus)::int AS p6`;
      const read = async (table: string) =>
        (
          await sql.query(
            `SELECT ${columns} FROM ${table} WHERE company_id = $1 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
            [companyA],
          )
        ).rows;
      const raw = await sql.query<{ closed_at: Date }>(
        'SELECT closed_at FROM pos_checks WHERE company_id = $1',
        [companyA],
      );
      return [await read('pos_company_hours'), await read('pos_location_hours'), raw.rows];
    });
    expect(company).toEqual(summed);
    const perDay = new Map<string, number>();
    for (const check of checks)
      perDay.set(dayOf(check.closed_at), (perDay.get(dayOf(check.closed_at)) ?? 0) + 1);
    const stored = new Map<string, number>();
    for (const row of company as { day: string; checks: number }[])
      stored.set(row.day, (stored.get(row.day) ?? 0) + row.checks);
    expect(new Map([...stored].sort())).toEqual(new Map([...perDay].sort()));
  }

  beforeAll(async () => {
    await db.owner((sql) =>
      sql.query('UPDATE companies SET time_zone = $2 WHERE id = $1', [companyA, TIME_ZONE]),
    );
    for (const name of ['North', 'South', 'East', 'West'])
      locations.push((await makeLocation(db, companyA, name)).id);
    const theirs = (await makeLocation(db, companyB, 'Theirs')).id;
    for (let batch = 0; batch < 5; batch++) {
      const checks = checksFor(locations, 120, `b${batch}`);
      await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), checks));
      await db.tenant(companyB, (sql) =>
        ingestChecks(sql, systemScope(companyB), checksFor([theirs], 40, `x${batch}`)),
      );
    }
  });

  it('counts every return visit of the scattered batches, as the rebuild does', async () => {
    await expectExact();
    const before = await stored();
    await db.tenant(companyA, (sql) => rebuildRollups(sql, companyA));
    expect(await stored()).toEqual(before);
    await expectCompanyHoursExact();
    // The bins' rows sum to the exact rows; company B's rows are its own.
    const sum = (map: Map<string, number>) => [...map.values()].reduce((total, n) => total + n, 0);
    expect(sum(before.bins)).toBe(sum(before.exact));
    expect(sum(before.exact)).toBeGreaterThan(300);
  });

  it('refills the company hours in a rebuild even when a bulk fill without triggers left them out', async () => {
    // A restore or the bench's replica mode fills the location hours with no trigger firing.
    await db.owner((sql) => sql.query('DELETE FROM pos_company_hours WHERE company_id = $1', [companyA]));
    await db.tenant(companyA, (sql) => rebuildRollups(sql, companyA));
    await expectCompanyHoursExact();
  });

  it('stays exact when a guest is erased, checks taken away, a location deleted and the rollups rebuilt', async () => {
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
    await expectExact();
    const ids = await db.tenant(companyA, async (sql) =>
      (await sql.query<{ id: number }>('SELECT id FROM pos_checks WHERE company_id = $1', [companyA])).rows
        .map((row) => row.id)
        .filter(() => random() < 0.2),
    );
    await db.tenant(companyA, async (sql) => {
      await removeChecksFromRollups(sql, companyA, ids);
      await sql.query('DELETE FROM pos_checks WHERE company_id = $1 AND id = ANY($2::bigint[])', [
        companyA,
        ids,
      ]);
    });
    await expectExact();
    await locationsService(db).remove(systemScope(companyA), locations[0]!);
    await expectExact();
    const kept = await stored();
    await db.tenant(companyA, (sql) => rebuildRollups(sql, companyA));
    expect(await stored()).toEqual(kept);
    await expectCompanyHoursExact();
  });
});
