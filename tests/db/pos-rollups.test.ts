import { beforeAll, describe, expect, it } from 'vitest';
import type { Database, Sql } from '../../server/db/database.js';
import { loadMigrations } from '../../server/db/migrate.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { rebuildRollups, removeChecksFromRollups } from '../../server/repositories/pos-rollups.repository.js';
import { eraseGuest } from '../../server/services/customer-erasure.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

// The rollups read back, and the same figures counted here from pos_checks alone, each as sorted JSON rows.
const ROLLUPS = {
  locations: `SELECT location_id, day::text, revenue_cents::bigint, checks::bigint, covers::bigint
              FROM pos_location_days WHERE company_id = $1 ORDER BY 1, 2`,
  centers: `SELECT location_id, revenue_center_id, day::text, revenue_cents::bigint, checks::bigint
            FROM pos_revenue_center_days WHERE company_id = $1 ORDER BY 1, 2, 3`,
  items: `SELECT location_id, menu_item_id, day::text, units::bigint, revenue_cents::bigint, checks::bigint
          FROM pos_menu_item_days WHERE company_id = $1 ORDER BY 1, 2, 3`,
  guests: `SELECT location_id, day::text, guest_id, checks::bigint, prev_day::text, prev_day_here::text, first_day::text
           FROM pos_guest_days WHERE company_id = $1 ORDER BY 1, 2, 3`,
};
const LOCAL_DAY = `to_char(c.closed_at AT TIME ZONE co.time_zone, 'YYYY-MM-DD')`;
const RAW = {
  locations: `SELECT c.location_id, ${LOCAL_DAY} AS day, sum(c.total_cents)::bigint AS revenue_cents,
                     count(*)::bigint AS checks, sum(c.guest_count)::bigint AS covers
              FROM pos_checks c, companies co WHERE co.id = $1 AND c.company_id = $1
              GROUP BY 1, 2 ORDER BY 1, 2`,
  centers: `SELECT c.location_id, c.revenue_center_id, ${LOCAL_DAY} AS day, sum(c.total_cents)::bigint AS revenue_cents,
                   count(*)::bigint AS checks
            FROM pos_checks c, companies co WHERE co.id = $1 AND c.company_id = $1 AND c.revenue_center_id IS NOT NULL
            GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  items: `SELECT c.location_id, l.menu_item_id, ${LOCAL_DAY} AS day, sum(l.quantity)::bigint AS units,
                 sum(l.amount_cents)::bigint AS revenue_cents, count(DISTINCT c.id)::bigint AS checks
          FROM pos_checks c JOIN pos_check_lines l ON l.check_id = c.id, companies co
          WHERE co.id = $1 AND c.company_id = $1
          GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  guests: `WITH visits AS (SELECT c.location_id, ${LOCAL_DAY} AS day, c.guest_id, count(*)::bigint AS checks
                          FROM pos_checks c, companies co
                          WHERE co.id = $1 AND c.company_id = $1 AND c.guest_id IS NOT NULL GROUP BY 1, 2, 3)
           -- The chain by its definition: the latest of the guest's days before this one in (day, location) order,
           -- the latest before it at the same location, the earliest of all.
           SELECT v.location_id, v.day, v.guest_id, v.checks,
                  (SELECT max(e.day) FROM visits e WHERE e.guest_id = v.guest_id
                     AND (e.day < v.day OR (e.day = v.day AND e.location_id < v.location_id))) AS prev_day,
                  (SELECT max(e.day) FROM visits e WHERE e.guest_id = v.guest_id AND e.location_id = v.location_id
                     AND e.day < v.day) AS prev_day_here,
                  (SELECT min(e.day) FROM visits e WHERE e.guest_id = v.guest_id) AS first_day
           FROM visits v ORDER BY 1, 2, 3`,
};

async function tables(sql: Sql, companyId: number, queries: Record<string, string>) {
  const out: Record<string, unknown[]> = {};
  for (const [name, text] of Object.entries(queries)) {
    out[name] = (await sql.query(text, [companyId])).rows.map((row) => JSON.stringify(row));
  }
  return out;
}

const ITEMS = [
  ['Burger', 'Mains'],
  ['Salad', 'Mains'],
  ['Fries', 'Sides'],
  ['Soda', 'Drinks'],
  ['Pie', undefined],
] as const;

