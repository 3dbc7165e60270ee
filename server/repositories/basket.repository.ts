import type { CompanyId, Sql } from '../db/database.js';

/**
 * Basket figures read from the checks and their lines (docs/dashboards.md, "Basket"): the daily rollups have no
 * day part and no pairs, so the range's checks are read once (the closing-time index), their lines once, and
 * pairs are counted only among the `pairItems` items on most checks (or with the focus item), which bounds the
 * self-join. Days are local dates of the closing time in the company's zone; day parts use the location's zone
 * (`day_part()`, migration 0016), as the segment rules do.
 */

/** What a basket query covers. */
export interface BasketFilter {
  /** null: every location. */
  locations: number[] | null;
  from: string;
  to: string;
  /** The company's time zone (days are its local dates). */
  zone: string;
  dayPart: string | null;
}

/** The pair options: minimum support in basis points of the checks, the focus item, the bounds. */
export interface PairOptions {
  minSupportBasisPoints: number;
  focusItem: number | null;
  pairItems: number;
  pairLimit: number;
  itemLimit: number;
}

/** The range's totals as counted. */
export interface BasketTotalsRow {
  checks: number;
  units: number;
  revenue_cents: number;
  guests: number;
  multi_item_checks: number;
}

/** One item's figures. */
export interface BasketItemRow {
  menu_item_id: number;
  name: string;
  category_id: number;
  category: string;
  units: number;
  revenue_cents: number;
  checks: number;
  guests: number;
}

/** One category's figures. */
export interface BasketCategoryRow {
  category_id: number;
  category: string;
  units: number;
  revenue_cents: number;
  checks: number;
}

/** An unordered pair of items (`a` < `b`): their names, the checks with each and the checks with both. */
export interface BasketPairRow {
  a: number;
  a_name: string;
  a_checks: number;
  b: number;
  b_name: string;
  b_checks: number;
  checks: number;
}

/** Everything one basket statement answers. */
export interface BasketRows {
  totals: BasketTotalsRow;
  items: BasketItemRow[];
  categories: BasketCategoryRow[];
  pairs: BasketPairRow[];
}

// The range's checks ($1 company, $2 locations or null, $3 first day, $4 last day, $5 zone, $6 day part or null)
// and their lines, one row per check and item.
const CHECKS_AND_LINES = `
  checks AS MATERIALIZED (
    SELECT c.id, c.guest_id FROM pos_checks c JOIN locations loc ON loc.id = c.location_id
    WHERE c.company_id = $1 AND ($2::bigint[] IS NULL OR c.location_id = ANY($2::bigint[]))
      AND c.closed_at >= ($3::date::timestamp AT TIME ZONE $5::text)
      AND c.closed_at < (($4::date + 1)::timestamp AT TIME ZONE $5::text)
      AND ($6::text IS NULL OR day_part(c.opened_at, loc.time_zone) = $6::text)),
  lines AS MATERIALIZED (
    SELECT l.check_id, l.menu_item_id, min(k.guest_id) AS guest_id,
           sum(l.quantity)::bigint AS units, sum(l.amount_cents)::bigint AS cents
    FROM checks k JOIN pos_check_lines l ON l.company_id = $1 AND l.check_id = k.id
    GROUP BY 1, 2)`;

const TOTALS = `
  SELECT (SELECT count(*) FROM checks)::bigint AS checks,
         (SELECT coalesce(sum(units), 0) FROM lines)::bigint AS units,
         (SELECT coalesce(sum(cents), 0) FROM lines)::bigint AS revenue_cents,
         (SELECT count(DISTINCT guest_id) FROM checks)::bigint AS guests,
         (SELECT count(*) FROM (SELECT check_id FROM lines GROUP BY 1 HAVING count(*) > 1) m)::bigint
           AS multi_item_checks`;

/** The totals alone (the previous period's KPI cards). */
export async function basketTotals(
  sql: Sql,
  companyId: CompanyId,
  filter: BasketFilter,
): Promise<BasketTotalsRow> {
  const { rows } = await sql.query<BasketTotalsRow>(`WITH ${CHECKS_AND_LINES} ${TOTALS}`, [
    companyId,
    filter.locations,
    filter.from,
    filter.to,
    filter.zone,
    filter.dayPart,
  ]);
  return numbers(rows[0]!);
}

/**
 * Totals, items (most checks first, at most `itemLimit`), categories and the pairs at or above the minimum
 * support, in one statement over one read of the checks. Pairs: among the `pairItems` items on most checks, or,
 * with a focus item, every pair holding it; most checks first, at most `pairLimit`.
 */
