import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import type { CompanyId, Sql } from '../db/database.js';
import type { RangeInstants } from './company-clock.repository.js';
import { DISTINCT_GUESTS_MEMORY } from './pos-analytics.repository.js';

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

// The range as a date range, for the profile rows' multiranges.
const RANGE = `daterange($3::date, $4::date, '[]')`;

/**
 * Only the subscribed guests of the range, from their profile rows (migration 0053): the company's rows (location 0)
 * or those of the picked locations, with a day in the range; `grouped` when several locations are picked, whose
 * rows are grouped per guest. The guests without a subscriber are then only counted (no birthday or zip). "Same
 * zip" as PEOPLE works it out: from the days at a location in the guest's zip and at a location with a zip.
 */
function profiledGuests(grouped: boolean): string {
  const where = `p.company_id = $1 AND p.location_id = ANY(coalesce($2::bigint[], '{0}'::bigint[]))
      AND p.days && ${RANGE}`;
  const rows = grouped
    ? `SELECT p.guest_id, p.birthday, p.zip,
              CASE WHEN p.zip = '' OR NOT bool_or(p.zip_days && ${RANGE}) THEN NULL
                   ELSE bool_or(p.near_days && ${RANGE}) END AS near
       FROM pos_profile_days p WHERE ${where}
       GROUP BY p.guest_id, p.birthday, p.zip`
    : `SELECT p.guest_id, p.birthday, p.zip,
              CASE WHEN p.zip = '' OR NOT p.zip_days && ${RANGE} THEN NULL ELSE p.near_days && ${RANGE} END AS near
       FROM pos_profile_days p WHERE ${where}`;
  return `profiled AS MATERIALIZED (${rows}),
  visits AS (SELECT guest_id FROM profiled),`;
}

const JOINED = `
  -- Subscribers who joined in the range at the locations and did not visit there in it, one row per person: a
  -- guest once (several subscribers linked to one guest are one person), an unlinked subscriber once; the
  -- person's earliest such subscriber (lowest id) gives the birthday, zip and join location.
  joined AS MATERIALIZED (
    SELECT DISTINCT ON (coalesce(s.guest_id, -s.id)) s.birthday, s.zip,
           CASE WHEN s.zip = '' OR coalesce(l.zip, '') = '' THEN NULL ELSE l.zip = s.zip END AS near
    FROM subscribers s
    LEFT JOIN locations l ON l.company_id = $1 AND l.id = s.source_location_id
    WHERE s.company_id = $1
      AND ($2::bigint[] IS NULL OR s.source_location_id = ANY($2::bigint[]))
      -- The range's instants in the company's zone, worked out once, so the (company, created_at) index serves.
      AND s.created_at >= $6::timestamptz AND s.created_at < $7::timestamptz
      -- An anti-join: hashing the range's guests once beat a hashed NOT IN by 45 ms over a year at 1M guests.
      AND NOT EXISTS (SELECT 1 FROM visits v WHERE v.guest_id = s.guest_id)
    ORDER BY coalesce(s.guest_id, -s.id), s.id),`;

const PEOPLE = `${JOINED}
  people AS MATERIALIZED (
    SELECT CASE WHEN p.guest_id IS NULL THEN 'guests_only' ELSE 'guests_subscribed' END AS kind,
           p.birthday, coalesce(p.zip, '') AS zip,
           (SELECT CASE WHEN coalesce(p.zip, '') = '' OR NOT bool_or(l.zip <> '') THEN NULL
                        ELSE bool_or(l.zip = p.zip) END
            FROM locations l WHERE l.company_id = $1 AND l.id = ANY(v.locations)) AS near
    FROM visits v LEFT JOIN profiles p ON p.guest_id = v.guest_id
    UNION ALL
    SELECT 'subscribers_only', birthday, zip, near FROM joined)`;

// The people of profiledGuests: the subscribed guests, then the subscribers who joined and did not come (both
// kept once, so the two reads of the people do not copy them again).
const PROFILED_PEOPLE = `${JOINED}
  people AS NOT MATERIALIZED (
    SELECT 'guests_subscribed' AS kind, birthday, zip, near FROM profiled
    UNION ALL
    SELECT 'subscribers_only', birthday, zip, near FROM joined)`;

