import type { CompanyId, Sql } from '../db/database.js';

/*
 * Monthly first-visit cohorts, kept as checks arrive (migration 0019, docs/guest-data.md "Cohorts").
 *
 * `guest_location_months` holds what each guest did at each location in each month (company time zone);
 * `cohort_rollups` adds it up per cohort month and activity month, once per location (the cohort there is the
 * guest's first month there) and once for the whole company (`location_id` NULL: the first month anywhere).
 *
 * Every change is a delta on `guest_location_months` rows. The guests (and guest-location pairs) it touches
 * have their whole contribution to `cohort_rollups` taken away, the delta applied, and their contribution
 * added back: a check older than a guest's first month moves all of that guest's activity to the new cohort,
 * and the cost stays that of the guests touched, whatever the company's size.
 */

/** A change to one guest's activity at one location in one month. */
interface ActivityDelta {
  guest_id: number;
  location_id: number;
  month: string;
  checks: number;
  revenue_cents: number;
}

/** The month (first day, company time zone) of a check `c` of company `co`. */
const CHECK_MONTH = `date_trunc('month', c.closed_at AT TIME ZONE co.time_zone)::date`;

/** Checks `$2` of company `$1` with a guest, as activity per guest, location and month. */
async function activityOfChecks(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
): Promise<ActivityDelta[]> {
  const { rows } = await sql.query<ActivityDelta>(
    `SELECT c.guest_id, c.location_id, to_char(${CHECK_MONTH}, 'YYYY-MM-DD') AS month,
            count(*)::int AS checks, sum(c.total_cents)::bigint AS revenue_cents
     FROM pos_checks c JOIN companies co ON co.id = c.company_id
     WHERE c.company_id = $1 AND c.id = ANY($2::bigint[]) AND c.guest_id IS NOT NULL
     GROUP BY 1, 2, 3`,
    [companyId, checkIds],
  );
  return rows.map((row) => ({ ...row, revenue_cents: Number(row.revenue_cents) }));
}

/**
 * Each guest's months at the locations of each group of company `$1` (`where` picks the guests' rows of
 * `guest_location_months m`, `gm` the members), with the guest's cohort in that group: their first month at any of
 * its locations.
 */
const GROUP_GUEST_MONTHS = (where: string) => `
  SELECT gm.group_id, m.month, sum(m.checks)::bigint AS checks, sum(m.revenue_cents) AS revenue,
         min(m.month) OVER (PARTITION BY gm.group_id, m.guest_id) AS cohort
  FROM guest_location_months m
  JOIN location_group_members gm ON gm.company_id = $1 AND gm.location_id = m.location_id
  WHERE m.company_id = $1 AND ${where}
  GROUP BY gm.group_id, m.guest_id, m.month`;

/**
 * Adds (`sign` 1) or takes away (`sign` -1) the whole cohort contribution of some guests to the company-wide
 * rows and of some guest-location pairs to the per-location rows, as `guest_location_months` holds them now.
 */
