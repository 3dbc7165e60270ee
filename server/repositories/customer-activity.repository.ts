import type { CompanyId, Sql } from '../db/database.js';

/** A guest's visit totals from their checks; money in cents. */
export interface ActivityTotalsRow {
  visits: number;
  total_spend_cents: number;
  first_visit_at: Date | null;
  last_visit_at: Date | null;
}

/** One of a guest's most bought menu items. */
export interface FavouriteItemRow {
  menu_item_id: number;
  name: string;
  quantity: number;
  spend_cents: number;
}

/** One location a guest visited, with their visits and spend there. */
export interface LocationVisitedRow {
  location_id: number;
  name: string;
  visits: number;
  spend_cents: number;
  last_visit_at: Date;
}

/** One recent visit (check) of a guest. */
export interface RecentVisitRow {
  check_id: number;
  location_name: string;
  closed_at: Date;
  total_cents: number;
  items: number;
}

/** Everything a profile shows of one guest's visits. */
export interface CustomerActivityRows {
  totals: ActivityTotalsRow;
  favourite_items: FavouriteItemRow[];
  locations_visited: LocationVisitedRow[];
  recent_visits: RecentVisitRow[];
}

/** How many favourite items and recent visits a profile shows. */
export const ACTIVITY_LIMITS = { favouriteItems: 5, recentVisits: 10 } as const;

async function totals(sql: Sql, companyId: CompanyId, guestId: number): Promise<ActivityTotalsRow> {
  const { rows } = await sql.query<ActivityTotalsRow>(
    `SELECT count(*)::int AS visits, coalesce(sum(total_cents), 0)::bigint AS total_spend_cents,
            min(closed_at) AS first_visit_at, max(closed_at) AS last_visit_at
     FROM pos_checks WHERE company_id = $1 AND guest_id = $2`,
    [companyId, guestId],
  );
  return rows[0]!;
}

async function favouriteItems(sql: Sql, companyId: CompanyId, guestId: number): Promise<FavouriteItemRow[]> {
  // Ties in quantity go to the bigger spend, then the lower id, so the top five are stable.
  const { rows } = await sql.query<FavouriteItemRow>(
    `SELECT l.menu_item_id, i.name, sum(l.quantity)::int AS quantity, sum(l.amount_cents)::bigint AS spend_cents
     FROM pos_checks c
     JOIN pos_check_lines l ON l.company_id = $1 AND l.check_id = c.id
     JOIN menu_items i ON i.company_id = $1 AND i.id = l.menu_item_id
     WHERE c.company_id = $1 AND c.guest_id = $2
     GROUP BY l.menu_item_id, i.name
     ORDER BY quantity DESC, spend_cents DESC, l.menu_item_id
     LIMIT $3`,
    [companyId, guestId, ACTIVITY_LIMITS.favouriteItems],
  );
  return rows;
}

async function locationsVisited(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
): Promise<LocationVisitedRow[]> {
  const { rows } = await sql.query<LocationVisitedRow>(
    `SELECT c.location_id, loc.name, count(*)::int AS visits, sum(c.total_cents)::bigint AS spend_cents,
            max(c.closed_at) AS last_visit_at
     FROM pos_checks c
     JOIN locations loc ON loc.company_id = $1 AND loc.id = c.location_id
     WHERE c.company_id = $1 AND c.guest_id = $2
     GROUP BY c.location_id, loc.name
     ORDER BY visits DESC, last_visit_at DESC, c.location_id`,
    [companyId, guestId],
  );
  return rows;
}

async function recentVisits(sql: Sql, companyId: CompanyId, guestId: number): Promise<RecentVisitRow[]> {
  // Item counts are summed for the ten checks only, after the limit.
  const { rows } = await sql.query<RecentVisitRow>(
    `SELECT r.id AS check_id, loc.name AS location_name, r.closed_at, r.total_cents,
            coalesce((SELECT sum(l.quantity) FROM pos_check_lines l
                      WHERE l.company_id = $1 AND l.check_id = r.id), 0)::int AS items
     FROM (SELECT id, location_id, closed_at, total_cents FROM pos_checks
           WHERE company_id = $1 AND guest_id = $2
           ORDER BY closed_at DESC, id DESC LIMIT $3) r
     JOIN locations loc ON loc.company_id = $1 AND loc.id = r.location_id
     ORDER BY r.closed_at DESC, r.id DESC`,
    [companyId, guestId, ACTIVITY_LIMITS.recentVisits],
  );
  return rows;
}

/**
 * One guest's activity from their POS checks: totals, the five items bought most (by quantity), each
 * location visited and the ten latest visits. A guest of another company, or one without checks, has none.
 */
export async function customerActivity(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
): Promise<CustomerActivityRows> {
  return {
    totals: await totals(sql, companyId, guestId),
    favourite_items: await favouriteItems(sql, companyId, guestId),
    locations_visited: await locationsVisited(sql, companyId, guestId),
    recent_visits: await recentVisits(sql, companyId, guestId),
  };
}
