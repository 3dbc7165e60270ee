import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import { sql as rawSql, type RawBuilder } from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import type { RangeInstants } from './company-clock.repository.js';
import type { MenuCategoryFigureRow } from './pos-analytics.repository.js';
import { runWithSegmentPlanner } from './segment-rules/planner.js';

/**
 * The consumer insights dashboard's figures (docs/dashboards.md "Consumer insights"): the weekday × hour, party
 * size and day-part figures from the hourly rollup `pos_location_hours` (migration 0037), or the same from the
 * raw checks for the bench's comparison; the days between visits from the return-gap rollups (migration 0043);
 * a segment's categories from its members' checks of the range. Days are local
 * dates of the closing time in the company's zone; `null` locations mean every location.
 */

/** One weekday, hour and day part of the range: its checks, revenue, covers and checks by party size. */
export interface HourRow {
  weekday: number;
  hour: number;
  day_part: string;
  checks: number;
  revenue_cents: number;
  covers: number;
  party_1: number;
  party_2: number;
  party_3: number;
  party_4: number;
  party_5: number;
  party_6_plus: number;
}

/** Where the hour figures are read from: the rollup (the dashboard) or the raw checks (the bench). */
export type HourSource = 'rollup' | 'raw';

const HOUR_SUMS = `sum(checks) AS checks, sum(revenue_cents) AS revenue_cents, sum(covers) AS covers,
  sum(party_1) AS party_1, sum(party_2) AS party_2, sum(party_3) AS party_3, sum(party_4) AS party_4,
  sum(party_5) AS party_5, sum(party_6_plus) AS party_6_plus`;

// $2 the locations (null: all), $3 and $4 the range's ends.
const HOURS_ROLLUP = `SELECT weekday::int AS weekday, hour::int AS hour, day_part, ${HOUR_SUMS}
  FROM pos_location_hours
  WHERE company_id = $1 AND ($2::bigint[] IS NULL OR location_id = ANY($2::bigint[]))
    AND day BETWEEN $3::date AND $4::date
  GROUP BY 1, 2, 3`;

// Every location: the company's own hourly rows (migration 0043), one per day, weekday, hour and day part.
const HOURS_COMPANY = `SELECT weekday::int AS weekday, hour::int AS hour, day_part, ${HOUR_SUMS}
  FROM pos_company_hours WHERE company_id = $1 AND $2::bigint[] IS NULL AND day BETWEEN $3::date AND $4::date
  GROUP BY 1, 2, 3`;

// The same figures from the range's checks (the closing-time index), as the rollup keeps them.
const HOURS_RAW = `WITH zone AS (SELECT time_zone FROM companies WHERE id = $1),
  checks AS (
    SELECT extract(isodow FROM c.opened_at AT TIME ZONE zone.time_zone)::int AS weekday,
           extract(hour FROM c.opened_at AT TIME ZONE zone.time_zone)::int AS hour,
           day_part(c.opened_at, loc.time_zone) AS day_part, 1 AS checks, c.total_cents AS revenue_cents,
           c.guest_count AS covers, (c.guest_count = 1)::int AS party_1, (c.guest_count = 2)::int AS party_2,
           (c.guest_count = 3)::int AS party_3, (c.guest_count = 4)::int AS party_4,
           (c.guest_count = 5)::int AS party_5, (c.guest_count >= 6)::int AS party_6_plus
    FROM pos_checks c CROSS JOIN zone JOIN locations loc ON loc.id = c.location_id
    WHERE c.company_id = $1 AND ($2::bigint[] IS NULL OR c.location_id = ANY($2::bigint[]))
      AND c.closed_at >= ($3::date::timestamp AT TIME ZONE zone.time_zone)
      AND c.closed_at < (($4::date + 1)::timestamp AT TIME ZONE zone.time_zone))
  SELECT weekday, hour, day_part, ${HOUR_SUMS} FROM checks GROUP BY 1, 2, 3`;

/**
 * The range's checks at the locations by opening weekday and hour (company's zone) and day part: every location
 * from `pos_company_hours`, picked ones from `pos_location_hours`.
 */
export async function hourFigures(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  source: HourSource = 'rollup',
): Promise<HourRow[]> {
  const statement = source === 'raw' ? HOURS_RAW : locations === null ? HOURS_COMPANY : HOURS_ROLLUP;
  const { rows } = await sql.query<HourRow>(statement, [companyId, locations, range.from, range.to]);
  return rows;
}

/** Return visits of a range with a number of days since the previous visit, or in a bin of such numbers. */
export interface ReturnGapCount {
  /** The bin: its lowest number of days (`return_gap_bin`, migration 0043). */
  bin: number;
  /** The exact number of days; null when counted by bin only. */
  gap: number | null;
  visits: number;
}

// $2 the locations (null: all), $3 and $4 the range's ends.
const RETURN_SCOPE = `company_id = $1 AND ($2::bigint[] IS NULL OR location_id = ANY($2::bigint[]))
  AND day BETWEEN $3::date AND $4::date`;

/**
 * The range's return visits at the locations by bin of days since the guest's previous visit to the company,
 * from `pos_return_gap_bins`: a visit counts at its day's first location (see `laterRowReturnGaps`).
 */
