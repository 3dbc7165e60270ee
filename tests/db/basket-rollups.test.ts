import { beforeAll, describe, expect, it } from 'vitest';
import type { Database, Sql } from '../../server/db/database.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { rebuildRollups, removeChecksFromRollups } from '../../server/repositories/pos-rollups.repository.js';
import { bestSellers } from '../../server/repositories/basket.repository.js';
import { basketService } from '../../server/services/basket.service.js';
import { eraseGuest } from '../../server/services/customer-erasure.js';
import { locationsService } from '../../server/services/locations.service.js';
import { BasketQuerySchema } from '../../src/schemas/basket-analytics.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

/**
 * The basket rollups (migration 0041) against the same figures counted here from pos_checks and their lines alone:
 * each check's day and month, then every grouping of location and day part by GROUPING SETS (location 0 and day
 * part '' standing for "all"), after bulk rebuilds and after every incremental path (ingest in shuffled batches
 * with late checks and checks sent again, checks taken away, a guest erased, a location's zone changed, a location
 * deleted). Then the call over a range of whole and partial months against pairs counted from the checks.
 */

// Every check once per span ('d' its local day, 'm' its month) with its location and day part.
const SPANS = `
  spans AS (
    SELECT c.id, c.location_id, day_part(c.opened_at, loc.time_zone) AS day_part, s.span,
           CASE s.span WHEN 'd' THEN to_char(c.closed_at AT TIME ZONE co.time_zone, 'YYYY-MM-DD')
                       ELSE to_char(c.closed_at AT TIME ZONE co.time_zone, 'YYYY-MM-01') END AS start
    FROM pos_checks c JOIN companies co ON co.id = c.company_id JOIN locations loc ON loc.id = c.location_id,
         (VALUES ('d'), ('m')) s(span)
    WHERE c.company_id = $1)`;
const GROUPS = `GROUPING SETS ((s.span, s.start, s.location_id, s.day_part), (s.span, s.start, s.location_id),
                               (s.span, s.start, s.day_part), (s.span, s.start))`;
const KEY = `s.span, s.start, coalesce(s.location_id, 0) AS location_id, coalesce(s.day_part, '') AS day_part`;

