import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { findFavouriteItems, findGuestMetrics } from '../../server/repositories/guest-metrics.repository.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeGuest, makeLocation, makeSubscriber, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

const ITEMS = ['Burger', 'Fries', 'Salad', 'Soda', 'Pie', 'Coffee'];

/** The hour on the clock in a time zone, as the JS runtime (not the database) reads it. */
function localHour(at: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(at));
}

function dayPart(hour: number): 'breakfast' | 'lunch' | 'dinner' | 'late' {
  if (hour >= 5 && hour < 11) return 'breakfast';
  if (hour >= 11 && hour < 16) return 'lunch';
  if (hour >= 16 && hour < 22) return 'dinner';
  return 'late';
}

function localDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);
}

describe('guest metrics kept current as checks arrive', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let east: { id: number; time_zone: string };
  let west: { id: number; time_zone: string };
  let regularId: number;
  let cardOnlyPosId: string;
  const sent: IngestCheck[] = [];

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  const ingest = (checks: IngestCheck[]) =>
    db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), checks));
  const metricsOf = (guestId: number, companyId = companyA) =>
    db.tenant(companyId, (sql) => findGuestMetrics(sql, companyId, guestId));

  beforeAll(async () => {
    east = await makeLocation(db, companyA, 'East');
    const westRow = await makeLocation(db, companyA, 'West');
    await db.owner((sql) =>
      sql.query(`UPDATE locations SET time_zone = 'America/Los_Angeles' WHERE id = $1`, [westRow.id]),
    );
    west = { ...westRow, time_zone: 'America/Los_Angeles' };
    regularId = (
      await makeGuest(db, companyA, { pos_id: 'P-1', customer_name: 'Ann Lee', last_four_digits: '4242' })
    ).id;
    await makeSubscriber(db, companyA, { guest_id: regularId, subscribed: true });
    const random = seededRandom(5);
    // Three batches of twenty checks over 2025, at any hour, at either location, with one to three lines.
    for (let batch = 0; batch < 3; batch++) {
      const checks: IngestCheck[] = [];
      for (let i = 0; i < 20; i++) {
        const opened = new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 360 * 24) * 3_600_000);
        const location = random() < 0.6 ? east : west;
        const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
          const quantity = 1 + Math.floor(random() * 3);
          return {
            menu_item: ITEMS[Math.floor(random() * ITEMS.length)]!,
            category: 'Food',
            quantity,
            amount: quantity * 5,
          };
        });
        checks.push({
          location_id: location.id,
          check_number: `${batch}-${i}`,
          opened_at: opened,
          closed_at: new Date(opened.getTime() + 45 * 60_000),
          total: 1000 + Math.floor(random() * 5000),
          guest: i % 4 === 3 ? { customer_name: 'Cy Card', last_four_digits: '1111' } : { pos_id: 'P-1' },
          lines,
        });
      }
      sent.push(...checks);
      expect((await ingest(checks)).created).toHaveLength(20);
    }
    cardOnlyPosId = (
      await db.owner(
        async (sql) =>
          (
            await sql.query<{ pos_id: string }>(
              `SELECT pos_id FROM guests WHERE company_id = $1 AND customer_name = 'Cy Card'`,
              [companyA],
            )
          ).rows[0]!,
      )
    ).pos_id;
  });

  it('counts visits, spend, day parts, the favourite location and items as the checks say', async () => {
    const mine = sent.filter((check) => check.guest?.pos_id === 'P-1');
    const timeZoneOf = (locationId: number) => (locationId === east.id ? east.time_zone : west.time_zone);
    const spend = mine.reduce((total, check) => total + check.total, 0);
    const parts = { breakfast: 0, lunch: 0, dinner: 0, late: 0 };
    for (const check of mine) parts[dayPart(localHour(check.opened_at, timeZoneOf(check.location_id)))]++;
    const byLocation = new Map<number, { visits: number; spend: number }>();
    for (const check of mine) {
      const row = byLocation.get(check.location_id) ?? { visits: 0, spend: 0 };
      row.visits++;
      row.spend += check.total;
      byLocation.set(check.location_id, row);
    }
    const favourite = [...byLocation].sort(
      (a, b) => b[1].visits - a[1].visits || b[1].spend - a[1].spend || a[0] - b[0],
    )[0]![0];
    const closedTimes = mine.map((check) => check.closed_at.getTime());
    const first = Math.min(...closedTimes);
    const last = Math.max(...closedTimes);
    const months = Math.max(1, (Date.now() - first) / 86_400_000 / 30.436875);
    const today = localDate(new Date(), 'America/New_York');
    const lastDay = localDate(new Date(last), 'America/New_York');

    const metrics = await metricsOf(regularId);
    expect(metrics).toMatchObject({
      guest_id: regularId,
      visits: mine.length,
      spend_cents: spend,
      average_check_cents: Math.round(spend / mine.length),
      first_visit_at: new Date(first),
      last_visit_at: new Date(last),
      days_since_last_visit: (Date.parse(today) - Date.parse(lastDay)) / 86_400_000,
      favourite_location_id: favourite,
      day_parts: parts,
      trackable: true,
      marketable: true,
    });
    expect(metrics!.visits_per_month).toBeCloseTo(mine.length / months, 3);

    const units = new Map<string, { quantity: number; checks: number }>();
    for (const check of mine) {
      const seen = new Set<string>();
      for (const line of check.lines) {
        const row = units.get(line.menu_item) ?? { quantity: 0, checks: 0 };
        row.quantity += line.quantity;
        if (!seen.has(line.menu_item)) row.checks++;
        seen.add(line.menu_item);
        units.set(line.menu_item, row);
      }
    }
    const expected = [...units]
      .sort((a, b) => b[1].quantity - a[1].quantity || b[1].checks - a[1].checks || a[0].localeCompare(b[0]))
      .slice(0, 5)
      .map(([name, row]) => ({ name, ...row }));
    const favourites = await db.tenant(companyA, (sql) => findFavouriteItems(sql, companyA, regularId));
    expect(favourites.map(({ name, quantity, checks }) => ({ name, quantity, checks }))).toEqual(expected);
  });

  it('changes nothing when the same checks arrive again', async () => {
    const before = await metricsOf(regularId);
    const beforeItems = await db.tenant(companyA, (sql) => findFavouriteItems(sql, companyA, regularId, 10));
    expect((await ingest(sent.slice(0, 25))).unchanged).toHaveLength(25);
    expect({ ...(await metricsOf(regularId)), visits_per_month: 0 }).toEqual({
      ...before,
      visits_per_month: 0,
    });
    expect(await db.tenant(companyA, (sql) => findFavouriteItems(sql, companyA, regularId, 10))).toEqual(
      beforeItems,
    );
  });

  it('marks who can be followed and who can be sent to', async () => {
    const cardOnly = await db.owner(
      async (sql) =>
        (
          await sql.query<{ id: number }>('SELECT id FROM guests WHERE company_id = $1 AND pos_id = $2', [
            companyA,
            cardOnlyPosId,
          ])
        ).rows[0]!.id,
    );
    expect(await metricsOf(cardOnly)).toMatchObject({ trackable: true, marketable: false });
    const neverCame = await makeGuest(db, companyA);
    expect(await metricsOf(neverCame.id)).toMatchObject({
      visits: 0,
      average_check_cents: 0,
      days_since_last_visit: null,
      visits_per_month: 0,
      favourite_location_id: null,
      trackable: false,
    });
    await db.owner((sql) =>
      sql.query('UPDATE subscribers SET subscribed = false WHERE guest_id = $1', [regularId]),
    );
    expect(await metricsOf(regularId)).toMatchObject({ marketable: false });
  });

  it('shows another company nothing', async () => {
    expect(await metricsOf(regularId, companyB)).toBeNull();
    expect(await db.tenant(companyB, (sql) => findFavouriteItems(sql, companyB, regularId))).toEqual([]);
  });
});
