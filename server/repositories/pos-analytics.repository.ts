import type { CompanyId, Sql } from '../db/database.js';
import {
  presenceByLocation,
  presenceScopeOf,
  presenceTotals,
  type PresenceScope,
} from './guest-presence.repository.js';
import { likePattern } from './like-pattern.js';

/**
 * The menu, revenue and sales figures read from the daily rollups (pos-rollups.repository.ts keeps them). Days
 * are `YYYY-MM-DD` in the company's time zone, both ends inclusive; `null` locations mean every location, and
 * a `null` end leaves the range open on that side.
 */

/** Which locations a call covers: the company's locations named, those of its groups named, or all. */
export type LocationScope = { kind: 'ok'; ids: number[] | null } | { kind: 'unknown'; field: string };

/** An inclusive range of local days; an open end is null. */
export interface DayRange {
  from: string | null;
  to: string | null;
}

/**
 * The locations named by `location_id` and `location_group_id` (both given: the locations in both); an id the
 * company does not have answers `unknown` with the field at fault.
 */
export async function resolveLocationScope(
  sql: Sql,
  companyId: CompanyId,
  locationIds: readonly number[],
  groupIds: readonly number[],
): Promise<LocationScope> {
  const locations = [...new Set(locationIds)];
  const groups = [...new Set(groupIds)];
  if (locations.length === 0 && groups.length === 0) return { kind: 'ok', ids: null };
  const { rows } = await sql.query<{ found_locations: number[]; found_groups: number[]; members: number[] }>(
    `SELECT (SELECT coalesce(array_agg(id), '{}') FROM locations WHERE company_id = $1 AND id = ANY($2::bigint[]))
              AS found_locations,
            (SELECT coalesce(array_agg(id), '{}') FROM location_groups WHERE company_id = $1 AND id = ANY($3::bigint[]))
              AS found_groups,
            (SELECT coalesce(array_agg(DISTINCT location_id), '{}') FROM location_group_members
             WHERE company_id = $1 AND group_id = ANY($3::bigint[])) AS members`,
    [companyId, locations, groups],
  );
  const row = rows[0]!;
  if (row.found_locations.length !== locations.length) return { kind: 'unknown', field: 'location_id' };
  if (row.found_groups.length !== groups.length) return { kind: 'unknown', field: 'location_group_id' };
  const members = row.members.map(Number);
  if (groups.length === 0) return { kind: 'ok', ids: locations };
  if (locations.length === 0) return { kind: 'ok', ids: members };
  return { kind: 'ok', ids: locations.filter((id) => members.includes(id)) };
}

// $2 the locations (null: all), $3 and $4 the range's ends (null: open).
const IN_SCOPE = `($2::bigint[] IS NULL OR location_id = ANY($2::bigint[]))
  AND ($3::date IS NULL OR day >= $3::date) AND ($4::date IS NULL OR day <= $4::date)`;

/**
 * The exact distinct count for several locations hashes their guest-days: a month of a large company is a few
 * hundred thousand, kept in memory for this transaction rather than spilled (the default 4 MB spills at 100,000).
 */
export const DISTINCT_GUESTS_MEMORY = `SET LOCAL work_mem = '64MB'`;

// The guest's first day at the company falls in the range (its last day is above every row of the range).
const NEW_IN_RANGE = `($3::date IS NULL OR first_day >= $3::date)`;

/** A range's sales at some locations; guests counted once each, "new" when their first day is in the range. */
export interface SalesRow {
  revenue_cents: number;
  checks: number;
  guests: number;
  new_guests: number;
}

/**
 * Revenue and checks summed over the days; guests counted once over the range (not per day); new guests are
 * those whose first visit to the company (any location) falls in the range, the rest returning. The whole
 * company, one location and one location group (`presence`, when the locations are exactly that group's) sum
 * their distinct-guest rows (`pos_guest_presence`, guest-presence.repository.ts); another set of locations counts
 * its guests exactly by hashing their guest-day rows.
 */
export async function salesFigures(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayRange,
  presence: PresenceScope | null = presenceScopeOf(locations, { location_id: [], location_group_id: [] }),
): Promise<SalesRow> {
  const { rows } = await sql.query<SalesRow>(
    `SELECT (SELECT coalesce(sum(revenue_cents), 0) FROM pos_location_days WHERE company_id = $1 AND ${IN_SCOPE})::bigint
              AS revenue_cents,
            (SELECT coalesce(sum(checks), 0) FROM pos_location_days WHERE company_id = $1 AND ${IN_SCOPE})::bigint
              AS checks`,
    [companyId, locations, range.from, range.to],
  );
  const sales = rows[0]!;
  if (presence) {
    const { guests, new_guests } = await presenceTotals(sql, companyId, presence, range);
    return { ...sales, guests, new_guests };
  }
  await sql.query(DISTINCT_GUESTS_MEMORY);
  const visitors = await sql.query<{ guests: number; new_guests: number }>(
    `SELECT count(*)::bigint AS guests, count(*) FILTER (WHERE ${NEW_IN_RANGE})::bigint AS new_guests
     FROM (SELECT guest_id, min(first_day) AS first_day FROM pos_guest_days
           WHERE company_id = $1 AND ${IN_SCOPE} GROUP BY guest_id) g`,
    [companyId, locations, range.from, range.to],
  );
  return { ...sales, ...visitors.rows[0]! };
}