const RAW = {
  checks: `WITH ${SPANS}
    SELECT ${KEY}, count(*)::bigint AS checks,
           count(*) FILTER (WHERE (SELECT count(DISTINCT l.menu_item_id) FROM pos_check_lines l
                                   WHERE l.check_id = s.id) > 1)::bigint AS multi_item_checks,
           sum((SELECT coalesce(sum(l.quantity), 0) FROM pos_check_lines l WHERE l.check_id = s.id))::bigint AS units,
           sum((SELECT coalesce(sum(l.amount_cents), 0) FROM pos_check_lines l WHERE l.check_id = s.id))::bigint
             AS revenue_cents
    FROM spans s GROUP BY ${GROUPS} ORDER BY 1, 2, 3, 4`,
  items: `WITH ${SPANS}
    SELECT ${KEY}, l.menu_item_id, count(DISTINCT s.id)::bigint AS checks, sum(l.quantity)::bigint AS units,
           sum(l.amount_cents)::bigint AS revenue_cents
    FROM spans s JOIN pos_check_lines l ON l.check_id = s.id
    GROUP BY GROUPING SETS ((s.span, s.start, s.location_id, s.day_part, l.menu_item_id),
                            (s.span, s.start, s.location_id, l.menu_item_id), (s.span, s.start, s.day_part, l.menu_item_id),
                            (s.span, s.start, l.menu_item_id))
    ORDER BY 1, 2, 3, 4, 5`,
  categories: `WITH ${SPANS}
    SELECT ${KEY}, mi.category_id, count(DISTINCT s.id)::bigint AS checks, sum(l.quantity)::bigint AS units,
           sum(l.amount_cents)::bigint AS revenue_cents
    FROM spans s JOIN pos_check_lines l ON l.check_id = s.id JOIN menu_items mi ON mi.id = l.menu_item_id
    GROUP BY GROUPING SETS ((s.span, s.start, s.location_id, s.day_part, mi.category_id),
                            (s.span, s.start, s.location_id, mi.category_id), (s.span, s.start, s.day_part, mi.category_id),
                            (s.span, s.start, mi.category_id))
    ORDER BY 1, 2, 3, 4, 5`,
  pairs: `WITH ${SPANS},
    held AS (SELECT DISTINCT check_id, menu_item_id FROM pos_check_lines)
    SELECT ${KEY}, a.menu_item_id AS item_a, b.menu_item_id AS item_b, count(*)::bigint AS checks
    FROM spans s JOIN held a ON a.check_id = s.id JOIN held b ON b.check_id = s.id AND b.menu_item_id > a.menu_item_id
    GROUP BY GROUPING SETS ((s.span, s.start, s.location_id, s.day_part, a.menu_item_id, b.menu_item_id),
                            (s.span, s.start, s.location_id, a.menu_item_id, b.menu_item_id),
                            (s.span, s.start, s.day_part, a.menu_item_id, b.menu_item_id),
                            (s.span, s.start, a.menu_item_id, b.menu_item_id))
    ORDER BY 1, 2, 3, 4, 5, 6`,
};
const ROLLED = {
  checks: `SELECT span::text, to_char(start, 'YYYY-MM-DD') AS start, location_id, day_part, checks, multi_item_checks,
                  units, revenue_cents
           FROM pos_basket_checks WHERE company_id = $1 ORDER BY 1, 2, 3, 4`,
  items: `SELECT span::text, to_char(start, 'YYYY-MM-DD') AS start, location_id, day_part, menu_item_id, checks, units,
                 revenue_cents
          FROM pos_basket_items WHERE company_id = $1 ORDER BY 1, 2, 3, 4, 5`,
  categories: `SELECT span::text, to_char(start, 'YYYY-MM-DD') AS start, location_id, day_part, category_id, checks,
                      units, revenue_cents
               FROM pos_basket_categories WHERE company_id = $1 ORDER BY 1, 2, 3, 4, 5`,
  pairs: `SELECT span::text, to_char(start, 'YYYY-MM-DD') AS start, location_id, day_part, item_a, item_b, checks
          FROM pos_basket_pairs WHERE company_id = $1 ORDER BY 1, 2, 3, 4, 5, 6`,
};

// Every value as text: bigint arrives as text on PostgreSQL and as a number on PGlite.
async function tables(sql: Sql, companyId: number, queries: Record<string, string>) {
  const out: Record<string, string[]> = {};
  for (const [name, text] of Object.entries(queries)) {
    out[name] = (await sql.query<Record<string, unknown>>(text, [companyId])).rows.map((row) =>
      Object.values(row).map(String).join('|'),
    );
  }
  return out;
}

const ITEMS = [
  ['Burger', 'Mains'],
  ['Salad', 'Mains'],
  ['Fries', 'Sides'],
  ['Slaw', 'Sides'],
  ['Soda', 'Drinks'],
  ['Pie', 'Desserts'],
] as const;

