import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import type { CompanyId, Sql } from '../db/database.js';
import { sql as rawSql } from 'kysely';
import { queryBuilder } from '../db/query-builder.js';
import type { RangeInstants } from './company-clock.repository.js';
import { SegmentClock } from './segment-rules/clock.js';

/**
 * The home dashboard's own figures (docs/dashboards.md, "Recommendations"): revenue and checks per day from the
 * daily rollups, emails sent, checks by weekday and day part (the range's last eight weeks at most), the best
 * sellers, whether a birthday flow is live, and the lapsed regulars of each location.
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
 * From the hourly rollup `pos_location_hours` (migration 0037), whose day is that local closing day and whose day
 * part is that `day_part()`: rows per day, location and hour, whatever the number of checks; every location from
 * their sum, `pos_company_hours` (migration 0043), rows per day and hour.
 */
export async function weekdayDayPartChecks(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
): Promise<WeekdayDayPartRow[]> {
  // Every location: the company's own hours (migration 0043), a twentieth of the rows of twenty locations'.
  const { rows } =
    locations === null
      ? await sql.query<WeekdayDayPartRow>(
          `SELECT extract(isodow FROM h.day)::int AS weekday, h.day_part, sum(h.checks)::int AS checks
           FROM pos_company_hours h
           WHERE h.company_id = $1 AND h.day BETWEEN $2::date AND $3::date
           GROUP BY 1, 2 ORDER BY 1, 2`,
          [companyId, range.from, range.to],
        )
      : await sql.query<WeekdayDayPartRow>(
          `SELECT extract(isodow FROM h.day)::int AS weekday, h.day_part, sum(h.checks)::int AS checks
           FROM pos_location_hours h
           WHERE h.company_id = $1 AND h.location_id = ANY($2::bigint[])
             AND h.day BETWEEN $3::date AND $4::date
           GROUP BY 1, 2 ORDER BY 1, 2`,
          [companyId, locations, range.from, range.to],
        );
  return rows;
}

/**
 * Lapsed regulars of each location, in one grouped count: the guests with at least `minVisits` checks at the
 * location and none there since the start of the local day `days − 1` days before `asOf`'s — exactly the guests
 * of the segment rules `location in [L]`, `visit_count ≥ minVisits`, `days_since_last_visit ≥ days` (the segment
 * engine's scoped figures, segment-rules/conditions.ts, read the same `guest_locations` row and the same bound of
 * `SegmentClock`). Locations without one are absent.
 */
export async function lapsedRegularsByLocation(
  sql: Sql,
  companyId: CompanyId,
  locations: readonly number[],
  rule: { minVisits: number; days: number; asOf: Date },
): Promise<Map<number, number>> {
  const zone = await sql.query<{ time_zone: string }>('SELECT time_zone FROM companies WHERE id = $1', [
    companyId,
  ]);
  const clock = new SegmentClock(zone.rows[0]?.time_zone ?? 'UTC', rule.asOf);
  const statement = rawSql<{ location_id: number; guests: number }>`
    SELECT gl.location_id::int AS location_id, count(*)::int AS guests FROM guest_locations gl
    WHERE gl.company_id = ${companyId} AND gl.location_id = ANY(${[...locations]}::bigint[])
      AND gl.visits >= ${rule.minVisits}::int AND gl.last_visit_at < ${clock.dayStart(rule.days - 1)}
    GROUP BY gl.location_id`.compile(queryBuilder);
  const { rows } = await sql.query<{ location_id: number; guests: number }>(
    statement.sql,
    statement.parameters,
  );
  return new Map(rows.map((row) => [row.location_id, row.guests]));
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
