import type { CompanyId, Sql } from '../db/database.js';
import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import { DISTINCT_GUESTS_MEMORY } from './pos-analytics.repository.js';

/**
 * The customer journey's figures (docs/dashboards.md "Customer journey"), read from `pos_guest_visits` (one row
 * per guest and visit — a local day at the company, at its first location by id — numbered, with the next
 * visit's day and location), its rollup `pos_journey_gaps` (visits by visit number and days until the next) and
 * `pos_guest_days` — and the same figures from the raw checks, which the bench times beside them and the tests
 * compare. `null` locations mean every location.
 */

/** Where the figures are read from: the rollups (the dashboard) or the raw checks (the bench's comparison). */
export type JourneySource = 'rollup' | 'raw';

/** Guests new in the range by first location and next location in the range (null: not back in it). */
export interface MoveRow {
  from_location_id: number;
  to_location_id: number | null;
  guests: number;
}

/** The range's visits of one visit number (10: ten and later) by days until the next visit (null: none yet). */
export interface NextGapRow {
  visit_number: number;
  gap: number | null;
  visits: number;
}

/** The range's distinct guests at the locations and those of them at two or more locations in it. */
export interface SpreadRow {
  guests: number;
  multi_location_guests: number;
}

// The visits as the rollup keeps them, or worked out from the raw checks the same way (a day at the company is
// one visit, at its first location by id; numbered by day; the next visit's day and location).
const VISITS = {
  rollup: 'pos_guest_visits',
  raw: `(WITH zone AS (SELECT time_zone FROM companies WHERE id = $1),
          days AS (SELECT c.guest_id, (c.closed_at AT TIME ZONE zone.time_zone)::date AS day,
                          min(c.location_id) AS location_id
                   FROM pos_checks c, zone WHERE c.company_id = $1 AND c.guest_id IS NOT NULL GROUP BY 1, 2)
        SELECT $1::bigint AS company_id, guest_id, day, location_id,
               row_number() OVER w AS visit_number, lead(day) OVER w AS next_day,
               lead(location_id) OVER w AS next_location_id
        FROM days WINDOW w AS (PARTITION BY guest_id ORDER BY day))`,
} as const;

// The guest-days (guest, location, local day) as the rollup keeps them, or from the raw checks.
const GUEST_DAYS = {
  rollup: 'pos_guest_days',
  raw: `(SELECT DISTINCT c.company_id, c.guest_id, c.location_id,
                (c.closed_at AT TIME ZONE (SELECT time_zone FROM companies WHERE id = $1))::date AS day
         FROM pos_checks c WHERE c.company_id = $1 AND c.guest_id IS NOT NULL)`,
} as const;

// $2 the locations (null: all), $3 and $4 the range's ends.
const IN_SCOPE = `($2::bigint[] IS NULL OR v.location_id = ANY($2::bigint[])) AND v.day BETWEEN $3::date AND $4::date`;

/** The range's new guests at the locations (first visit ever in it) by first and next location in the range. */
export async function journeyMoves(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  source: JourneySource = 'rollup',
): Promise<MoveRow[]> {
  const result = await sql.query<{ from_location_id: string; to_location_id: string | null; guests: string }>(
    `SELECT v.location_id AS from_location_id,
            CASE WHEN v.next_day <= $4::date THEN v.next_location_id END AS to_location_id, count(*) AS guests
     FROM ${VISITS[source]} v
     WHERE v.company_id = $1 AND v.visit_number = 1 AND ${IN_SCOPE}
     GROUP BY 1, 2`,
    [companyId, locations, range.from, range.to],
  );
  return result.rows.map((row) => ({
    from_location_id: Number(row.from_location_id),
    to_location_id: row.to_location_id === null ? null : Number(row.to_location_id),
    guests: Number(row.guests),
  }));
}

/**
 * The range's visits at the locations by visit number (up to `top`) and days until the guest's next visit (the
 * journey's; not the consumer insights' days since the previous visit, `returnGapBins`).
 */
export async function nextVisitGaps(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  top: number,
  source: JourneySource = 'rollup',
): Promise<NextGapRow[]> {
  // The rollup counts visit numbers up to 10 and "no next visit yet" as gap 0 (migration 0049); location 0 is the
  // company's sum, so every location is one index range.
  const result =
    source === 'rollup'
      ? await sql.query<{ visit_number: number; gap: number | null; visits: string }>(
          `SELECT least(visit_number, $5::int)::int AS visit_number, nullif(gap, 0) AS gap, sum(visits) AS visits
           FROM pos_journey_gaps
           WHERE company_id = $1 AND location_id = ANY(coalesce($2::bigint[], '{0}'))
             AND day BETWEEN $3::date AND $4::date
           GROUP BY 1, 2`,
          [companyId, locations, range.from, range.to, top],
        )
      : await sql.query<{ visit_number: number; gap: number | null; visits: string }>(
          `SELECT least(v.visit_number, $5::int)::int AS visit_number, (v.next_day - v.day)::int AS gap,
                  count(*) AS visits
           FROM ${VISITS.raw} v
           WHERE v.company_id = $1 AND ${IN_SCOPE}
           GROUP BY 1, 2`,
          [companyId, locations, range.from, range.to, top],
        );
  return result.rows.map((row) => ({
    visit_number: Number(row.visit_number),
    gap: row.gap === null ? null : Number(row.gap),
    visits: Number(row.visits),
  }));
}

/**
 * The range's distinct guests with a check at the locations, and those of them at two or more locations in it,
 * by grouping the range's guest-day rows per guest: for the raw comparison and for locations no presence scope
 * counts (the service reads the presence and spread rows otherwise: `presenceTotals`, `oneLocationGuests`).
 */
export async function locationSpread(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  source: JourneySource = 'rollup',
): Promise<SpreadRow> {
  // Grouping several locations' rows per guest hashes them: a roomier work_mem, as the other distinct counts.
  if (locations !== null && locations.length > 1) await sql.query(DISTINCT_GUESTS_MEMORY);
  const result = await sql.query<{ guests: string; multi_location_guests: string }>(
    `SELECT count(*) AS guests, count(*) FILTER (WHERE g.first_location <> g.last_location) AS multi_location_guests
     FROM (SELECT v.guest_id, min(v.location_id) AS first_location, max(v.location_id) AS last_location
           FROM ${GUEST_DAYS[source]} v
           WHERE v.company_id = $1 AND v.day BETWEEN $3::date AND $4::date
           GROUP BY v.guest_id
           HAVING $2::bigint[] IS NULL OR bool_or(v.location_id = ANY($2::bigint[]))) g`,
    [companyId, locations, range.from, range.to],
  );
  const row = result.rows[0]!;
  return { guests: Number(row.guests), multi_location_guests: Number(row.multi_location_guests) };
}

/** The company's number of locations, and the names of those listed (the scope's and where guests went). */
export async function journeyLocations(
  sql: Sql,
  companyId: CompanyId,
  ids: number[] | null,
): Promise<{ count: number; named: { id: number; name: string }[] }> {
  const result = await sql.query<{ id: string; name: string }>(
    'SELECT id, name FROM locations WHERE company_id = $1 ORDER BY name, id',
    [companyId],
  );
  const wanted = ids && new Set(ids);
  return {
    count: result.rows.length,
    named: result.rows
      .filter((row) => !wanted || wanted.has(Number(row.id)))
      .map((row) => ({ id: Number(row.id), name: row.name })),
  };
}
