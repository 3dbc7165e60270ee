import type { CompanyId, Sql } from '../db/database.js';

/**
 * The basket rollups (migration 0041; docs/dashboards.md, "Basket rollups"), kept by increments in the transaction
 * that stores or removes checks, beside the daily rollups of pos-rollups.repository.ts: per day and per whole month,
 * location (0: every location) and day part ('': every day part), the checks, the checks with two or more items,
 * units and revenue; the same per item and per category with the checks holding it; the checks holding both items
 * of each unordered pair. Every figure is a count or a sum, so each check adds (or takes away) its share of eight
 * rows of each table (two spans × its location or every location × its day part or every day part).
 */

// The batch's checks ($2) with their local day (company's zone), month and day part (location's zone), and the eight
// keys each check counts under; their lines one row per check and item, with the item's category.
const BATCH = `
  batch AS MATERIALIZED (
    SELECT c.id, c.location_id, day_part(c.opened_at, loc.time_zone) AS day_part,
           (c.closed_at AT TIME ZONE co.time_zone)::date AS day
    FROM pos_checks c JOIN companies co ON co.id = $1 JOIN locations loc ON loc.id = c.location_id
    WHERE c.company_id = $1 AND c.id = ANY($2::bigint[])),
  keys AS MATERIALIZED (
    SELECT b.id, s.span, l.location_id, p.day_part,
           CASE WHEN s.span = 'd' THEN b.day ELSE date_trunc('month', b.day)::date END AS start
    FROM batch b
    CROSS JOIN (VALUES ('d'::"char"), ('m'::"char")) s(span)
    CROSS JOIN LATERAL (VALUES (b.location_id), (0::bigint)) l(location_id)
    CROSS JOIN LATERAL (VALUES (b.day_part), ('')) p(day_part)),
  lines AS MATERIALIZED (
    SELECT l.check_id, l.menu_item_id, min(mi.category_id) AS category_id, sum(l.quantity)::bigint AS units,
           sum(l.amount_cents)::bigint AS cents
    FROM batch b JOIN pos_check_lines l ON l.company_id = $1 AND l.check_id = b.id
    JOIN menu_items mi ON mi.id = l.menu_item_id
    GROUP BY 1, 2)`;

// Adds $3 (1 or −1) times the batch's figures to every row they count under.
const APPLY = `
  WITH ${BATCH},
  checks AS (
    INSERT INTO pos_basket_checks AS t (company_id, span, location_id, day_part, start, checks, multi_item_checks,
                                        units, revenue_cents)
    SELECT $1, k.span, k.location_id, k.day_part, k.start, $3 * count(*), $3 * count(*) FILTER (WHERE c.items > 1),
           $3 * coalesce(sum(c.units), 0), $3 * coalesce(sum(c.cents), 0)
    FROM keys k LEFT JOIN (SELECT check_id, count(*) AS items, sum(units) AS units, sum(cents) AS cents
                           FROM lines GROUP BY 1) c ON c.check_id = k.id
    GROUP BY 2, 3, 4, 5
    ON CONFLICT (company_id, span, location_id, day_part, start) DO UPDATE
    SET checks = t.checks + excluded.checks, multi_item_checks = t.multi_item_checks + excluded.multi_item_checks,
        units = t.units + excluded.units, revenue_cents = t.revenue_cents + excluded.revenue_cents),
  items AS (
    INSERT INTO pos_basket_items AS t (company_id, span, location_id, day_part, start, menu_item_id, checks, units,
                                       revenue_cents)
    SELECT $1, k.span, k.location_id, k.day_part, k.start, l.menu_item_id, $3 * count(*), $3 * sum(l.units),
           $3 * sum(l.cents)
    FROM keys k JOIN lines l ON l.check_id = k.id
    GROUP BY 2, 3, 4, 5, 6
    ON CONFLICT (company_id, span, location_id, day_part, start, menu_item_id) DO UPDATE
    SET checks = t.checks + excluded.checks, units = t.units + excluded.units,
        revenue_cents = t.revenue_cents + excluded.revenue_cents),
  categories AS (
    INSERT INTO pos_basket_categories AS t (company_id, span, location_id, day_part, start, category_id, checks,
                                            units, revenue_cents)
    SELECT $1, k.span, k.location_id, k.day_part, k.start, l.category_id, $3 * count(DISTINCT k.id),
           $3 * sum(l.units), $3 * sum(l.cents)
    FROM keys k JOIN lines l ON l.check_id = k.id
    GROUP BY 2, 3, 4, 5, 6
    ON CONFLICT (company_id, span, location_id, day_part, start, category_id) DO UPDATE
    SET checks = t.checks + excluded.checks, units = t.units + excluded.units,
        revenue_cents = t.revenue_cents + excluded.revenue_cents)
  INSERT INTO pos_basket_pairs AS t (company_id, span, location_id, day_part, start, item_a, item_b, checks)
  SELECT $1, k.span, k.location_id, k.day_part, k.start, a.menu_item_id, b.menu_item_id, $3 * count(*)
  FROM keys k JOIN lines a ON a.check_id = k.id JOIN lines b ON b.check_id = k.id AND b.menu_item_id > a.menu_item_id
  GROUP BY 2, 3, 4, 5, 6, 7
  ON CONFLICT (company_id, span, location_id, day_part, start, item_a, item_b) DO UPDATE
  SET checks = t.checks + excluded.checks`;

