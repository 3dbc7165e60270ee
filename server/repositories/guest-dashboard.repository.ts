import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import type { CompanyId, Sql } from '../db/database.js';

/**
 * The guest analytics dashboard's figures (docs/dashboards.md "Guest analytics"), read from `pos_guest_days`
 * (one row per guest, location and local day, with the guest's first day at the company) — and the same
 * figures from the raw checks, which the bench times beside them. `null` locations mean every location.
 */

/** Distinct guests of a range, those whose first day at the company is in it, and their checks. */
export interface GuestTotalsRow {
  guests: number;
  new_guests: number;
  visits: number;
}

/** One period of the new/returning series: its first day, all its guests, those new to the company in it. */
export interface GuestPeriodCounts {
  period: string;
  guests: number;
  new_guests: number;
}

/** Guests by their number of checks in the range, the top count holding every guest with at least that many. */
export interface VisitCountRow {
  visits: number;
  guests: number;
}

// $2 the locations (null: all), $3 and $4 the range's ends.
const IN_SCOPE = `($2::bigint[] IS NULL OR location_id = ANY($2::bigint[])) AND day BETWEEN $3::date AND $4::date`;

// Each guest of the range once: their checks there and their first day at the company (the same on every row).
const GUESTS_OF_RANGE = `SELECT guest_id, sum(checks) AS visits, min(first_day) AS first_day
  FROM pos_guest_days WHERE company_id = $1 AND ${IN_SCOPE} GROUP BY guest_id`;

// The same guests from the raw checks: a check's day is its closing time's local date in the company's zone;
// the first day is over every location.
const GUESTS_OF_RANGE_RAW = `WITH zone AS (SELECT time_zone FROM companies WHERE id = $1),
  days AS (SELECT c.guest_id, c.location_id, (c.closed_at AT TIME ZONE zone.time_zone)::date AS day
           FROM pos_checks c, zone WHERE c.company_id = $1 AND c.guest_id IS NOT NULL),
  firsts AS (SELECT guest_id, min(day) AS first_day FROM days GROUP BY guest_id)
  SELECT d.guest_id, count(*) AS visits, min(f.first_day) AS first_day
  FROM days d JOIN firsts f USING (guest_id) WHERE ${IN_SCOPE} GROUP BY d.guest_id`;

/** Where the figures are read from: the rollup (the dashboard) or the raw checks (the bench's comparison). */
export type GuestSource = 'rollup' | 'raw';

const guestsOf = (source: GuestSource) => (source === 'rollup' ? GUESTS_OF_RANGE : GUESTS_OF_RANGE_RAW);

/** The range's guests at the locations: distinct, new to the company in the range, and their checks. */
export async function guestTotals(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  source: GuestSource = 'rollup',
): Promise<GuestTotalsRow> {
  const { rows } = await sql.query<GuestTotalsRow>(
    `SELECT count(*)::int AS guests, (count(*) FILTER (WHERE first_day >= $3::date))::int AS new_guests,
            coalesce(sum(visits), 0)::bigint AS visits
     FROM (${guestsOf(source)}) g`,
    [companyId, locations, range.from, range.to],
  );
  const row = rows[0]!;
  return { guests: Number(row.guests), new_guests: Number(row.new_guests), visits: Number(row.visits) };
}

/**
 * Guests per day, week (from Monday) or month of the range, every period listed: a guest counts once in each
 * period they came in, as new when their first day at the company falls in that period's days of the range.
 */
export async function guestsByPeriod(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  period: 'day' | 'week' | 'month',
): Promise<GuestPeriodCounts[]> {
  const { rows } = await sql.query<GuestPeriodCounts>(
    `WITH per_period AS (
       SELECT date_trunc($5, day::timestamp)::date AS period, guest_id, min(first_day) AS first_day
       FROM pos_guest_days WHERE company_id = $1 AND ${IN_SCOPE} GROUP BY 1, 2),
     sums AS (SELECT period, count(*) AS guests,
                     count(*) FILTER (WHERE first_day >= greatest(period, $3::date)) AS new_guests
              FROM per_period GROUP BY period)
     SELECT to_char(p.period, 'YYYY-MM-DD') AS period, coalesce(s.guests, 0)::int AS guests,
            coalesce(s.new_guests, 0)::int AS new_guests
     FROM generate_series(date_trunc($5, $3::timestamp), $4::timestamp, ('1 ' || $5)::interval) AS p(period)
     LEFT JOIN sums s ON s.period = p.period::date
     ORDER BY p.period`,
    [companyId, locations, range.from, range.to, period],
  );
  return rows;
}

/** Guests by number of checks in the range at the locations, counts above `top` folded into `top`. */
export async function visitCounts(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  top: number,
  source: GuestSource = 'rollup',
): Promise<VisitCountRow[]> {
  const { rows } = await sql.query<VisitCountRow>(
    `SELECT least(visits, $5)::int AS visits, count(*)::int AS guests
     FROM (${guestsOf(source)}) g GROUP BY 1 ORDER BY 1`,
    [companyId, locations, range.from, range.to, top],
  );
  return rows;
}
