import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import {
  findCohortCells,
  rebuildCohortRollups,
  removeChecksFromCohorts,
  removeLocationFromCohorts,
  type CohortCell,
} from '../../server/repositories/cohort-rollups.repository.js';
import { deleteLocation } from '../../server/repositories/locations.repository.js';
import { updateLocationGroup } from '../../server/repositories/location-groups.repository.js';
import { groupPresenceRunner } from '../../server/jobs/group-presence-runner.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { eraseGuest } from '../../server/services/customer-erasure.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { makeTestLocationGroup } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

const TIME_ZONE = 'America/Los_Angeles';

/** A raw check as stored, read back for the independent computation. */
interface RawCheck {
  guest_id: number;
  location_id: number;
  closed_at: Date;
  total_cents: number;
}

/** The first day of a time's month in the time zone, as the JS runtime (not the database) reads it. */
function monthOf(at: Date, timeZone: string): string {
  return `${new Intl.DateTimeFormat('en-CA', { timeZone }).format(at).slice(0, 7)}-01`;
}

/**
 * Cohort cells computed straight from raw checks in plain JS: a guest's cohort is their first month at any of
 * `locations` (every location when empty), in the company's time zone; each month they have a check there counts them once.
 */
function expectedCells(
  checks: readonly RawCheck[],
  locations: readonly number[],
  timeZone = TIME_ZONE,
): CohortCell[] {
  const mine = checks.filter((check) => locations.length === 0 || locations.includes(check.location_id));
  const byGuestMonth = new Map<number, Map<string, { checks: number; revenue: number }>>();
  for (const check of mine) {
    const months = byGuestMonth.get(check.guest_id) ?? new Map<string, { checks: number; revenue: number }>();
    const month = monthOf(check.closed_at, timeZone);
    const cell = months.get(month) ?? { checks: 0, revenue: 0 };
    cell.checks += 1;
    cell.revenue += check.total_cents;
    months.set(month, cell);
    byGuestMonth.set(check.guest_id, months);
  }
  const cells = new Map<string, CohortCell>();
  for (const months of byGuestMonth.values()) {
    const cohort = [...months.keys()].sort()[0]!;
    for (const [month, figures] of months) {
      const key = `${cohort}/${month}`;
      const cell = cells.get(key) ?? {
        cohort_month: cohort,
        activity_month: month,
        guests: 0,
        checks: 0,
        revenue_cents: 0,
      };
      cell.guests += 1;
      cell.checks += figures.checks;
      cell.revenue_cents += figures.revenue;
      cells.set(key, cell);
    }
  }
  return [...cells.values()].sort(
    (a, b) =>
      a.cohort_month.localeCompare(b.cohort_month) || a.activity_month.localeCompare(b.activity_month),
  );
}