// The rows the batch emptied (only under the batch's keys), in one statement.
const PRUNE = `
  WITH ${BATCH},
  touched AS MATERIALIZED (SELECT DISTINCT span, location_id, day_part, start FROM keys),
  checks AS (
    DELETE FROM pos_basket_checks t USING touched k
    WHERE t.company_id = $1 AND (t.span, t.location_id, t.day_part, t.start) = (k.span, k.location_id, k.day_part, k.start)
      AND t.checks = 0),
  items AS (
    DELETE FROM pos_basket_items t USING touched k
    WHERE t.company_id = $1 AND (t.span, t.location_id, t.day_part, t.start) = (k.span, k.location_id, k.day_part, k.start)
      AND t.checks = 0),
  categories AS (
    DELETE FROM pos_basket_categories t USING touched k
    WHERE t.company_id = $1 AND (t.span, t.location_id, t.day_part, t.start) = (k.span, k.location_id, k.day_part, k.start)
      AND t.checks = 0)
  DELETE FROM pos_basket_pairs t USING touched k
  WHERE t.company_id = $1 AND (t.span, t.location_id, t.day_part, t.start) = (k.span, k.location_id, k.day_part, k.start)
    AND t.checks = 0`;

/** Adds stored checks (by id, with their lines already in) to the basket rollups: one statement whatever the batch. */
export async function addChecksToBasketRollups(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
): Promise<void> {
  if (checkIds.length === 0) return;
  await sql.query(APPLY, [companyId, checkIds, 1]);
}

/**
 * Takes stored checks (by id) out of the basket rollups while they and their lines are still stored; rows that
 * reach no check any more are removed.
 */
export async function removeChecksFromBasketRollups(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
): Promise<void> {
  if (checkIds.length === 0) return;
  await sql.query(APPLY, [companyId, checkIds, -1]);
  await sql.query(PRUNE, [companyId, checkIds]);
}

// The location's rows ($2) of one table removed and taken out of every location's rows (location 0); `keys` are
// the table's columns after the start. A second statement removes the rows emptied (a row updated by a statement
// cannot be deleted by the same one).
const withoutLocation = (table: string, keys: string[], sums: string[]) => [
  `WITH mine AS (
     DELETE FROM ${table} WHERE company_id = $1 AND location_id = $2
     RETURNING span, day_part, start, ${[...keys, ...sums].join(', ')})
   UPDATE ${table} t SET ${sums.map((sum) => `${sum} = t.${sum} - m.${sum}`).join(', ')}
   FROM mine m
   WHERE t.company_id = $1 AND t.location_id = 0 AND t.span = m.span AND t.day_part = m.day_part
     AND t.start = m.start ${keys.map((key) => `AND t.${key} = m.${key}`).join(' ')}`,
  `DELETE FROM ${table} WHERE company_id = $1 AND location_id = 0 AND checks = 0`,
];