async function addContributions(
  sql: Sql,
  companyId: CompanyId,
  guestIds: readonly number[],
  pairs: { guests: number[]; locations: number[] },
  sign: 1 | -1,
): Promise<void> {
  await sql.query(
    `WITH per_location AS (
       SELECT m.location_id, m.month, m.checks::bigint AS checks, m.revenue_cents AS revenue,
              min(m.month) OVER (PARTITION BY m.guest_id, m.location_id) AS cohort
       FROM guest_location_months m
       JOIN unnest($2::bigint[], $3::bigint[]) AS p(guest_id, location_id)
         ON m.guest_id = p.guest_id AND m.location_id = p.location_id
       WHERE m.company_id = $1
     ), per_guest AS (
       SELECT NULL::bigint AS location_id, m.month, sum(m.checks)::bigint AS checks, sum(m.revenue_cents) AS revenue,
              min(m.month) OVER (PARTITION BY m.guest_id) AS cohort
       FROM guest_location_months m
       WHERE m.company_id = $1 AND m.guest_id = ANY($4::bigint[])
       GROUP BY m.guest_id, m.month
     )
     INSERT INTO cohort_rollups (company_id, location_id, cohort_month, activity_month, guests, checks, revenue_cents)
     SELECT $1, location_id, cohort, month, $5 * count(*), $5 * sum(checks), $5 * sum(revenue)
     FROM (SELECT * FROM per_location UNION ALL SELECT * FROM per_guest) a
     GROUP BY location_id, cohort, month
     ON CONFLICT ON CONSTRAINT cohort_rollups_key DO UPDATE
       SET guests = cohort_rollups.guests + excluded.guests,
           checks = cohort_rollups.checks + excluded.checks,
           revenue_cents = cohort_rollups.revenue_cents + excluded.revenue_cents`,
    [companyId, pairs.guests, pairs.locations, guestIds, sign],
  );
  // The same guests' contribution to the cohorts of every group holding one of their locations (migration 0047).
  await sql.query(
    `INSERT INTO group_cohort_rollups AS t (company_id, group_id, cohort_month, activity_month, guests, checks,
                                            revenue_cents)
     SELECT $1, group_id, cohort, month, $3 * count(*), $3 * sum(checks), $3 * sum(revenue)
     FROM (${GROUP_GUEST_MONTHS('m.guest_id = ANY($2::bigint[])')}) per_guest
     GROUP BY group_id, cohort, month
     ON CONFLICT (company_id, group_id, cohort_month, activity_month) DO UPDATE
       SET guests = t.guests + excluded.guests, checks = t.checks + excluded.checks,
           revenue_cents = t.revenue_cents + excluded.revenue_cents`,
    [companyId, guestIds, sign],
  );
}

/** Applies activity deltas (positive or negative) to the cohorts, in the caller's transaction. */
async function applyActivity(
  sql: Sql,
  companyId: CompanyId,
  deltas: readonly ActivityDelta[],
): Promise<void> {
  if (deltas.length === 0) return;
  const guestIds = [...new Set(deltas.map((delta) => delta.guest_id))];
  const pairKeys = new Map<string, [number, number]>();
  for (const delta of deltas) {
    pairKeys.set(`${delta.guest_id}/${delta.location_id}`, [delta.guest_id, delta.location_id]);
  }
  const pairs = { guests: [] as number[], locations: [] as number[] };
  for (const [guest, location] of pairKeys.values()) {
    pairs.guests.push(guest);
    pairs.locations.push(location);
  }
  await addContributions(sql, companyId, guestIds, pairs, -1);
  await sql.query(
    `INSERT INTO guest_location_months (company_id, guest_id, location_id, month, checks, revenue_cents)
     SELECT $1, guest_id, location_id, month, sum(checks), sum(revenue)
     FROM unnest($2::bigint[], $3::bigint[], $4::date[], $5::int[], $6::bigint[])
       AS d(guest_id, location_id, month, checks, revenue)
     GROUP BY guest_id, location_id, month
     ON CONFLICT (company_id, guest_id, location_id, month) DO UPDATE
       SET checks = guest_location_months.checks + excluded.checks,
           revenue_cents = guest_location_months.revenue_cents + excluded.revenue_cents`,
    [
      companyId,
      deltas.map((delta) => delta.guest_id),
      deltas.map((delta) => delta.location_id),
      deltas.map((delta) => delta.month),
      deltas.map((delta) => delta.checks),
      deltas.map((delta) => delta.revenue_cents),
    ],
  );
  // A month left without checks is no activity: the guest was not there that month.
  await sql.query(
    `DELETE FROM guest_location_months
     WHERE company_id = $1 AND guest_id = ANY($2::bigint[]) AND checks <= 0`,
    [companyId, guestIds],
  );
  await addContributions(sql, companyId, guestIds, pairs, 1);
  await sql.query('DELETE FROM cohort_rollups WHERE company_id = $1 AND guests = 0', [companyId]);
  await sql.query('DELETE FROM group_cohort_rollups WHERE company_id = $1 AND guests = 0', [companyId]);
}

/**
 * Adds stored checks to the cohorts (checks without a guest belong to none), in the caller's transaction. Give
 * only checks not added before: `ingestChecks` passes the ids it has just inserted.
 */