/** The age bands' lower ages, youngest first, as `AGE_BANDS` names them (under 18 has none). */
const BAND_STARTS = [
  ['under_18', 0],
  ['18_24', 18],
  ['25_34', 25],
  ['35_44', 35],
  ['45_54', 45],
  ['55_64', 55],
  ['65_plus', 65],
] as const;

// Born after the range's last day less n years: under n in whole years on that day (`age()`'s years, 29 February
// included, checked day by day over 1940–2024 against ranges ending in 2024–2025), without `age()` for every person.
const youngerThan = (years: number) => `birthday > ($4::date - interval '${years} years')::date`;

// One count per band: born in (last day − next band's start, last day − this band's start].
const BAND_COUNTS = BAND_STARTS.map(([band, from], index) => {
  const next = BAND_STARTS[index + 1];
  const older = from === 0 ? 'true' : `NOT ${youngerThan(from)}`;
  const younger = next ? youngerThan(next[1]) : 'true';
  return `count(*) FILTER (WHERE ${older} AND ${younger})::int AS "band_${band}"`;
}).join(',\n');

const counted = (select: string) =>
  `(SELECT coalesce(json_agg(json_build_object('key', key, 'people', people)), '[]'::json)
    FROM (${select}) c)`;

/** The one row of counts the statement answers (bands as `band_<name>`). */
type CountsRow = Record<string, number> & { zips: KeyCount[] };

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
  // The statement's estimated cost sets off PostgreSQL's JIT, whose compiling took longer than the statement runs
  // (measured at 100,000 guests: 1.7 s with it, 0.5 s without, on a loaded machine); and a plan made for the
  // actual range and locations, not the generic plan a prepared statement turns to (at 1M guests: 240 ms against
  // 380 ms for 90 days at five locations). And room to hash the range's people (the joined subscribers' anti-join
  // sorted 200,000 guests on disk with the default 4 MB: 311 ms p95 for a year at every location at 1M guests).
  await sql.exec('SET LOCAL jit = off; SET LOCAL plan_cache_mode = force_custom_plan');
  await sql.query(DISTINCT_GUESTS_MEMORY);
  const grouped = locations !== null && locations.length > 1;
  const { rows } = await sql.query<CountsRow>(
    `WITH ${guests === null ? `${EVERY_GUEST} ${PEOPLE}` : `${profiledGuests(grouped)} ${PROFILED_PEOPLE}`}
     SELECT count(*) FILTER (WHERE kind = 'guests_subscribed')::int AS guests_subscribed,
            count(*) FILTER (WHERE kind = 'guests_only')::int AS guests_only,
            count(*) FILTER (WHERE kind = 'subscribers_only')::int AS subscribers_only,
            count(*) FILTER (WHERE birthday IS NULL)::int AS no_birthday,
            ${BAND_COUNTS},
            count(*) FILTER (WHERE zip <> '')::int AS zipped,
            count(*) FILTER (WHERE near)::int AS same_zip,
            count(*) FILTER (WHERE NOT near)::int AS elsewhere,
            count(*) FILTER (WHERE near IS NULL)::int AS unknown,
            ${counted(
              `SELECT zip AS key, count(*)::int AS people FROM people GROUP BY 1
               ORDER BY (zip = '') DESC, count(*) DESC, zip LIMIT $5 + 1`,
            )} AS zips
     FROM people`,
    [companyId, locations, range.from, range.to, top, instants.start, instants.end],
  );
  const row = rows[0]!;
  const listed = (keys: readonly (string | null)[], column: (key: string | null) => string): KeyCount[] =>
    keys.map((key) => ({ key: key as string, people: row[column(key)]! }));
  const counts: DemographicCounts & { zipped: number } = {
    kinds: listed(['guests_subscribed', 'guests_only', 'subscribers_only'], (key) => key!),
    bands: listed([...BAND_STARTS.map(([band]) => band), null], (key) =>
      key === null ? 'no_birthday' : `band_${key}`,
    ),
    zips: row.zips,
    zipped: row.zipped!,
    distance: listed(['same_zip', 'elsewhere', 'unknown'], (key) => key!),
  };
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