describe('cohort rollups kept with the checks', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let locations: number[];
  let theirLocation: number;
  let group: number;
  let groupMembers: number[];
  const random = seededRandom(13);
  const sent: IngestCheck[] = [];

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  const rawChecks = (companyId = companyA) =>
    db.owner(async (sql) => {
      const { rows } = await sql.query<RawCheck>(
        `SELECT guest_id, location_id, closed_at, total_cents FROM pos_checks
         WHERE company_id = $1 AND guest_id IS NOT NULL`,
        [companyId],
      );
      return rows;
    });
  const cells = (locationIds: number[], companyId = companyA) =>
    db.tenant(companyId, (sql) =>
      findCohortCells(sql, companyId, { locationIds, fromMonth: null, toMonth: null, months: 1000 }),
    );

  /** The group's own rows (migration 0047), read as the cohort calls read a filled group. */
  const groupCells = () =>
    db.tenant(companyA, (sql) =>
      findCohortCells(sql, companyA, {
        locationIds: groupMembers,
        groupId: group,
        fromMonth: null,
        toMonth: null,
        months: 1000,
      }),
    );

  /** Every filter read from the rollups (the group's own rows too) equals the same figures from the raw checks. */
  async function expectRollupsEqualRawChecks(): Promise<void> {
    const raw = await rawChecks();
    const filters = [[], ...locations.map((id) => [id]), locations.slice(0, 2), locations];
    for (const filter of filters) expect(await cells(filter)).toEqual(expectedCells(raw, filter));
    expect(await groupCells()).toEqual(expectedCells(raw, groupMembers));
  }

  /** A batch of random checks, out of order over two years, some sent before, some near a month's edge. */
  function randomBatch(batch: number, size: number, places = locations): IngestCheck[] {
    const checks: IngestCheck[] = [];
    for (let i = 0; i < size; i++) {
      if (sent.length > 0 && random() < 0.15) {
        checks.push(sent[Math.floor(random() * sent.length)]!);
        continue;
      }
      const month = Math.floor(random() * 24);
      // Half the checks fall in the first or last hours of a month (UTC), where the company's zone differs.
      const day = random() < 0.5 ? (random() < 0.5 ? 0 : 27) : Math.floor(random() * 28);
      const hour = Math.floor(random() * 24);
      const closed = new Date(Date.UTC(2024, month, 1 + day, hour, 30));
      const guest = Math.floor(random() * 25);
      const check: IngestCheck = {
        location_id: places[Math.floor(random() * places.length)]!,
        check_number: `${batch}-${i}`,
        opened_at: new Date(closed.getTime() - 3_600_000),
        closed_at: closed,
        total: 500 + Math.floor(random() * 9000),
        lines: [{ menu_item: 'Soup', category: 'Food', quantity: 1, amount: 500 }],
        ...(random() < 0.9 ? { guest: { pos_id: `G-${guest}` } } : {}),
      };
      checks.push(check);
      sent.push(check);
    }
    return checks;
  }

  beforeAll(async () => {
    await db.owner((sql) =>
      sql.query('UPDATE companies SET time_zone = $2 WHERE id = $1', [companyA, TIME_ZONE]),
    );
    locations = [];
    for (const name of ['North', 'South', 'East'])
      locations.push((await makeLocation(db, companyA, name)).id);
    theirLocation = (await makeLocation(db, companyB, 'Theirs')).id;
    groupMembers = [locations[0]!, locations[2]!];
    group = (await makeTestLocationGroup(db, companyA, 'North and East', groupMembers)).id;
    const theirs = randomBatch(99, 40, [theirLocation]);
    await db.tenant(companyB, (sql) => ingestChecks(sql, systemScope(companyB), theirs));
    sent.length = 0;
  });

  it('equals the raw checks after each random batch, re-sent checks included', async () => {
    for (let batch = 0; batch < 8; batch++) {
      const checks = randomBatch(batch, 30);
      await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), checks));
      await expectRollupsEqualRawChecks();
    }
  });

  it('moves a guest to an earlier cohort when an older check arrives late', async () => {
    const guest = { pos_id: 'G-late' };
    const at = (month: number) => new Date(Date.UTC(2025, month, 15, 20));
    const check = (number: string, month: number): IngestCheck => ({
      location_id: locations[0]!,
      check_number: number,
      opened_at: at(month),
      closed_at: at(month),
      total: 1000,
      guest,
      lines: [],
    });
    await db.tenant(companyA, (sql) =>
      ingestChecks(sql, systemScope(companyA), [check('late-1', 6), check('late-2', 7)]),
    );
    await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), [check('late-0', 2)]));
    const guestId = await db.owner(
      async (sql) =>
        (
          await sql.query<{ id: number }>(
            `SELECT id FROM guests WHERE company_id = $1 AND pos_id = 'G-late'`,
            [companyA],
          )
        ).rows[0]!.id,
    );
    const rows = await db.owner(
      async (sql) =>
        (
          await sql.query<{ month: string }>(
            `SELECT to_char(month, 'YYYY-MM') AS month FROM guest_location_months
             WHERE company_id = $1 AND guest_id = $2 ORDER BY month`,
            [companyA, guestId],
          )
        ).rows,
    );
    expect(rows.map((row) => row.month)).toEqual(['2025-03', '2025-07', '2025-08']);
    await expectRollupsEqualRawChecks();
  });

  it('takes voided checks and deleted guests out, and stays equal', async () => {
    const voided = await db.owner(async (sql) =>
      (
        await sql.query<{ id: number }>(
          `SELECT id FROM pos_checks WHERE company_id = $1 ORDER BY md5(id::text) LIMIT 20`,
          [companyA],
        )
      ).rows.map((row) => row.id),
    );
    await db.tenant(companyA, async (sql) => {
      await removeChecksFromCohorts(sql, companyA, voided);
      await sql.query('DELETE FROM pos_checks WHERE company_id = $1 AND id = ANY($2::bigint[])', [
        companyA,
        voided,
      ]);
    });
    await expectRollupsEqualRawChecks();

    const guests = await db.owner(async (sql) =>
      (
        await sql.query<{ id: number }>(
          `SELECT id FROM guests WHERE company_id = $1 AND visit_count > 0 ORDER BY id LIMIT 3`,
          [companyA],
        )
      ).rows.map((row) => row.id),
    );
    for (const guestId of guests) {
      expect(await db.tenant(companyA, (sql) => eraseGuest(sql, systemScope(companyA), guestId))).toBe(true);
    }
    await expectRollupsEqualRawChecks();
    for (let batch = 10; batch < 13; batch++) {
      const checks = randomBatch(batch, 30);
      await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), checks));
    }
    await expectRollupsEqualRawChecks();
  });

  it('gives the same rows as a rebuild from the raw checks', async () => {
    const everything = async () =>
      db.owner(
        async (sql) =>
          (
            await sql.query(
              `SELECT location_id, cohort_month, activity_month, guests, checks, revenue_cents FROM cohort_rollups
               WHERE company_id = $1 ORDER BY location_id NULLS FIRST, cohort_month, activity_month`,
              [companyA],
            )
          ).rows,
      );
    const groupRows = async () =>
      db.owner(
        async (sql) =>
          (
            await sql.query(
              `SELECT group_id, cohort_month, activity_month, guests, checks, revenue_cents FROM group_cohort_rollups
               WHERE company_id = $1 ORDER BY group_id, cohort_month, activity_month`,
              [companyA],
            )
          ).rows,
      );
    const kept = await everything();
    const keptGroups = await groupRows();
    expect(kept.length).toBeGreaterThan(50);
    expect(keptGroups.length).toBeGreaterThan(20);
    await db.tenant(companyA, (sql) => rebuildCohortRollups(sql, companyA));
    expect(await everything()).toEqual(kept);
    expect(await groupRows()).toEqual(keptGroups);
  });

  it('follows a group’s new members once the group worker has filled its rows again', async () => {
    groupMembers = [locations[0]!, locations[1]!];
    await db.tenant(companyA, (sql) =>
      updateLocationGroup(sql, systemScope(companyA), group, { location_ids: groupMembers }),
    );
    expect(await groupCells()).not.toEqual(expectedCells(await rawChecks(), groupMembers));
    expect(await groupPresenceRunner(db, { error: () => undefined }, { everyMs: 60_000 }).tick()).toBe(1);
    await expectRollupsEqualRawChecks();
  });

  it('works the company-wide cohorts out again when a location goes', async () => {
    // The group loses it too: its rows follow in the same transaction.
    const gone = locations.pop()!;
    groupMembers = groupMembers.filter((id) => id !== gone);
    await db.tenant(companyA, async (sql) => {
      await removeLocationFromCohorts(sql, companyA, gone);
      await deleteLocation(sql, systemScope(companyA), gone);
    });
    await expectRollupsEqualRawChecks();
  });

  it('keeps each company to its own checks', async () => {
    expect(await cells([], companyB)).toEqual(
      expectedCells(await rawChecks(companyB), [], 'America/New_York'),
    );
    expect(await cells([theirLocation], companyA)).toEqual([]);
    const raw = await rawChecks();
    expect(raw.length).toBeGreaterThan(100);
    expect(await cells([], companyA)).toEqual(expectedCells(raw, []));
  });
});