describe('daily rollups kept with the checks', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let locations: number[] = [];
  let locationB: number;
  const random = seededRandom(13);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  /** A check closing within 12 days of 2025-03-05, at any minute (midnight and the DST change included). */
  function makeCheck(number: number, locationIds: readonly number[]): IngestCheck {
    const closed = new Date(Date.UTC(2025, 2, 5) + Math.floor(random() * 12 * 24 * 60) * 60_000);
    const guestDraw = random();
    const lines = Array.from({ length: Math.floor(random() * 4) }, () => {
      const [menuItem, category] = pick(ITEMS);
      const quantity = 1 + Math.floor(random() * 3);
      return { menu_item: menuItem, category, quantity, amount: quantity * 450 };
    });
    return {
      location_id: pick(locationIds),
      check_number: `N-${number}`,
      opened_at: new Date(closed.getTime() - 40 * 60_000),
      closed_at: closed,
      total: 100 + Math.floor(random() * 9000),
      guest_count: 1 + Math.floor(random() * 4),
      revenue_center: random() < 0.2 ? undefined : pick(['Bar', 'Dining', 'Patio']),
      guest:
        guestDraw < 0.15
          ? undefined
          : guestDraw < 0.3
            ? { customer_name: pick(['Ann Lee', 'Bo Ng']), last_four_digits: pick(['1111', '2222']) }
            : { pos_id: `P-${Math.floor(random() * 25)}` },
      lines,
    };
  }

  const ingest = (companyId: number, checks: IngestCheck[]) =>
    db.tenant(companyId, (sql) => ingestChecks(sql, systemScope(companyId), checks));
  const expectExact = async (companyId: number) => {
    const [rolled, raw] = await db.tenant(companyId, async (sql) => [
      await tables(sql, companyId, ROLLUPS),
      await tables(sql, companyId, RAW),
    ]);
    expect(rolled).toEqual(raw);
    return rolled;
  };

  beforeAll(async () => {
    await db.owner((sql) =>
      sql.query(`UPDATE companies SET time_zone = 'America/Los_Angeles' WHERE id = $1`, [companyA]),
    );
    locations = [
      (await makeLocation(db, companyA, 'East')).id,
      (await makeLocation(db, companyA, 'West')).id,
    ];
    locationB = (await makeLocation(db, companyB, 'Other')).id;
  });

  it('equal the figures counted from the checks after out-of-order batches and checks sent again', async () => {
    // 240 checks in a shuffled order (late arrivals move a guest's first day back), in 8 batches, each also
    // carrying a few checks sent before.
    const all = Array.from({ length: 240 }, (_, n) => makeCheck(n, locations));
    const shuffled = [...all].sort(() => random() - 0.5);
    const sent: IngestCheck[] = [];
    for (let batch = 0; batch < 8; batch++) {
      const fresh = shuffled.slice(batch * 30, batch * 30 + 30);
      const again = sent.length > 0 ? Array.from({ length: 5 }, () => pick(sent)) : [];
      const result = await ingest(companyA, [...fresh, ...again]);
      expect(result.created).toHaveLength(fresh.length);
      sent.push(...fresh);
      await expectExact(companyA);
    }
    await ingest(companyB, [makeCheck(1_000, [locationB]), makeCheck(1_001, [locationB])]);
    const rolledA = await expectExact(companyA);
    expect(rolledA.locations!.length).toBeGreaterThan(10);
    // The chains are not trivial: guests came back, to the same location and to another on the same day.
    const guestRows = rolledA.guests!.map(
      (row) =>
        JSON.parse(String(row)) as { day: string; prev_day: string | null; prev_day_here: string | null },
    );
    expect(guestRows.filter((row) => row.prev_day_here !== null).length).toBeGreaterThan(0);
    expect(
      guestRows.filter((row) => row.prev_day !== null && row.prev_day !== row.prev_day_here).length,
    ).toBeGreaterThan(0);
    expect(guestRows.some((row) => row.prev_day === row.day)).toBe(true);
    await expectExact(companyB);
    // Company B's rows stay its own: none of A's locations appear there.
    const bLocations = await db.owner(
      async (sql) =>
        (
          await sql.query<{ location_id: number }>(
            'SELECT DISTINCT location_id FROM pos_location_days WHERE company_id = $1',
            [companyB],
          )
        ).rows,
    );
    expect(bLocations).toEqual([{ location_id: locationB }]);
  });

  it('stay exact when guests are deleted and checks are taken away', async () => {
    const guestIds = await db.tenant(companyA, async (sql) => {
      const { rows } = await sql.query<{ guest_id: number }>(
        `SELECT guest_id FROM pos_checks WHERE company_id = $1 AND guest_id IS NOT NULL
         GROUP BY guest_id ORDER BY count(*) DESC, guest_id LIMIT 3`,
        [companyA],
      );
      return rows.map((row) => row.guest_id);
    });
    for (const guestId of guestIds) {
      await db.tenant(companyA, (sql) => eraseGuest(sql, systemScope(companyA), guestId));
      await expectExact(companyA);
    }
    // Each guest's earliest check taken away, then a random fifth: first days move forward, rows empty out.
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
    // More checks after the removals still add up.
    await ingest(
      companyA,
      Array.from({ length: 40 }, (_, n) => makeCheck(2_000 + n, locations)),
    );
    await expectExact(companyA);
    await expectExact(companyB);
  });

  it('move every day when the company changes its time zone and the rollups are rebuilt', async () => {
    const before = await expectExact(companyA);
    await db.owner((sql) =>
      sql.query(`UPDATE companies SET time_zone = 'Asia/Tokyo' WHERE id = $1`, [companyA]),
    );
    await db.tenant(companyA, (sql) => rebuildRollups(sql, companyA));
    const after = await expectExact(companyA);
    expect(after.locations).not.toEqual(before.locations);
    await expectExact(companyB);
  });

  it('get their chains from migration 0021’s fill over rows stored before it', async () => {
    // The fill as the migration runs it, over rows whose chains are wiped as rows from before 0021 had none.
    const migration = loadMigrations().find((file) => file.name === '0021_guest_day_chains.sql')!.sql;
    const fill = migration.slice(
      migration.indexOf('UPDATE pos_guest_days d'),
      migration.indexOf(';', migration.indexOf('UPDATE pos_guest_days d')),
    );
    await db.owner((sql) =>
      sql.query('UPDATE pos_guest_days SET prev_day = NULL, prev_day_here = NULL, first_day = day'),
    );
    await db.owner((sql) => sql.query(fill));
    const rolled = await expectExact(companyA);
    await expectExact(companyB);
    // Not a table of nulls: some rows point back to an earlier day.
    expect(
      rolled.guests!.some((row) => (JSON.parse(String(row)) as { prev_day: string | null }).prev_day),
    ).toBe(true);
  });
});