export async function addChecksToCohorts(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
): Promise<void> {
  if (checkIds.length === 0) return;
  await applyActivity(sql, companyId, await activityOfChecks(sql, companyId, checkIds));
}

/**
 * Takes checks out of the cohorts again (a void or refund path), in the caller's transaction. Call it while the
 * checks are still stored, with their guest, before deleting or unlinking them.
 */
export async function removeChecksFromCohorts(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
): Promise<void> {
  if (checkIds.length === 0) return;
  const activity = await activityOfChecks(sql, companyId, checkIds);
  await applyActivity(
    sql,
    companyId,
    activity.map((delta) => ({ ...delta, checks: -delta.checks, revenue_cents: -delta.revenue_cents })),
  );
}

/** All activity rows of company `$1` that match `where`, negated. */
async function negatedActivity(
  sql: Sql,
  companyId: CompanyId,
  where: string,
  id: number,
): Promise<ActivityDelta[]> {
  const { rows } = await sql.query<ActivityDelta>(
    `SELECT guest_id, location_id, to_char(month, 'YYYY-MM-DD') AS month, -checks AS checks,
            -revenue_cents AS revenue_cents
     FROM guest_location_months WHERE company_id = $1 AND ${where} = $2`,
    [companyId, id],
  );
  return rows.map((row) => ({ ...row, revenue_cents: Number(row.revenue_cents) }));
}

/**
 * Takes a guest out of every cohort, before their deletion unlinks their checks (which then belong to no
 * guest, so to no cohort). In the caller's transaction.
 */
export async function removeGuestFromCohorts(sql: Sql, companyId: CompanyId, guestId: number): Promise<void> {
  await applyActivity(sql, companyId, await negatedActivity(sql, companyId, 'guest_id', guestId));
}

/**
 * Takes a location's checks out of the cohorts, before the location's deletion deletes them: its guests'
 * company-wide cohorts are worked out again from their other locations. In the caller's transaction.
 */
export async function removeLocationFromCohorts(
  sql: Sql,
  companyId: CompanyId,
  locationId: number,
): Promise<void> {
  await applyActivity(sql, companyId, await negatedActivity(sql, companyId, 'location_id', locationId));
}

/**
 * Works a company's cohorts out again from all its stored checks: after the demo loader's bulk COPY, which
 * bypasses `ingestChecks`. In the caller's transaction.
 */
export async function rebuildCohortRollups(sql: Sql, companyId: CompanyId): Promise<void> {
  await sql.query('DELETE FROM cohort_rollups WHERE company_id = $1', [companyId]);
  await sql.query('DELETE FROM group_cohort_rollups WHERE company_id = $1', [companyId]);
  await sql.query('DELETE FROM guest_location_months WHERE company_id = $1', [companyId]);
  await sql.query(
    `INSERT INTO guest_location_months (company_id, guest_id, location_id, month, checks, revenue_cents)
     SELECT $1, c.guest_id, c.location_id, ${CHECK_MONTH}, count(*)::int, sum(c.total_cents)::bigint
     FROM pos_checks c JOIN companies co ON co.id = c.company_id
     WHERE c.company_id = $1 AND c.guest_id IS NOT NULL
     GROUP BY 2, 3, 4`,
    [companyId],
  );
  await sql.query(
    `INSERT INTO cohort_rollups (company_id, location_id, cohort_month, activity_month, guests, checks, revenue_cents)
     SELECT $1, location_id, cohort, month, count(*)::int, sum(checks)::int, sum(revenue_cents)::bigint
     FROM (SELECT location_id, month, checks, revenue_cents,
                  min(month) OVER (PARTITION BY guest_id, location_id) AS cohort
           FROM guest_location_months WHERE company_id = $1) per_location
     GROUP BY 2, 3, 4`,
    [companyId],
  );
  await sql.query(
    `INSERT INTO cohort_rollups (company_id, location_id, cohort_month, activity_month, guests, checks, revenue_cents)
     SELECT $1, NULL, cohort, month, count(*)::int, sum(checks)::int, sum(revenue)::bigint
     FROM (SELECT month, sum(checks) AS checks, sum(revenue_cents) AS revenue,
                  min(month) OVER (PARTITION BY guest_id) AS cohort
           FROM guest_location_months WHERE company_id = $1 GROUP BY guest_id, month) per_guest
     GROUP BY 3, 4`,
    [companyId],
  );
  await fillGroupCohorts(sql, companyId, 'true', []);
}

