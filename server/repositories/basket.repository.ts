import type { CompanyId, Sql } from '../db/database.js';

/**
 * Basket figures (docs/dashboards.md, "Basket"): checks, units, revenue, items, categories and pairs from the basket
 * rollups (migration 0041, basket-rollups.repository.ts) — the range's whole months and the days of its partial
 * months, at the picked locations (or every location's rows) and day part (or every day part's rows) — so the rows
 * read grow with the range's months, days and locations, not with its checks. Distinct guests cannot be added up
 * from these rollups: the service takes the range's from the presence rollup where it can, else they are counted
 * from the range's checks here, and one item's (the "guests who ordered X" card) from the item presence rollup
 * where it can (guest-presence.repository.ts), else from its checks and lines here. Days
 * are local dates of the closing time in the company's zone; day parts use the location's zone (`day_part()`,
 * migration 0016), as the segment rules do.
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

/** The range's totals as summed from the rollups (its distinct guests are counted apart). */
export interface BasketTotalsRow {
  checks: number;
  units: number;
  revenue_cents: number;
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

/** The spans a range reads: its whole months [monthFrom, monthTo) and its other days (both ISO dates). */
export interface RangeSpans {
  monthFrom: string;
  monthTo: string;
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The whole months within `from` … `to` (both inclusive) as [monthFrom, monthTo); without one, both are the day
 * after `to`, so every day of the range is read from the day rows.
 */
export function rangeSpans(from: string, to: string): RangeSpans {
  const first = new Date(`${from}T00:00:00Z`);
  const last = new Date(`${to}T00:00:00Z`);
  const dayAfter = new Date(last);
  dayAfter.setUTCDate(dayAfter.getUTCDate() + 1);
  const monthFrom =
    first.getUTCDate() === 1 ? first : new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 1));
  const monthTo =
    dayAfter.getUTCDate() === 1 ? dayAfter : new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), 1));
  if (monthFrom >= monthTo) return { monthFrom: iso(dayAfter), monthTo: iso(dayAfter) };
  return { monthFrom: iso(monthFrom), monthTo: iso(monthTo) };
}

// One rollup table's rows of the range ($1 company, $2 locations, 0 for every location, $3 day part, '' for every
// day part, $4 first day, $5 last day, $6 first whole month, $7 end of the whole months): three index ranges.
const rangeRows = (table: string) => `(
  SELECT * FROM ${table} WHERE company_id = $1 AND span = 'm' AND location_id = ANY($2::bigint[])
    AND day_part = $3::text AND start >= $6::date AND start < $7::date
  UNION ALL
  SELECT * FROM ${table} WHERE company_id = $1 AND span = 'd' AND location_id = ANY($2::bigint[])
    AND day_part = $3::text AND start >= $4::date AND start < $6::date
  UNION ALL
  SELECT * FROM ${table} WHERE company_id = $1 AND span = 'd' AND location_id = ANY($2::bigint[])
    AND day_part = $3::text AND start >= $7::date AND start <= $5::date)`;

/** The first seven parameters of a rollup read. */
function rangeParameters(
  companyId: CompanyId,
  filter: Pick<BasketFilter, 'locations' | 'from' | 'to' | 'dayPart'>,
): unknown[] {
  const spans = rangeSpans(filter.from, filter.to);
  return [
    companyId,
    filter.locations ?? [0],
    filter.dayPart ?? '',
    filter.from,
    filter.to,
    spans.monthFrom,
    spans.monthTo,
  ];
}

const TOTALS = `
  SELECT coalesce(sum(checks), 0)::bigint AS checks, coalesce(sum(units), 0)::bigint AS units,
         coalesce(sum(revenue_cents), 0)::bigint AS revenue_cents,
         coalesce(sum(multi_item_checks), 0)::bigint AS multi_item_checks
  FROM ${rangeRows('pos_basket_checks')} t`;

// The range's checks with a guest at the locations and day part ($1 company, $2 locations or null, $3 first day,
// $4 last day, $5 zone, $6 day part or null).
const GUEST_CHECKS = `
  SELECT c.id, c.guest_id FROM pos_checks c JOIN locations loc ON loc.id = c.location_id
  WHERE c.company_id = $1 AND ($2::bigint[] IS NULL OR c.location_id = ANY($2::bigint[]))
    AND c.closed_at >= ($3::date::timestamp AT TIME ZONE $5::text)
    AND c.closed_at < (($4::date + 1)::timestamp AT TIME ZONE $5::text)
    AND c.guest_id IS NOT NULL
    AND ($6::text IS NULL OR day_part(c.opened_at, loc.time_zone) = $6::text)`;

const guestParameters = (companyId: CompanyId, filter: BasketFilter) => [
  companyId,
  filter.locations,
  filter.from,
  filter.to,
  filter.zone,
  filter.dayPart,
];

/**
 * The range's distinct guests counted from its checks: for locations no presence scope covers (the service reads
 * the presence rollup otherwise, or at a day part the item presence rows of any check). It grows with the range's
 * checks.
 */
export async function basketCheckGuests(
  sql: Sql,
  companyId: CompanyId,
  filter: BasketFilter,
): Promise<number> {
  const { rows } = await sql.query<{ guests: string }>(
    `SELECT count(DISTINCT k.guest_id)::bigint AS guests FROM (${GUEST_CHECKS}) k`,
    guestParameters(companyId, filter),
  );
  return Number(rows[0]!.guests);
}

