import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import type { CompanyId, Sql } from '../db/database.js';
import type { RangeInstants } from './company-clock.repository.js';

/**
 * The home dashboard's own figures (docs/dashboards.md, "Recommendations"): revenue and checks per day from the
 * daily rollups, emails sent, checks by weekday and day part (the range's last eight weeks at most), the best sellers, whether a birthday flow is live.
 * Days are `YYYY-MM-DD` in the company's time zone, both ends inclusive; `null` locations mean every location.
 */

/** One day's revenue and checks. */
export interface DailySalesRow {
  day: string;
  revenue_cents: number;
  checks: number;
}

/** Revenue and checks of each day of the range from `pos_location_days`; every day listed, those without 0. */
export async function dailySales(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
): Promise<DailySalesRow[]> {
  const { rows } = await sql.query<DailySalesRow>(
    `WITH sums AS (SELECT day, sum(revenue_cents) AS revenue, sum(checks) AS checks FROM pos_location_days
                   WHERE company_id = $1 AND ($2::bigint[] IS NULL OR location_id = ANY($2::bigint[]))
                     AND day BETWEEN $3::date AND $4::date GROUP BY day)
     SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(s.revenue, 0)::float8 AS revenue_cents,
            coalesce(s.checks, 0)::int AS checks
     FROM generate_series($3::date, $4::date, interval '1 day') AS d(day)
     LEFT JOIN sums s ON s.day = d.day::date
     ORDER BY d.day`,
    [companyId, locations, range.from, range.to],
  );
  return rows;
}

/** Emails the company's runs sent (campaigns and flows) from `start` to before `end` (a range's instants). */
export async function emailsSent(sql: Sql, companyId: CompanyId, instants: RangeInstants): Promise<number> {
  const { rows } = await sql.query<{ emails: number }>(
    `SELECT count(*)::int AS emails FROM mail_outbox
     WHERE company_id = $1 AND status = 'sent' AND sent_at >= $2::timestamptz AND sent_at < $3::timestamptz`,
    [companyId, instants.start, instants.end],
  );
  return rows[0]?.emails ?? 0;
}

/** Checks of one weekday (1 Monday … 7 Sunday) and day part in a range. */
export interface WeekdayDayPartRow {
  weekday: number;
  day_part: string;
  checks: number;
}

/**
 * The range's checks by weekday and day part, as the segment rules read them: the weekday of the check's local
 * day (closing time, company's zone), the day part of its opening hour in the location's zone (`day_part()`).
 * Day parts are not in the rollups, so this reads the range's checks (index on location and closing time).
 */
export async function weekdayDayPartChecks(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
): Promise<WeekdayDayPartRow[]> {
  const { rows } = await sql.query<WeekdayDayPartRow>(
    `WITH zone AS (SELECT time_zone FROM companies WHERE id = $1)
     SELECT extract(isodow FROM c.closed_at AT TIME ZONE zone.time_zone)::int AS weekday,
            day_part(c.opened_at, loc.time_zone) AS day_part, count(*)::int AS checks
     FROM zone, pos_checks c JOIN locations loc ON loc.id = c.location_id
     WHERE c.company_id = $1 AND ($2::bigint[] IS NULL OR c.location_id = ANY($2::bigint[]))
       AND c.closed_at >= ($3::date::timestamp AT TIME ZONE zone.time_zone)
       AND c.closed_at < (($4::date + 1)::timestamp AT TIME ZONE zone.time_zone)
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [companyId, locations, range.from, range.to],
  );
  return rows;
}

/** A menu item's sales in a range. */
export interface BestSellerRow {
  menu_item_id: number;
  name: string;
  units: number;
}

/** The range's best-selling menu items by units (then revenue, then id), from `pos_menu_item_days`. */
export async function bestSellers(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  limit: number,
): Promise<BestSellerRow[]> {
  const { rows } = await sql.query<BestSellerRow>(
    `SELECT d.menu_item_id::int AS menu_item_id, i.name, sum(d.units)::int AS units
     FROM pos_menu_item_days d JOIN menu_items i ON i.company_id = $1 AND i.id = d.menu_item_id
     WHERE d.company_id = $1 AND ($2::bigint[] IS NULL OR d.location_id = ANY($2::bigint[]))
       AND d.day BETWEEN $3::date AND $4::date
     GROUP BY d.menu_item_id, i.name
     ORDER BY sum(d.units) DESC, sum(d.revenue_cents) DESC, d.menu_item_id
     LIMIT $5`,
    [companyId, locations, range.from, range.to, limit],
  );
  return rows;
}

/** Whether a live flow's published version starts with the birthday trigger. */
export async function hasLiveBirthdayFlow(sql: Sql, companyId: CompanyId): Promise<boolean> {
  const { rows } = await sql.query<{ live: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM flows f JOIN flow_versions v
         ON v.company_id = $1 AND v.flow_id = f.id AND v.version = f.published_version
       WHERE f.company_id = $1 AND f.status = 'live'
         AND v.graph @> '[{"kind": "trigger", "settings": {"type": "birthday"}}]'::jsonb) AS live`,
    [companyId],
  );
  return rows[0]?.live ?? false;
}

/** A location's id and name. */
export interface LocationNameRow {
  id: number;
  name: string;
}

/** The company's locations among `ids` (null: all of them), by id. */
export async function locationNames(
  sql: Sql,
  companyId: CompanyId,
  ids: number[] | null,
): Promise<LocationNameRow[]> {
  const { rows } = await sql.query<LocationNameRow>(
    `SELECT id::int AS id, name FROM locations
     WHERE company_id = $1 AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[])) ORDER BY id`,
    [companyId, ids],
  );
  return rows;
}