/** Adds the cohort rows of the groups `where` picks (`gm.group_id`, parameter `$2`) from their guests' months. */
async function fillGroupCohorts(
  sql: Sql,
  companyId: CompanyId,
  where: string,
  params: unknown[],
): Promise<void> {
  await sql.query(
    `INSERT INTO group_cohort_rollups (company_id, group_id, cohort_month, activity_month, guests, checks,
                                       revenue_cents)
     SELECT $1, group_id, cohort, month, count(*)::int, sum(checks)::int, sum(revenue)::bigint
     FROM (${GROUP_GUEST_MONTHS(where)}) per_guest
     GROUP BY 2, 3, 4`,
    [companyId, ...params],
  );
}

/**
 * Works one location group's cohort rows out again from its members' guest months (the group worker, after its
 * members changed), in the caller's transaction.
 */
export async function rebuildGroupCohorts(sql: Sql, companyId: CompanyId, groupId: number): Promise<void> {
  await sql.query('DELETE FROM group_cohort_rollups WHERE company_id = $1 AND group_id = $2', [
    companyId,
    groupId,
  ]);
  await fillGroupCohorts(sql, companyId, 'gm.group_id = $2', [groupId]);
}

/** One cohort's figures in one activity month. */
export interface CohortCell {
  /** First day of the cohort month, `YYYY-MM-DD`. */
  cohort_month: string;
  /** First day of the activity month, `YYYY-MM-DD`. */
  activity_month: string;
  guests: number;
  checks: number;
  revenue_cents: number;
}

/** Which cohorts to read: a location filter (empty: the whole company) and a range of cohort months. */
export interface CohortQuery {
  /** The locations, already checked to be the company's; empty for the whole company. */
  locationIds: readonly number[];
  /** First cohort month, `YYYY-MM-01`, or null for no lower bound. */
  fromMonth: string | null;
  /** Last cohort month, `YYYY-MM-01`, or null for no upper bound. */
  toMonth: string | null;
  /** Offsets 0 … `months` − 1 are read. */
  months: number;
  /** The one location group whose own rows answer (its rows filled, its members `locationIds`); else none. */
  groupId?: number | null;
}

const CELL_COLUMNS = `to_char(cohort_month, 'YYYY-MM-DD') AS cohort_month,
  to_char(activity_month, 'YYYY-MM-DD') AS activity_month, guests::int AS guests, checks::int AS checks,
  revenue_cents::bigint AS revenue_cents`;

/** The range and offset conditions on `cohort_month` and `activity_month` (parameters `$2` … `$4`). */
const CELL_RANGE = `($2::date IS NULL OR cohort_month >= $2::date) AND ($3::date IS NULL OR cohort_month <= $3::date)
  AND activity_month < cohort_month + make_interval(months => $4::int)`;

/**
 * The cohort cells of a filter. The whole company and a single location read `cohort_rollups`; several
 * locations read `guest_location_months` (a guest's cohort is then their first month at any of them, which no
 * per-location sum can give), exact but slower.
 */
