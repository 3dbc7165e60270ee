import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import type { CompanyId, Sql } from '../db/database.js';
import type { RangeInstants } from './company-clock.repository.js';

/**
 * The demographics dashboard's figures (docs/dashboards.md "Demographics"). The people of a range at some
 * locations (`null`: all) are the guests with a check there in the range (`pos_guest_days`), each with the
 * birthday and zip of their earliest linked subscriber, and the subscribers who joined at one of them (their
 * source location) in the range and are not such a guest. Birthdays and zip codes exist only on subscribers.
 */

/** Counts of one breakdown: a key (kind, age band, zip, distance) and its people. */
export interface KeyCount {
  key: string;
  people: number;
}

/** The breakdowns of a range's people. */
export interface DemographicCounts {
  kinds: KeyCount[];
  bands: KeyCount[];
  zips: KeyCount[];
  distance: KeyCount[];
}

// $2 the locations (null: all), $3 and $4 the range's ends ($6 and $7 the same as instants). One row per person
// (after one of the two readings of the range's guests above): kind, birthday, zip, and whether the zip is that of
// a location they are tied to (visited in the range, or joined at): null when unknown.
// Every guest of the range with the locations they came to, and the profile of those with a linked subscriber.
const EVERY_GUEST = `
  visits AS MATERIALIZED (
    SELECT guest_id, array_agg(DISTINCT location_id) AS locations FROM pos_guest_days
    WHERE company_id = $1 AND ($2::bigint[] IS NULL OR location_id = ANY($2::bigint[]))
      AND day BETWEEN $3::date AND $4::date
    GROUP BY guest_id),
  profiles AS (
    SELECT DISTINCT ON (s.guest_id) s.guest_id, s.birthday, s.zip FROM subscribers s
    WHERE s.company_id = $1 AND s.guest_id IN (SELECT guest_id FROM visits)
    ORDER BY s.guest_id, s.id),`;

// Only the subscribed guests of the range, probed from the subscribers' side: each guest with a linked subscriber
// (the earliest's profile) and the locations they came to in the range, read from their own guest-day rows. The
// guests without a subscriber are then only counted (they have no birthday or zip).
const SUBSCRIBED_GUESTS = `
  linked AS MATERIALIZED (
    SELECT DISTINCT ON (s.guest_id) s.guest_id, s.birthday, s.zip FROM subscribers s
    WHERE s.company_id = $1 AND s.guest_id IS NOT NULL
    ORDER BY s.guest_id, s.id),
  visits AS MATERIALIZED (
    SELECT l.guest_id, v.locations FROM linked l
    CROSS JOIN LATERAL (
      SELECT array_agg(DISTINCT d.location_id) AS locations FROM pos_guest_days d
      WHERE d.company_id = $1 AND d.guest_id = l.guest_id AND d.day BETWEEN $3::date AND $4::date
        AND ($2::bigint[] IS NULL OR d.location_id = ANY($2::bigint[]))) v
    WHERE v.locations IS NOT NULL),
  profiles AS (SELECT l.guest_id, l.birthday, l.zip FROM linked l JOIN visits v USING (guest_id)),`;

const PEOPLE = `
  -- Subscribers who joined in the range at the locations and did not visit there in it, one row per person: a
  -- guest once (several subscribers linked to one guest are one person), an unlinked subscriber once; the
  -- person's earliest such subscriber (lowest id) gives the birthday, zip and join location.
  joined AS (
    SELECT DISTINCT ON (coalesce(s.guest_id, -s.id)) s.birthday, s.zip,
           CASE WHEN s.zip = '' OR coalesce(l.zip, '') = '' THEN NULL ELSE l.zip = s.zip END AS near
    FROM subscribers s
    LEFT JOIN locations l ON l.company_id = $1 AND l.id = s.source_location_id
    WHERE s.company_id = $1
      AND ($2::bigint[] IS NULL OR s.source_location_id = ANY($2::bigint[]))
      -- The range's instants in the company's zone, worked out once, so the (company, created_at) index serves.
      AND s.created_at >= $6::timestamptz AND s.created_at < $7::timestamptz
      AND (s.guest_id IS NULL OR s.guest_id NOT IN (SELECT guest_id FROM visits))
    ORDER BY coalesce(s.guest_id, -s.id), s.id),
  people AS MATERIALIZED (
    SELECT CASE WHEN p.guest_id IS NULL THEN 'guests_only' ELSE 'guests_subscribed' END AS kind,
           p.birthday, coalesce(p.zip, '') AS zip,
           (SELECT CASE WHEN coalesce(p.zip, '') = '' OR NOT bool_or(l.zip <> '') THEN NULL
                        ELSE bool_or(l.zip = p.zip) END
            FROM locations l WHERE l.company_id = $1 AND l.id = ANY(v.locations)) AS near
    FROM visits v LEFT JOIN profiles p ON p.guest_id = v.guest_id
    UNION ALL
    SELECT 'subscribers_only', birthday, zip, near FROM joined)`;

