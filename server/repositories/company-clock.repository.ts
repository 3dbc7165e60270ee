import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import type { CompanyId, Sql } from '../db/database.js';

/**
 * The company's calendar as the dashboards read it: its time zone, its local date now, and a range of its local
 * days as instants, so a query compares a timestamp column with two bounds an index can serve instead of
 * converting every row's timestamp to a local day.
 */

/** The first instant of a range's first local day and the first instant after its last. */
export interface RangeInstants {
  start: Date;
  end: Date;
}

/** The company's time zone and its local date (`YYYY-MM-DD`) at `now`. */
export async function companyToday(
  sql: Sql,
  companyId: CompanyId,
  now: Date,
): Promise<{ zone: string; today: string }> {
  const { rows } = await sql.query<{ zone: string; today: string }>(
    `SELECT time_zone AS zone, to_char(($2::timestamptz AT TIME ZONE time_zone)::date, 'YYYY-MM-DD') AS today
     FROM companies WHERE id = $1`,
    [companyId, now.toISOString()],
  );
  return rows[0]!;
}

/** A range of the company's local days as instants: `[start, end)`, daylight-saving days included. */
export async function rangeInstants(
  sql: Sql,
  companyId: CompanyId,
  range: DayBounds,
): Promise<RangeInstants> {
  const { rows } = await sql.query<{ start_at: Date | string; end_at: Date | string }>(
    `SELECT $2::date::timestamp AT TIME ZONE time_zone AS start_at,
            ($3::date + 1)::timestamp AT TIME ZONE time_zone AS end_at
     FROM companies WHERE id = $1`,
    [companyId, range.from, range.to],
  );
  const row = rows[0]!;
  return { start: new Date(row.start_at), end: new Date(row.end_at) };
}