export async function basketFigures(
  sql: Sql,
  companyId: CompanyId,
  filter: BasketFilter,
  options: PairOptions,
): Promise<BasketRows> {
  const { rows } = await sql.query<{
    totals: BasketTotalsRow;
    items: BasketItemRow[];
    categories: BasketCategoryRow[];
    pairs: BasketPairRow[];
  }>(
    `WITH ${CHECKS_AND_LINES},
     items AS MATERIALIZED (
       SELECT menu_item_id, count(*) AS checks, sum(units) AS units, sum(cents) AS cents,
              count(DISTINCT guest_id) AS guests
       FROM lines GROUP BY 1),
     pair_items AS MATERIALIZED (
       SELECT menu_item_id FROM items ORDER BY checks DESC, menu_item_id LIMIT $10),
     focus_checks AS MATERIALIZED (
       SELECT check_id FROM lines WHERE menu_item_id = $9::bigint),
     -- Without a focus item, the lines of the top items; with one, only the lines of checks holding it.
     pair_lines AS MATERIALIZED (
       SELECT check_id, menu_item_id FROM lines
       WHERE CASE WHEN $9::bigint IS NULL THEN menu_item_id IN (SELECT menu_item_id FROM pair_items)
                  ELSE check_id IN (SELECT check_id FROM focus_checks) END),
     pairs AS (
       SELECT a.menu_item_id AS a, b.menu_item_id AS b, count(*) AS checks
       FROM pair_lines a JOIN pair_lines b ON b.check_id = a.check_id AND b.menu_item_id > a.menu_item_id
       WHERE $9::bigint IS NULL OR a.menu_item_id = $9::bigint OR b.menu_item_id = $9::bigint
       GROUP BY 1, 2
       HAVING count(*) * 10000 >= $8::bigint * (SELECT count(*) FROM checks)
       ORDER BY count(*) DESC, 1, 2
       LIMIT $11),
     named_pairs AS (
       SELECT p.a, ma.name AS a_name, ia.checks AS a_checks, p.b, mb.name AS b_name, ib.checks AS b_checks, p.checks
       FROM pairs p JOIN items ia ON ia.menu_item_id = p.a JOIN items ib ON ib.menu_item_id = p.b
       JOIN menu_items ma ON ma.id = p.a JOIN menu_items mb ON mb.id = p.b)
     SELECT (SELECT row_to_json(t) FROM (${TOTALS}) t) AS totals,
            (SELECT coalesce(json_agg(row_to_json(i) ORDER BY i.checks DESC, i.menu_item_id), '[]')
             FROM (SELECT x.menu_item_id, mi.name, mi.category_id, mc.name AS category, x.units,
                          x.cents AS revenue_cents, x.checks, x.guests
                   FROM items x JOIN menu_items mi ON mi.id = x.menu_item_id
                   JOIN menu_categories mc ON mc.id = mi.category_id
                   ORDER BY x.checks DESC, x.menu_item_id LIMIT $7) i) AS items,
            (SELECT coalesce(json_agg(row_to_json(c) ORDER BY c.checks DESC, c.category_id), '[]')
             FROM (SELECT mi.category_id, mc.name AS category, sum(l.units) AS units, sum(l.cents) AS revenue_cents,
                          count(DISTINCT l.check_id) AS checks
                   FROM lines l JOIN menu_items mi ON mi.id = l.menu_item_id
                   JOIN menu_categories mc ON mc.id = mi.category_id
                   GROUP BY 1, 2) c) AS categories,
            (SELECT coalesce(json_agg(row_to_json(p) ORDER BY p.checks DESC, p.a, p.b), '[]') FROM named_pairs p) AS pairs`,
    [
      companyId,
      filter.locations,
      filter.from,
      filter.to,
      filter.zone,
      filter.dayPart,
      options.itemLimit,
      options.minSupportBasisPoints,
      options.focusItem,
      options.pairItems,
      options.pairLimit,
    ],
  );
  const row = rows[0]!;
  return {
    totals: numbers(row.totals),
    items: row.items.map(numbers),
    categories: row.categories.map(numbers),
    pairs: row.pairs.map(numbers),
  };
}

/** Whether the company has the menu item. */
export async function hasMenuItem(sql: Sql, companyId: CompanyId, itemId: number): Promise<boolean> {
  const { rows } = await sql.query('SELECT 1 FROM menu_items WHERE company_id = $1 AND id = $2', [
    companyId,
    itemId,
  ]);
  return rows.length > 0;
}

// bigint columns arrive as text from PostgreSQL and as numbers in JSON; every figure here fits a double.
function numbers<Row extends object>(row: Row): Row {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === 'string' && /^-?\d+$/.test(value) && !key.endsWith('name') && key !== 'category'
        ? Number(value)
        : value,
    ]),
  ) as Row;
}