/** Revenue of one period: its first day and the revenue of its days inside the range. */
export interface RevenuePeriodRow {
  period: string;
  revenue_cents: number;
}

/** Revenue per day, week (from Monday) or month of the range; every period listed, those without sales 0. */
export async function revenueByPeriod(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: { from: string; to: string },
  interval: 'day' | 'week' | 'month',
): Promise<RevenuePeriodRow[]> {
  const { rows } = await sql.query<RevenuePeriodRow>(
    `WITH sums AS (SELECT date_trunc($5, day::timestamp) AS period, sum(revenue_cents) AS revenue
                   FROM pos_location_days WHERE company_id = $1 AND ${IN_SCOPE} GROUP BY 1)
     SELECT to_char(p.period, 'YYYY-MM-DD') AS period, coalesce(s.revenue, 0)::bigint AS revenue_cents
     FROM generate_series(date_trunc($5, $3::timestamp), $4::timestamp, ('1 ' || $5)::interval) AS p(period)
     LEFT JOIN sums s ON s.period = p.period
     ORDER BY p.period`,
    [companyId, locations, range.from, range.to, interval],
  );
  return rows;
}

/** What each location earned in a range (the ROI call). */
export interface LocationEarningsRow {
  location_id: number;
  name: string;
  revenue_cents: number;
  checks: number;
  guests: number;
  returning_guests: number;
}

/**
 * Revenue, checks and distinct guests per location of the company in a range, with the guests whose first
 * visit to the company came before the range counted as returning. Every location is listed. The guests are
 * summed from each location's distinct-guest rows (`pos_guest_presence`).
 */
export async function locationEarnings(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: { from: string; to: string },
): Promise<LocationEarningsRow[]> {
  const { rows } = await sql.query<LocationEarningsRow>(
    `WITH sums AS (SELECT location_id, sum(revenue_cents) AS revenue, sum(checks) AS checks
                   FROM pos_location_days WHERE company_id = $1 AND ${IN_SCOPE} GROUP BY 1)
     SELECT l.id AS location_id, l.name, coalesce(s.revenue, 0)::bigint AS revenue_cents,
            coalesce(s.checks, 0)::bigint AS checks
     FROM locations l
     LEFT JOIN sums s ON s.location_id = l.id
     WHERE l.company_id = $1 AND ($2::bigint[] IS NULL OR l.id = ANY($2::bigint[]))
     ORDER BY lower(l.name), l.id`,
    [companyId, locations, range.from, range.to],
  );
  const visitors = new Map(
    (await presenceByLocation(sql, companyId, locations, range)).map((row) => [Number(row.location_id), row]),
  );
  return rows.map((row) => {
    const seen = visitors.get(Number(row.location_id));
    return { ...row, guests: seen?.guests ?? 0, returning_guests: seen?.returning_guests ?? 0 };
  });
}

/** A menu item with what it sold in the range at the locations asked. */
export interface MenuItemSalesRow {
  id: number;
  name: string;
  category_id: number;
  category: string;
  location_id: number | null;
  price_cents: number;
  is_active: boolean;
  units: number;
  revenue_cents: number;
  checks: number;
}

/** Filters of the menu item list. */
export interface MenuItemFilter {
  locations: number[] | null;
  range: DayRange;
  categoryIds: number[];
  q?: string | undefined;
}

/**
 * A page of the menu items sold at the locations asked (items of every location, and those of the locations
 * named), by category and name text, in name order, each with its units, revenue and checks in the range.
 */