const LOCATION_REMOVALS = [
  ...withoutLocation('pos_basket_checks', [], ['checks', 'multi_item_checks', 'units', 'revenue_cents']),
  ...withoutLocation('pos_basket_items', ['menu_item_id'], ['checks', 'units', 'revenue_cents']),
  ...withoutLocation('pos_basket_categories', ['category_id'], ['checks', 'units', 'revenue_cents']),
  ...withoutLocation('pos_basket_pairs', ['item_a', 'item_b'], ['checks']),
];

/**
 * Takes a location's checks out of the basket rollups before the location (and its checks) is deleted: its own
 * rows are removed and subtracted from every location's rows (location 0), which have no foreign key to cascade.
 */
export async function removeLocationFromBasketRollups(
  sql: Sql,
  companyId: CompanyId,
  locationId: number,
): Promise<void> {
  for (const statement of LOCATION_REMOVALS) {
    await sql.query(statement, statement.includes('$2') ? [companyId, locationId] : [companyId]);
  }
}

/**
 * Counts a location's checks again after its time zone changed (their day parts move): its rows are taken out and
 * its checks added back, in the caller's transaction.
 */
export async function recountLocationInBasketRollups(
  sql: Sql,
  companyId: CompanyId,
  locationId: number,
): Promise<void> {
  await removeLocationFromBasketRollups(sql, companyId, locationId);
  const { rows } = await sql.query<{ ids: number[] | null }>(
    'SELECT array_agg(id) AS ids FROM pos_checks WHERE company_id = $1 AND location_id = $2',
    [companyId, locationId],
  );
  await addChecksToBasketRollups(sql, companyId, (rows[0]?.ids ?? []).map(Number));
}

/** Refills a company's basket rollups from its checks (SQL function `pos_basket_rollups_rebuild`, migration 0041). */
export async function rebuildBasketRollups(sql: Sql, companyId: CompanyId): Promise<void> {
  await sql.query('SELECT pos_basket_rollups_rebuild($1)', [companyId]);
}

/** Takes out every basket rollup row of a company, before `fillBasketRollups` fills them again month by month. */
export async function clearBasketRollups(sql: Sql, companyId: CompanyId): Promise<void> {
  for (const table of [
    'pos_basket_checks',
    'pos_basket_items',
    'pos_basket_categories',
    'pos_basket_pairs',
  ]) {
    await sql.query(`DELETE FROM ${table} WHERE company_id = $1`, [companyId]);
  }
}

/**
 * Fills a company's basket rollups of the days from `fromMonth` up to `toMonth` (each a month's first day,
 * 'YYYY-MM-DD', or null for no bound) and of those months (SQL function `pos_basket_rollups_fill`, migration
 * 0044); their rows must be gone before.
 */
export async function fillBasketRollups(
  sql: Sql,
  companyId: CompanyId,
  fromMonth: string | null,
  toMonth: string | null,
): Promise<void> {
  await sql.query(
    `SELECT pos_basket_rollups_fill($1, coalesce($2::date, '-infinity'), coalesce($3::date, 'infinity'))`,
    [companyId, fromMonth, toMonth],
  );
}

/**
 * The first days of every month (company's zone) from a company's first check to its last, empty months too;
 * none without checks.
 */
export async function monthsFromFirstCheck(sql: Sql, companyId: CompanyId): Promise<string[]> {
  const { rows } = await sql.query<{ month: string }>(
    `SELECT to_char(m, 'YYYY-MM-DD') AS month
     FROM (SELECT min(c.closed_at AT TIME ZONE co.time_zone) AS first, max(c.closed_at AT TIME ZONE co.time_zone) AS last
           FROM pos_checks c JOIN companies co ON co.id = $1 WHERE c.company_id = $1) r,
          generate_series(date_trunc('month', r.first), r.last, interval '1 month') m
     ORDER BY 1`,
    [companyId],
  );
  return rows.map((row) => row.month);
}