export async function findCohortCells(
  sql: Sql,
  companyId: CompanyId,
  query: CohortQuery,
): Promise<CohortCell[]> {
  const range = [query.fromMonth, query.toMonth, query.months];
  const read = async (text: string, params: unknown[]) => {
    const { rows } = await sql.query<CohortCell>(text, params);
    return rows.map((row) => ({ ...row, revenue_cents: Number(row.revenue_cents) }));
  };
  if (query.groupId != null) {
    return read(
      `SELECT ${CELL_COLUMNS} FROM group_cohort_rollups
       WHERE company_id = $1 AND group_id = $5::bigint AND ${CELL_RANGE}
       ORDER BY cohort_month, activity_month`,
      [companyId, ...range, query.groupId],
    );
  }
  if (query.locationIds.length <= 1) {
    const scope = query.locationIds.length === 0 ? 'location_id IS NULL' : 'location_id = $5::bigint';
    return read(
      `SELECT ${CELL_COLUMNS} FROM cohort_rollups
       WHERE company_id = $1 AND ${scope} AND ${CELL_RANGE}
       ORDER BY cohort_month, activity_month`,
      query.locationIds.length === 0 ? [companyId, ...range] : [companyId, ...range, query.locationIds[0]],
    );
  }
  return read(
    `WITH per_guest AS (
       SELECT month, sum(checks) AS checks, sum(revenue_cents) AS revenue,
              min(month) OVER (PARTITION BY guest_id) AS cohort
       FROM guest_location_months
       WHERE company_id = $1 AND location_id = ANY($5::bigint[])
       GROUP BY guest_id, month
     ), cells AS (
       SELECT cohort AS cohort_month, month AS activity_month, count(*) AS guests, sum(checks) AS checks,
              sum(revenue) AS revenue_cents
       FROM per_guest GROUP BY cohort, month
     )
     SELECT ${CELL_COLUMNS} FROM cells WHERE ${CELL_RANGE}
     ORDER BY cohort_month, activity_month`,
    [companyId, ...range, [...query.locationIds]],
  );
}

/** The latest month with any check of a guest in the filter (`YYYY-MM-DD`), or null when there is none. */
export async function latestActivityMonth(
  sql: Sql,
  companyId: CompanyId,
  locationIds: readonly number[],
): Promise<string | null> {
  const { rows } =
    locationIds.length === 0
      ? await sql.query<{ month: string | null }>(
          `SELECT to_char(max(activity_month), 'YYYY-MM-DD') AS month FROM cohort_rollups
           WHERE company_id = $1 AND location_id IS NULL`,
          [companyId],
        )
      : await sql.query<{ month: string | null }>(
          `SELECT to_char(max(activity_month), 'YYYY-MM-DD') AS month FROM cohort_rollups
           WHERE company_id = $1 AND location_id = ANY($2::bigint[])`,
          [companyId, [...locationIds]],
        );
  return rows[0]?.month ?? null;
}

/** A cohort filter's locations, resolved: the ids the company does not have, and the locations meant. */
export interface CohortLocations {
  missingLocationIds: number[];
  missingGroupIds: number[];
  /** The locations meant: those given, the groups' members, or (both given) the locations in both. */
  locationIds: number[];
  /** How many locations the company has. */
  companyLocations: number;
}

/** Resolves a filter of locations and location groups into locations, naming those not the company's. */
export async function resolveCohortLocations(
  sql: Sql,
  companyId: CompanyId,
  locationIds: readonly number[],
  groupIds: readonly number[],
): Promise<CohortLocations> {
  const { rows } = await sql.query<{
    locations: number[];
    groups: number[];
    members: number[];
    total: number;
  }>(
    `SELECT coalesce((SELECT array_agg(id) FROM locations WHERE company_id = $1 AND id = ANY($2::bigint[])),
                     '{}') AS locations,
            coalesce((SELECT array_agg(id) FROM location_groups WHERE company_id = $1 AND id = ANY($3::bigint[])),
                     '{}') AS groups,
            coalesce((SELECT array_agg(DISTINCT location_id) FROM location_group_members
                      WHERE company_id = $1 AND group_id = ANY($3::bigint[])), '{}') AS members,
            (SELECT count(*)::int FROM locations WHERE company_id = $1) AS total`,
    [companyId, [...locationIds], [...groupIds]],
  );
  const row = rows[0]!;
  const locations = new Set(row.locations.map(Number));
  const groups = new Set(row.groups.map(Number));
  const members = new Set(row.members.map(Number));
  // Both given: the locations in both, as the guest list and the sales calls read them.
  const chosen =
    groupIds.length === 0
      ? [...locations]
      : locationIds.length === 0
        ? [...members]
        : [...locations].filter((id) => members.has(id));
  return {
    missingLocationIds: [...new Set(locationIds)].filter((id) => !locations.has(id)),
    missingGroupIds: [...new Set(groupIds)].filter((id) => !groups.has(id)),
    locationIds: chosen.sort((a, b) => a - b),
    companyLocations: row.total,
  };
}