/**
 * "Guests who ordered X": the distinct guests with a check in the range (locations, day part) holding a line of
 * the item, counted from the checks and their lines: for a set of locations the item presence rollup does not cover
 * (docs/dashboards.md "Basket analytics").
 */
export async function basketItemGuests(
  sql: Sql,
  companyId: CompanyId,
  filter: BasketFilter,
  itemId: number,
): Promise<number> {
  const { rows } = await sql.query<{ guests: string }>(
    `SELECT count(DISTINCT k.guest_id)::bigint AS guests FROM (${GUEST_CHECKS}) k
     WHERE EXISTS (SELECT 1 FROM pos_check_lines l
                   WHERE l.company_id = $1 AND l.check_id = k.id AND l.menu_item_id = $7::bigint)`,
    [...guestParameters(companyId, filter), itemId],
  );
  return Number(rows[0]!.guests);
}

/** The totals alone (the previous period's KPI cards). */
export async function basketTotals(
  sql: Sql,
  companyId: CompanyId,
  filter: BasketFilter,
): Promise<BasketTotalsRow> {
  const { rows } = await sql.query<BasketTotalsRow>(TOTALS, rangeParameters(companyId, filter));
  return numbers(rows[0]!);
}

/**
 * Totals, items (most checks first, at most `itemLimit`), categories and the pairs at or above the minimum
 * support, from the rollups in one statement. Pairs: among the `pairItems` items on most checks,
 * or, with a focus item, every pair holding it; most checks first, at most `pairLimit`.
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
    `WITH totals AS MATERIALIZED (${TOTALS}),
     items AS MATERIALIZED (
       SELECT menu_item_id, sum(checks) AS checks, sum(units) AS units, sum(revenue_cents) AS cents
       FROM ${rangeRows('pos_basket_items')} t GROUP BY 1),
     pair_items AS MATERIALIZED (
       SELECT menu_item_id FROM items ORDER BY checks DESC, menu_item_id LIMIT $11),
     -- Without a focus item, the pairs of the top items; with one, every pair holding it.
     pairs AS (
       SELECT item_a AS a, item_b AS b, sum(checks) AS checks
       FROM ${rangeRows('pos_basket_pairs')} t
       WHERE CASE WHEN $10::bigint IS NULL
                  THEN item_a IN (SELECT menu_item_id FROM pair_items) AND item_b IN (SELECT menu_item_id FROM pair_items)
                  ELSE item_a = $10::bigint OR item_b = $10::bigint END
       GROUP BY 1, 2
       HAVING sum(checks) * 10000 >= $9::bigint * (SELECT checks FROM totals)
       ORDER BY sum(checks) DESC, 1, 2
       LIMIT $12),
     named_pairs AS (
       SELECT p.a, ma.name AS a_name, ia.checks AS a_checks, p.b, mb.name AS b_name, ib.checks AS b_checks, p.checks
       FROM pairs p JOIN items ia ON ia.menu_item_id = p.a JOIN items ib ON ib.menu_item_id = p.b
       JOIN menu_items ma ON ma.id = p.a JOIN menu_items mb ON mb.id = p.b)
     SELECT (SELECT row_to_json(t) FROM totals t) AS totals,
            (SELECT coalesce(json_agg(row_to_json(i) ORDER BY i.checks DESC, i.menu_item_id), '[]')
             FROM (SELECT x.menu_item_id, mi.name, mi.category_id, mc.name AS category, x.units,
                          x.cents AS revenue_cents, x.checks
                   FROM items x JOIN menu_items mi ON mi.id = x.menu_item_id
                   JOIN menu_categories mc ON mc.id = mi.category_id
                   ORDER BY x.checks DESC, x.menu_item_id LIMIT $8) i) AS items,
            (SELECT coalesce(json_agg(row_to_json(c) ORDER BY c.checks DESC, c.category_id), '[]')
             FROM (SELECT t.category_id, mc.name AS category, sum(t.units) AS units,
                          sum(t.revenue_cents) AS revenue_cents, sum(t.checks) AS checks
                   FROM ${rangeRows('pos_basket_categories')} t JOIN menu_categories mc ON mc.id = t.category_id
                   GROUP BY 1, 2) c) AS categories,
            (SELECT coalesce(json_agg(row_to_json(p) ORDER BY p.checks DESC, p.a, p.b), '[]') FROM named_pairs p) AS pairs`,
    [
      ...rangeParameters(companyId, filter),
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

/** A menu item's sales in a range. */
export interface BestSellerRow {
  menu_item_id: number;
  name: string;
  units: number;
}

/**
 * The range's best-selling menu items by units (then revenue, then id) at the locations (null: every location),
 * summed from the basket item rollups (the same units and line revenue as the item days, but a row per month
 * for the range's whole months and every location's rows already summed), then the few items named.
 */
export async function bestSellers(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: { from: string; to: string },
  limit: number,
): Promise<BestSellerRow[]> {
  const { rows } = await sql.query<BestSellerRow>(
    `WITH sold AS (
       SELECT menu_item_id, sum(units) AS units, sum(revenue_cents) AS revenue_cents
       FROM ${rangeRows('pos_basket_items')} t GROUP BY 1)
     SELECT s.menu_item_id::int AS menu_item_id, i.name, s.units::int AS units
     FROM sold s JOIN menu_items i ON i.company_id = $1 AND i.id = s.menu_item_id
     ORDER BY s.units DESC, s.revenue_cents DESC, s.menu_item_id
     LIMIT $8`,
    [...rangeParameters(companyId, { locations, from: range.from, to: range.to, dayPart: null }), limit],
  );
  return rows;
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