export async function returnGapBins(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
): Promise<ReturnGapCount[]> {
  const { rows } = await sql.query<ReturnGapCount>(
    `SELECT bin, NULL::int AS gap, sum(visits)::bigint AS visits FROM pos_return_gap_bins
     WHERE ${RETURN_SCOPE} GROUP BY bin`,
    [companyId, locations, range.from, range.to],
  );
  return rows;
}

/** The same return visits by exact number of days, for the gaps of `bins` only (`pos_return_gaps`, gap first). */
export async function returnGapsInBins(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  bins: readonly number[],
): Promise<ReturnGapCount[]> {
  if (bins.length === 0) return [];
  const { rows } = await sql.query<ReturnGapCount>(
    `SELECT return_gap_bin(gap) AS bin, gap, sum(visits)::bigint AS visits FROM pos_return_gaps
     WHERE gap = ANY(ARRAY(SELECT g FROM unnest($5::int[]) b, generate_series(b, b + 90) g
                           WHERE return_gap_bin(g) = b))
       AND ${RETURN_SCOPE}
     GROUP BY gap`,
    [companyId, locations, range.from, range.to, bins],
  );
  return rows;
}

/**
 * With locations picked, the return visits the rollups leave out: days whose first location is not picked but a
 * later location of the same day is (the guest-day rows chained to their own day, a small partial index), by
 * exact days since the guest's previous visit. None for every location.
 */
export async function laterRowReturnGaps(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
): Promise<ReturnGapCount[]> {
  if (locations === null) return [];
  const { rows } = await sql.query<ReturnGapCount>(
    `WITH later AS (
       SELECT DISTINCT guest_id, day FROM pos_guest_days
       WHERE company_id = $1 AND prev_day = day AND location_id = ANY($2::bigint[])
         AND day BETWEEN $3::date AND $4::date),
     gaps AS (
       SELECT l.day - (SELECT max(p.day) FROM pos_guest_visits p
                       WHERE p.company_id = $1 AND p.guest_id = l.guest_id AND p.day < l.day) AS gap
       FROM later l
       JOIN pos_guest_visits v ON v.company_id = $1 AND v.day = l.day AND v.guest_id = l.guest_id
       WHERE NOT (v.location_id = ANY($2::bigint[])))
     SELECT return_gap_bin(gap) AS bin, gap, count(*)::bigint AS visits FROM gaps WHERE gap IS NOT NULL GROUP BY gap`,
    [companyId, locations, range.from, range.to],
  );
  return rows;
}

/** A segment's categories in the range and how many of its members bought an item. */
export interface SegmentCategoryRows {
  guests: number;
  categories: MenuCategoryFigureRow[];
}

/**
 * A segment's members' categories at the locations in the range (`rangeInstants` of its days): `members` (the
 * segment machinery's `SELECT g.id …` fragment; null: nobody) read once, their checks of the range by the guest
 * index, their lines. Bounded by the members' checks of the range, never by the whole history.
 */
export async function segmentCategoryFigures(
  sql: Sql,
  companyId: CompanyId,
  members: RawBuilder<{ id: number }> | null,
  locations: number[] | null,
  range: RangeInstants,
): Promise<SegmentCategoryRows> {
  if (members === null) return { guests: 0, categories: [] };
  const [row] = await runWithSegmentPlanner(
    sql,
    rawSql<{ guests: number; categories: MenuCategoryFigureRow[] | null }>`
      WITH members AS MATERIALIZED (SELECT DISTINCT x.id FROM (${members}) x),
      checks AS MATERIALIZED (
        SELECT c.id, c.guest_id FROM members m
        JOIN pos_checks c ON c.company_id = ${companyId} AND c.guest_id = m.id
          AND c.closed_at >= ${range.start}::timestamptz AND c.closed_at < ${range.end}::timestamptz
        WHERE (${locations}::bigint[] IS NULL OR c.location_id = ANY(${locations}::bigint[]))),
      lines AS MATERIALIZED (
        SELECT k.guest_id, mi.category_id, l.quantity, l.amount_cents
        FROM checks k JOIN pos_check_lines l ON l.company_id = ${companyId} AND l.check_id = k.id
        JOIN menu_items mi ON mi.company_id = ${companyId} AND mi.id = l.menu_item_id)
      SELECT (SELECT count(DISTINCT guest_id) FROM lines)::int AS guests,
             (SELECT json_agg(json_build_object('category_id', s.category_id, 'category', mc.name,
                                                'units', s.units, 'revenue_cents', s.revenue_cents))
              FROM (SELECT category_id, sum(quantity) AS units, sum(amount_cents) AS revenue_cents
                    FROM lines GROUP BY 1) s
              JOIN menu_categories mc ON mc.company_id = ${companyId} AND mc.id = s.category_id) AS categories`,
  );
  return {
    guests: row?.guests ?? 0,
    categories: (row?.categories ?? []).map((category) => ({
      category_id: Number(category.category_id),
      category: category.category,
      units: Number(category.units),
      revenue_cents: Number(category.revenue_cents),
    })),
  };
}
