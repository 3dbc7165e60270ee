import type { CompanyId, Sql } from '../db/database.js';

/** A guest's visits by day part (breakfast 05–11, lunch 11–16, dinner 16–22, late 22–05, location time). */
export interface DayPartVisits {
  breakfast: number;
  lunch: number;
  dinner: number;
  late: number;
}

/** An item a guest buys, with how many units and on how many checks. */
export interface GuestItemRow {
  menu_item_id: number;
  name: string;
  quantity: number;
  checks: number;
}

/** What the POS data says about one guest (docs/guest-data.md). */
export interface GuestMetricsRow {
  guest_id: number;
  visits: number;
  spend_cents: number;
  /** Spend per visit; 0 before the first. */
  average_check_cents: number;
  first_visit_at: Date | null;
  last_visit_at: Date | null;
  /** Whole days from the last visit to today, both in the company's time zone; null before the first visit. */
  days_since_last_visit: number | null;
  /** Visits per month since the first (at least one month counted, so a first-week guest is not "30 a month"). */
  visits_per_month: number;
  /** Where they have been most (by visits, then spend); null before the first visit. */
  favourite_location_id: number | null;
  day_parts: DayPartVisits;
  /** Known by POS id or by card, with a check: their visits can be followed. */
  trackable: boolean;
  /** Linked to a subscribed email address: they can be sent a campaign. */
  marketable: boolean;
}

/** How many favourite items a guest's metrics list. */
export const FAVOURITE_ITEMS = 5;

// A month as the average Gregorian month, in days.
const DAYS_PER_MONTH = 30.436875;

/** The guest's metrics; null when the company has no such guest. */
export async function findGuestMetrics(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
): Promise<GuestMetricsRow | null> {
  const { rows } = await sql.query<GuestMetricsRow>(
    `SELECT g.id AS guest_id, g.visit_count AS visits, g.total_spend_cents AS spend_cents,
            CASE WHEN g.visit_count > 0 THEN round(g.total_spend_cents::numeric / g.visit_count)::bigint ELSE 0 END
              AS average_check_cents,
            g.first_visit_at, g.last_visit_at,
            ((now() AT TIME ZONE co.time_zone)::date - (g.last_visit_at AT TIME ZONE co.time_zone)::date)
              AS days_since_last_visit,
            CASE WHEN g.first_visit_at IS NULL THEN 0
                 ELSE g.visit_count / greatest(1, extract(epoch FROM now() - g.first_visit_at) / 86400 / $3)
            END::float8 AS visits_per_month,
            (SELECT gl.location_id FROM guest_locations gl
             WHERE gl.company_id = $1 AND gl.guest_id = g.id AND gl.visits > 0
             ORDER BY gl.visits DESC, gl.spend_cents DESC, gl.location_id LIMIT 1) AS favourite_location_id,
            json_build_object('breakfast', g.breakfast_visits, 'lunch', g.lunch_visits, 'dinner', g.dinner_visits,
                              'late', g.late_visits) AS day_parts,
            (g.visit_count > 0 AND (g.pos_id <> g.hashid OR (g.customer_name <> '' AND g.last_four_digits <> '')))
              AS trackable,
            EXISTS (SELECT 1 FROM subscribers s WHERE s.company_id = $1 AND s.guest_id = g.id AND s.subscribed)
              AS marketable
     FROM guests g JOIN companies co ON co.id = g.company_id
     WHERE g.company_id = $1 AND g.id = $2`,
    [companyId, guestId, DAYS_PER_MONTH],
  );
  return rows[0] ?? null;
}

/** The items the guest buys most (by units, then checks), up to `limit`. */
export async function findFavouriteItems(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
  limit = FAVOURITE_ITEMS,
): Promise<GuestItemRow[]> {
  const { rows } = await sql.query<GuestItemRow>(
    `SELECT gi.menu_item_id, i.name, gi.quantity, gi.checks
     FROM guest_menu_items gi JOIN menu_items i ON i.company_id = $1 AND i.id = gi.menu_item_id
     WHERE gi.company_id = $1 AND gi.guest_id = $2
     ORDER BY gi.quantity DESC, gi.checks DESC, i.name LIMIT $3`,
    [companyId, guestId, limit],
  );
  return rows;
}