export async function listMenuItemSales(
  sql: Sql,
  companyId: CompanyId,
  filter: MenuItemFilter,
  window: { limit: number; offset: number },
): Promise<{ count: number; rows: MenuItemSalesRow[] }> {
  // $2 the locations, then the categories and the name pattern at $c and $q.
  const where = (c: number, q: number) =>
    `i.company_id = $1 AND ($2::bigint[] IS NULL OR i.location_id IS NULL OR i.location_id = ANY($2::bigint[]))
     AND (cardinality($${c}::bigint[]) = 0 OR i.category_id = ANY($${c}::bigint[]))
     AND ($${q}::text IS NULL OR i.name ILIKE $${q})`;
  const pattern = filter.q ? likePattern(filter.q) : null;
  const counted = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM menu_items i WHERE ${where(3, 4)}`,
    [companyId, filter.locations, filter.categoryIds, pattern],
  );
  const { rows } = await sql.query<MenuItemSalesRow>(
    `WITH page AS (SELECT i.* FROM menu_items i WHERE ${where(5, 6)} ORDER BY lower(i.name), i.id LIMIT $7 OFFSET $8),
     sums AS (SELECT menu_item_id, sum(units) AS units, sum(revenue_cents) AS revenue, sum(checks) AS checks
              FROM pos_menu_item_days
              WHERE company_id = $1 AND ${IN_SCOPE} AND menu_item_id IN (SELECT id FROM page)
              GROUP BY 1)
     SELECT p.id, p.name, p.category_id, c.name AS category, p.location_id, p.price_cents, p.is_active,
            coalesce(s.units, 0)::bigint AS units, coalesce(s.revenue, 0)::bigint AS revenue_cents,
            coalesce(s.checks, 0)::bigint AS checks
     FROM page p
     JOIN menu_categories c ON c.company_id = $1 AND c.id = p.category_id
     LEFT JOIN sums s ON s.menu_item_id = p.id
     ORDER BY lower(p.name), p.id`,
    [
      companyId,
      filter.locations,
      filter.range.from,
      filter.range.to,
      filter.categoryIds,
      pattern,
      window.limit,
      window.offset,
    ],
  );
  return { count: counted.rows[0]!.count, rows };
}

/** A revenue center with its revenue and checks in the range. */
export interface RevenueCenterSalesRow {
  id: number;
  name: string;
  location_id: number;
  location_name: string;
  revenue_cents: number;
  checks: number;
}

/** Every revenue center of the locations asked, by location and name, with its revenue and checks. */
export async function revenueCenterSales(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayRange,
): Promise<RevenueCenterSalesRow[]> {
  const { rows } = await sql.query<RevenueCenterSalesRow>(
    `WITH sums AS (SELECT revenue_center_id, sum(revenue_cents) AS revenue, sum(checks) AS checks
                   FROM pos_revenue_center_days WHERE company_id = $1 AND ${IN_SCOPE} GROUP BY 1)
     SELECT r.id, r.name, r.location_id, l.name AS location_name, coalesce(s.revenue, 0)::bigint AS revenue_cents,
            coalesce(s.checks, 0)::bigint AS checks
     FROM revenue_centers r
     JOIN locations l ON l.company_id = $1 AND l.id = r.location_id
     LEFT JOIN sums s ON s.revenue_center_id = r.id
     WHERE r.company_id = $1 AND ($2::bigint[] IS NULL OR r.location_id = ANY($2::bigint[]))
     ORDER BY lower(l.name), l.id, lower(r.name), r.id`,
    [companyId, locations, range.from, range.to],
  );
  return rows;
}

/** Units, revenue and checks of one menu item in the range. */
export interface MenuItemFigureRow {
  menu_item_id: number;
  name: string;
  category_id: number;
  category: string;
  units: number;
  revenue_cents: number;
  checks: number;
}

/** The items sold in the range at the locations asked, most revenue first. */
export async function menuItemFigures(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayRange,
): Promise<MenuItemFigureRow[]> {
  const { rows } = await sql.query<MenuItemFigureRow>(
    `WITH sums AS (SELECT menu_item_id, sum(units) AS units, sum(revenue_cents) AS revenue, sum(checks) AS checks
                   FROM pos_menu_item_days WHERE company_id = $1 AND ${IN_SCOPE} GROUP BY 1)
     SELECT s.menu_item_id, i.name, i.category_id, c.name AS category, s.units::bigint AS units,
            s.revenue::bigint AS revenue_cents, s.checks::bigint AS checks
     FROM sums s
     JOIN menu_items i ON i.company_id = $1 AND i.id = s.menu_item_id
     JOIN menu_categories c ON c.company_id = $1 AND c.id = i.category_id
     ORDER BY s.revenue DESC, s.menu_item_id`,
    [companyId, locations, range.from, range.to],
  );
  return rows;
}

/** Units and revenue of one category in the range. */
export interface MenuCategoryFigureRow {
  category_id: number;
  category: string;
  units: number;
  revenue_cents: number;
}

/** The categories whose items sold in the range at the locations asked, most revenue first. */
export async function menuCategoryFigures(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayRange,
): Promise<MenuCategoryFigureRow[]> {
  const { rows } = await sql.query<MenuCategoryFigureRow>(
    `WITH sums AS (SELECT menu_item_id, sum(units) AS units, sum(revenue_cents) AS revenue
                   FROM pos_menu_item_days WHERE company_id = $1 AND ${IN_SCOPE} GROUP BY 1)
     SELECT c.id AS category_id, c.name AS category, sum(s.units)::bigint AS units,
            sum(s.revenue)::bigint AS revenue_cents
     FROM sums s
     JOIN menu_items i ON i.company_id = $1 AND i.id = s.menu_item_id
     JOIN menu_categories c ON c.company_id = $1 AND c.id = i.category_id
     GROUP BY c.id, c.name
     ORDER BY sum(s.revenue) DESC, c.id`,
    [companyId, locations, range.from, range.to],
  );
  return rows;
}