describe('basket rollups kept with the checks', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let locations: number[] = [];
  const random = seededRandom(41);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  /** A check closing within 80 days of 2025-01-20 (two whole months and two partial ones), 0–4 lines. */
  function makeCheck(number: number, locationIds: readonly number[]): IngestCheck {
    const closed = new Date(Date.UTC(2025, 0, 20) + Math.floor(random() * 80 * 24 * 60) * 60_000);
    const lines = Array.from({ length: Math.floor(random() * 5) }, () => {
      const [menuItem, category] = pick(ITEMS);
      const quantity = 1 + Math.floor(random() * 2);
      return { menu_item: menuItem, category, quantity, amount: quantity * 400 };
    });
    return {
      location_id: pick(locationIds),
      check_number: `K-${number}`,
      opened_at: new Date(closed.getTime() - 50 * 60_000),
      closed_at: closed,
      total: 500 + Math.floor(random() * 5000),
      guest: random() < 0.2 ? undefined : { pos_id: `G-${Math.floor(random() * 30)}` },
      lines,
    };
  }

  const ingest = (companyId: number, checks: IngestCheck[]) =>
    db.tenant(companyId, (sql) => ingestChecks(sql, systemScope(companyId), checks));
  const expectExact = async (companyId: number) => {
    const [rolled, raw] = await db.tenant(companyId, async (sql) => [
      await tables(sql, companyId, ROLLED),
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
      (await makeLocation(db, companyA, 'North')).id,
    ];
  });

  it('equal the figures counted from the checks after shuffled batches, late checks and checks sent again', async () => {
    const all = Array.from({ length: 300 }, (_, n) => makeCheck(n, locations));
    // Shuffled: later batches bring checks older than stored ones (late arrivals into past days and months).
    const shuffled = [...all].sort(() => random() - 0.5);
    const sent: IngestCheck[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const fresh = shuffled.slice(batch * 50, batch * 50 + 50);
      const again = sent.length > 0 ? Array.from({ length: 4 }, () => pick(sent)) : [];
      const result = await ingest(companyA, [...fresh, ...again]);
      expect(result.created).toHaveLength(fresh.length);
      sent.push(...fresh);
      await expectExact(companyA);
    }
    const otherLocation = (await makeLocation(db, companyB, 'Other')).id;
    await ingest(
      companyB,
      Array.from({ length: 30 }, (_, n) => makeCheck(5_000 + n, [otherLocation])),
    );
    const rolled = await expectExact(companyA);
    await expectExact(companyB);
    // Not trivial: months, every grouping and pairs are there.
    expect(rolled.checks!.some((row) => row.startsWith('m|2025-02-01|0||'))).toBe(true);
    expect(rolled.pairs!.length).toBeGreaterThan(100);
    // The bulk rebuild gives the same rows as the increments.
    await db.tenant(companyA, (sql) => rebuildRollups(sql, companyA));
    expect(await expectExact(companyA)).toEqual(rolled);
  });

  it('stay exact when a guest is erased, checks are taken away, a location changes zone or is deleted', async () => {
    const guestId = await db.tenant(companyA, async (sql) => {
      const { rows } = await sql.query<{ guest_id: number }>(
        `SELECT guest_id FROM pos_checks WHERE company_id = $1 AND guest_id IS NOT NULL
         GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
        [companyA],
      );
      return rows[0]!.guest_id;
    });
    await db.tenant(companyA, (sql) => eraseGuest(sql, systemScope(companyA), guestId));
    await expectExact(companyA);
    // A random third of the checks taken away (a void's path): rows empty out, months shrink.
    const ids = await db.tenant(companyA, async (sql) => {
      const { rows } = await sql.query<{ id: number }>(
        'SELECT id FROM pos_checks WHERE company_id = $1 ORDER BY id',
        [companyA],
      );
      return rows.map((row) => Number(row.id)).filter(() => random() < 0.33);
    });
    await db.tenant(companyA, async (sql) => {
      await removeChecksFromRollups(sql, companyA, ids);
      await sql.query('DELETE FROM pos_checks WHERE company_id = $1 AND id = ANY($2::bigint[])', [
        companyA,
        ids,
      ]);
    });
    await expectExact(companyA);
    // Day parts are the location's: a new zone moves its checks between them.
    const before = await expectExact(companyA);
    await locationsService(db).update(systemScope(companyA), locations[0]!, { time_zone: 'Asia/Tokyo' });
    const moved = await expectExact(companyA);
    expect(moved.checks).not.toEqual(before.checks);
    // A deleted location's checks leave every location's rows.
    await locationsService(db).remove(systemScope(companyA), locations[1]!);
    const left = await expectExact(companyA);
    expect(left.checks!.some((row) => row.split('|')[2] === String(locations[1]))).toBe(false);
    // More checks afterwards still add up.
    await ingest(
      companyA,
      Array.from({ length: 40 }, (_, n) => makeCheck(9_000 + n, [locations[0]!, locations[2]!])),
    );
    await expectExact(companyA);
    await expectExact(companyB);
  });

  it('answer the call over whole and partial months as the pairs counted from the checks', async () => {
    const figures = (query: Record<string, unknown>) =>
      basketService(db, () => new Date('2025-04-20T12:00:00Z')).figures(
        companyA,
        BasketQuerySchema.parse(query),
      );
    // Raw: the checks of the range at the locations and day part, their items and pairs.
    const raw = (from: string, to: string, location: number | null, dayPart: string | null) =>
      db.tenant(companyA, async (sql) => {
        const { rows } = await sql.query<{
          checks: string;
          items: Record<string, number>;
          pairs: Record<string, number>;
        }>(
          `WITH k AS (
             SELECT c.id FROM pos_checks c JOIN companies co ON co.id = c.company_id
             JOIN locations loc ON loc.id = c.location_id
             WHERE c.company_id = $1 AND (c.closed_at AT TIME ZONE co.time_zone)::date BETWEEN $2::date AND $3::date
               AND ($4::bigint IS NULL OR c.location_id = $4) AND ($5::text IS NULL OR day_part(c.opened_at, loc.time_zone) = $5)),
           held AS (SELECT DISTINCT l.check_id, l.menu_item_id FROM k JOIN pos_check_lines l ON l.check_id = k.id)
           SELECT (SELECT count(*) FROM k)::text AS checks,
                  (SELECT coalesce(json_object_agg(menu_item_id, n), '{}') FROM
                     (SELECT menu_item_id, count(*) AS n FROM held GROUP BY 1) i) AS items,
                  (SELECT coalesce(json_object_agg(a || '-' || b, n), '{}') FROM
                     (SELECT a.menu_item_id AS a, b.menu_item_id AS b, count(*) AS n FROM held a
                      JOIN held b ON b.check_id = a.check_id AND b.menu_item_id > a.menu_item_id GROUP BY 1, 2) p) AS pairs`,
          [companyA, from, to, location, dayPart],
        );
        return rows[0]!;
      });
    const cases: [string, string, number | null, string | null][] = [
      ['2025-01-25', '2025-04-05', null, null], // partial January, whole February and March, partial April
      ['2025-02-01', '2025-03-31', null, 'dinner'], // whole months only
      ['2025-01-10', '2025-03-14', locations[2]!, null], // a location
      ['2025-02-03', '2025-02-27', locations[0]!, 'lunch'], // days only
    ];
    for (const [from, to, location, dayPart] of cases) {
      const answer = await figures({
        from_date: from,
        to_date: to,
        min_support: 0,
        ...(location === null ? {} : { location_id: location }),
        ...(dayPart === null ? {} : { day_part: dayPart }),
      });
      const expected = await raw(from, to, location, dayPart);
      expect(answer.totals.checks).toBe(Number(expected.checks));
      expect(
        Object.fromEntries(answer.items.map((item) => [String(item.menu_item_id), item.checks])),
      ).toEqual(expected.items);
      const pairs = Object.fromEntries(
        answer.pairs
          .filter((rule) => rule.item_id < rule.with_item_id)
          .map((rule) => [`${rule.item_id}-${rule.with_item_id}`, rule.checks]),
      );
      expect(pairs).toEqual(expected.pairs);
      expect(Object.keys(pairs).length).toBeGreaterThan(0);
      if (dayPart !== null) continue;
      // The home dashboard's best sellers read the same rollups: units, then revenue, then id, from the lines.
      const [sellers, lines] = await db.tenant(companyA, async (sql) => [
        await bestSellers(sql, companyA, location === null ? null : [location], { from, to }, 50),
        (
          await sql.query<{ menu_item_id: number; units: number; cents: number }>(
            `SELECT l.menu_item_id::int, l.quantity::int AS units, l.amount_cents::int AS cents
             FROM pos_checks c JOIN companies co ON co.id = c.company_id JOIN pos_check_lines l ON l.check_id = c.id
             WHERE c.company_id = $1 AND (c.closed_at AT TIME ZONE co.time_zone)::date BETWEEN $2::date AND $3::date
               AND ($4::bigint IS NULL OR c.location_id = $4)`,
            [companyA, from, to, location],
          )
        ).rows,
      ]);
      const sold = new Map<number, { units: number; cents: number }>();
      for (const line of lines) {
        const item = sold.get(line.menu_item_id) ?? { units: 0, cents: 0 };
        sold.set(line.menu_item_id, { units: item.units + line.units, cents: item.cents + line.cents });
      }
      const ranked = [...sold]
        .sort(([a, x], [b, y]) => y.units - x.units || y.cents - x.cents || a - b)
        .map(([id, item]) => ({ id, units: item.units }));
      expect(sellers.map((row) => ({ id: row.menu_item_id, units: row.units }))).toEqual(ranked);
      expect(ranked.length).toBeGreaterThan(1);
    }
  });
});