// Age in whole years on the range's last day, in bands; no birthday: null.
const BAND = `CASE WHEN birthday IS NULL THEN NULL
  ELSE CASE WHEN age < 18 THEN 'under_18' WHEN age < 25 THEN '18_24' WHEN age < 35 THEN '25_34'
            WHEN age < 45 THEN '35_44' WHEN age < 55 THEN '45_54' WHEN age < 65 THEN '55_64' ELSE '65_plus' END
  END`;

const counted = (select: string) =>
  `(SELECT coalesce(json_agg(json_build_object('key', key, 'people', people)), '[]'::json)
    FROM (${select}) c)`;

/**
 * The range's people at the locations by kind, age band (`null` key: no birthday), home zip (the `top` zips
 * with most people; '' key: no zip), and zip against their locations' (`same_zip`, `elsewhere`, `unknown`).
 */
export async function demographicCounts(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  instants: RangeInstants,
  top: number,
  guests: number | null = null,
): Promise<DemographicCounts & { zipped: number }> {
  // The probes' estimated cost sets off PostgreSQL's JIT, whose compiling took longer than the statement runs
  // (measured at 100,000 guests: 1.7 s with it, 0.5 s without, on a loaded machine).
  await sql.query('SET LOCAL jit = off');
  const { rows } = await sql.query<DemographicCounts & { zipped: number }>(
    `WITH ${guests === null ? EVERY_GUEST : SUBSCRIBED_GUESTS} ${PEOPLE},
     aged AS (SELECT birthday, date_part('year', age($4::date, birthday))::int AS age FROM people)
     SELECT ${counted('SELECT kind AS key, count(*)::int AS people FROM people GROUP BY 1')} AS kinds,
            ${counted(`SELECT ${BAND} AS key, count(*)::int AS people FROM aged GROUP BY 1`)} AS bands,
            ${counted(
              `SELECT zip AS key, count(*)::int AS people FROM people GROUP BY 1
               ORDER BY (zip = '') DESC, count(*) DESC, zip LIMIT $5 + 1`,
            )} AS zips,
            (SELECT count(*)::int FROM people WHERE zip <> '') AS zipped,
            ${counted(
              `SELECT CASE WHEN near THEN 'same_zip' WHEN NOT near THEN 'elsewhere' ELSE 'unknown' END AS key,
                      count(*)::int AS people FROM people GROUP BY 1`,
            )} AS distance`,
    [companyId, locations, range.from, range.to, top, instants.start, instants.end],
  );
  const counts = rows[0]!;
  if (guests === null) return counts;
  // The guests without a subscriber, read from the subscribers' side only as a number: no birthday, no zip.
  const subscribed = counts.kinds.find((kind) => kind.key === 'guests_subscribed')?.people ?? 0;
  const only = guests - subscribed;
  const plus = (list: KeyCount[], key: string | null): KeyCount[] =>
    only === 0
      ? list
      : list.some((count) => count.key === key)
        ? list.map((count) => (count.key === key ? { key: count.key, people: count.people + only } : count))
        : [...list, { key: key as string, people: only }];
  return {
    ...counts,
    kinds: plus(counts.kinds, 'guests_only'),
    bands: plus(counts.bands, null),
    zips: plus(counts.zips, ''),
    distance: plus(counts.distance, 'unknown'),
  };
}
