import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import { sql as rawSql, type RawBuilder } from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import { runWithSegmentPlanner } from './segment-rules/planner.js';

/**
 * The consumer insights dashboard's figures (docs/dashboards.md "Consumer insights"): the weekday × hour, party
 * size and day-part figures from the hourly rollup `pos_location_hours` (migration 0037), or the same from the
 * raw checks for the bench's comparison; the days between visits from the `pos_guest_days` chain; every guest's
 * categories from `pos_menu_item_days` and a segment's from its members' checks of the range. Days are local
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

/** The range's checks at the locations by opening weekday and hour (company's zone) and day part. */
export async function hourFigures(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  source: HourSource = 'rollup',
): Promise<HourRow[]> {
  const { rows } = await sql.query<HourRow>(source === 'rollup' ? HOURS_ROLLUP : HOURS_RAW, [
    companyId,
    locations,
    range.from,
    range.to,
  ]);
  return rows;
}

/** The return visits of a range by days since the previous one (1–7, 8–14, 15–30, 31–60, 61–90, 91+). */
export interface VisitGapRow {
  visits: number;
  median_days: number | null;
  gap_1_7: number;
  gap_8_14: number;
  gap_15_30: number;
  gap_31_60: number;
  gap_61_90: number;
  gap_91_plus: number;
}

/**
 * Each day a guest came to one of the locations in the range, with the guest's previous day at the company (any
 * location), read from the chain of `pos_guest_days`: the first row of a guest's day (lowest location) carries
 * the previous day; a day whose picked rows are all later rows of that day looks it up.
 */
const VISIT_GAPS = `
  WITH visits AS MATERIALIZED (
    SELECT guest_id, day, max(prev_day) FILTER (WHERE prev_day < day) AS prev,
           bool_and(prev_day IS NOT DISTINCT FROM day) AS later_rows_only
    FROM pos_guest_days
    WHERE company_id = $1 AND ($2::bigint[] IS NULL OR location_id = ANY($2::bigint[]))
      AND day BETWEEN $3::date AND $4::date
    GROUP BY 1, 2),
  gaps AS (
    SELECT v.day - CASE WHEN v.later_rows_only
                        THEN (SELECT max(d.prev_day) FROM pos_guest_days d
                              WHERE d.company_id = $1 AND d.guest_id = v.guest_id AND d.day = v.day
                                AND d.prev_day < d.day)
                        ELSE v.prev END AS gap
    FROM visits v)
  SELECT count(gap) AS visits, percentile_cont(0.5) WITHIN GROUP (ORDER BY gap) AS median_days,
         count(*) FILTER (WHERE gap BETWEEN 1 AND 7) AS gap_1_7,
         count(*) FILTER (WHERE gap BETWEEN 8 AND 14) AS gap_8_14,
         count(*) FILTER (WHERE gap BETWEEN 15 AND 30) AS gap_15_30,
         count(*) FILTER (WHERE gap BETWEEN 31 AND 60) AS gap_31_60,
         count(*) FILTER (WHERE gap BETWEEN 61 AND 90) AS gap_61_90,
         count(*) FILTER (WHERE gap > 90) AS gap_91_plus
  FROM gaps WHERE gap IS NOT NULL`;

/** The range's return visits at the locations by days since the guest's previous visit to the company. */
export async function visitGaps(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
): Promise<VisitGapRow> {
  const { rows } = await sql.query<VisitGapRow>(VISIT_GAPS, [companyId, locations, range.from, range.to]);
  return rows[0]!;
}

/** A category's items and line revenue. */
export interface CategoryRow {
  category_id: number;
  category: string;
  units: number;
  revenue_cents: number;
}

/** Every check's categories at the locations in the range, from the daily item rollup. */
export async function categoryFigures(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
): Promise<CategoryRow[]> {
  const { rows } = await sql.query<CategoryRow>(
    `SELECT mc.id AS category_id, mc.name AS category, sum(d.units) AS units, sum(d.revenue_cents) AS revenue_cents
     FROM pos_menu_item_days d
     JOIN menu_items mi ON mi.company_id = $1 AND mi.id = d.menu_item_id
     JOIN menu_categories mc ON mc.company_id = $1 AND mc.id = mi.category_id
     WHERE d.company_id = $1 AND ($2::bigint[] IS NULL OR d.location_id = ANY($2::bigint[]))
       AND d.day BETWEEN $3::date AND $4::date
     GROUP BY 1, 2`,
    [companyId, locations, range.from, range.to],
  );
  return rows;
}

/** The distinct guests with a check at the locations in the range (`pos_guest_days`). */
export async function guestsWithChecks(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
): Promise<number> {
  const { rows } = await sql.query<{ guests: number }>(
    `SELECT count(DISTINCT guest_id) AS guests FROM pos_guest_days
     WHERE company_id = $1 AND ($2::bigint[] IS NULL OR location_id = ANY($2::bigint[]))
       AND day BETWEEN $3::date AND $4::date`,
    [companyId, locations, range.from, range.to],
  );
  return rows[0]?.guests ?? 0;
}

/** A segment's categories in the range and how many of its members bought an item. */
export interface SegmentCategoryRows {
  guests: number;
  categories: CategoryRow[];
}

/**
 * A segment's members' categories at the locations in the range: `members` (the segment machinery's
 * `SELECT g.id …` fragment; null: nobody) read once, their checks of the range by the guest index, their lines.
 * Bounded by the members' checks of the range, never by the whole history.
 */
export async function segmentCategoryFigures(
  sql: Sql,
  companyId: CompanyId,
  members: RawBuilder<{ id: number }> | null,
  locations: number[] | null,
  range: DayBounds,
): Promise<SegmentCategoryRows> {
  if (members === null) return { guests: 0, categories: [] };
  const [row] = await runWithSegmentPlanner(
    sql,
    rawSql<{ guests: number; categories: CategoryRow[] | null }>`
      WITH zone AS (SELECT time_zone FROM companies WHERE id = ${companyId}),
      members AS MATERIALIZED (SELECT DISTINCT x.id FROM (${members}) x),
      checks AS MATERIALIZED (
        SELECT c.id, c.guest_id FROM members m CROSS JOIN zone
        JOIN pos_checks c ON c.company_id = ${companyId} AND c.guest_id = m.id
          AND c.closed_at >= (${range.from}::date::timestamp AT TIME ZONE zone.time_zone)
          AND c.closed_at < ((${range.to}::date + 1)::timestamp AT TIME ZONE zone.time_zone)
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

/** How many saved segments the picker lists. */
export const SEGMENT_PICKER_LIMIT = 500;

/** The company's saved segments for the picker: id and name, by name. */
export async function segmentChoices(
  sql: Sql,
  companyId: CompanyId,
): Promise<{ id: number; name: string }[]> {
  const { rows } = await sql.query<{ id: number; name: string }>(
    'SELECT id, name FROM segments WHERE company_id = $1 ORDER BY lower(name), id LIMIT $2',
    [companyId, SEGMENT_PICKER_LIMIT],
  );
  return rows;
}
