import type { CompanyId, Sql } from '../db/database.js';

/**
 * The CLV refresh queue, `clv_jobs` (migration 0017): one row per company, pending while `requested_at` is set,
 * running while `lease_until` is set. Claims go through `FOR UPDATE SKIP LOCKED`, so several processes run
 * each refresh once; a claim whose lease passed is taken again.
 */

/** Why a refresh was asked for (docs/clv.md). */
export type ClvJobReason = 'nightly' | 'first-fit' | 'new-checks' | 'import' | 'settings';

/** A refresh a worker claimed: the company and the claim's number, which its later writes must still hold. */
export interface ClaimedClvJob {
  company_id: number;
  claim: number;
  reason: ClvJobReason | null;
}

/** Whether the company's refresh is waiting or running. */
export interface ClvJobState {
  pending: boolean;
  running: boolean;
}

/**
 * Asks for a refresh of the company. Asking while one is pending keeps its place in line and only changes its
 * reason; asking while one runs queues one more after it (the running one may have read older data).
 */
export async function requestClvJob(sql: Sql, companyId: CompanyId, reason: ClvJobReason): Promise<void> {
  await sql.query(
    `INSERT INTO clv_jobs (company_id, reason, requested_at) VALUES ($1, $2, now())
     ON CONFLICT (company_id) DO UPDATE SET reason = excluded.reason,
       requested_at = coalesce(clv_jobs.requested_at, excluded.requested_at)`,
    [companyId, reason],
  );
}

/**
 * Claims the refresh that has waited longest (or one whose worker's lease passed) for `leaseMs`; null when
 * there is none. A company whose refresh is running is not claimed again until that one ends or lapses.
 * Platform-wide: call it in a platform transaction.
 */
export async function claimClvJob(sql: Sql, leaseMs: number): Promise<ClaimedClvJob | null> {
  const { rows } = await sql.query<ClaimedClvJob>(
    `UPDATE clv_jobs j SET requested_at = NULL, claim = j.claim + 1, claimed_at = now(),
       lease_until = now() + $1 * interval '1 millisecond', new_checks = 0,
       fitted_checks = (SELECT count(*) FROM pos_checks p WHERE p.company_id = j.company_id),
       last_check_id = (SELECT coalesce(max(p.id), 0) FROM pos_checks p WHERE p.company_id = j.company_id)
     WHERE j.company_id = (SELECT company_id FROM clv_jobs
                           WHERE (requested_at IS NOT NULL OR lease_until IS NOT NULL)
                             AND (lease_until IS NULL OR lease_until <= now())
                           ORDER BY coalesce(requested_at, lease_until), company_id
                           LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING j.company_id, j.claim::int AS claim, j.reason`,
    [leaseMs],
  );
  return rows[0] ?? null;
}

/** Renews a claim's lease; false when the claim was lost (taken over after its lease passed). */
export async function renewClvJobLease(sql: Sql, job: ClaimedClvJob, leaseMs: number): Promise<boolean> {
  const { rows } = await sql.query(
    `UPDATE clv_jobs SET lease_until = now() + $3 * interval '1 millisecond'
     WHERE company_id = $1 AND claim = $2 AND lease_until IS NOT NULL RETURNING 1`,
    [job.company_id, job.claim, leaseMs],
  );
  return rows.length > 0;
}

/**
 * Locks the company's queue row and says whether the claim is still the worker's: the refresh writes its
 * figures in the same transaction only if so.
 */
export async function holdsClvJobClaim(sql: Sql, job: ClaimedClvJob): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT 1 FROM clv_jobs WHERE company_id = $1 AND claim = $2 AND lease_until IS NOT NULL FOR UPDATE`,
    [job.company_id, job.claim],
  );
  return rows.length > 0;
}

/** Ends a claimed refresh: done, or failed with a code (never data); a lost claim is left alone. */
export async function finishClvJob(sql: Sql, job: ClaimedClvJob, errorCode: string | null): Promise<void> {
  await sql.query(
    `UPDATE clv_jobs SET lease_until = NULL, claimed_at = NULL,
       finished_at = CASE WHEN $3::text IS NULL THEN now() ELSE finished_at END,
       failed_at = CASE WHEN $3::text IS NULL THEN failed_at ELSE now() END, error_code = $3
     WHERE company_id = $1 AND claim = $2`,
    [job.company_id, job.claim, errorCode],
  );
}

/** Gives a claimed refresh back unfinished (its worker stops): it waits, pending, for the next worker. */
export async function releaseClvJob(sql: Sql, job: ClaimedClvJob): Promise<void> {
  await sql.query(
    `UPDATE clv_jobs SET lease_until = NULL, claimed_at = NULL, requested_at = coalesce(requested_at, now())
     WHERE company_id = $1 AND claim = $2`,
    [job.company_id, job.claim],
  );
}

/** Whether the company's refresh is pending or running (a lapsed claim counts as pending). */
export async function findClvJobState(sql: Sql, companyId: CompanyId): Promise<ClvJobState> {
  const { rows } = await sql.query<ClvJobState>(
    `SELECT requested_at IS NOT NULL OR coalesce(lease_until <= now(), false) AS pending,
            coalesce(lease_until > now(), false) AS running
     FROM clv_jobs WHERE company_id = $1`,
    [companyId],
  );
  return rows[0] ?? { pending: false, running: false };
}

/** Checks since the company's last refresh was claimed, and how many that refresh saw. */
export interface ChecksSinceFit {
  /** New checks counted (by the API, or by `checksStoredSinceFit` up to its limit). */
  since: number;
  fitted: number;
  /** A refresh is already waiting. */
  pending: boolean;
}

/** Adds `created` checks that came in through the API to the count since the last claim, and answers the count. */
export async function addNewChecks(sql: Sql, companyId: CompanyId, created: number): Promise<ChecksSinceFit> {
  const { rows } = await sql.query<ChecksSinceFit>(
    `INSERT INTO clv_jobs (company_id, new_checks) VALUES ($1, $2)
     ON CONFLICT (company_id) DO UPDATE SET new_checks = clv_jobs.new_checks + excluded.new_checks
     RETURNING new_checks::int AS since, fitted_checks::int AS fitted, requested_at IS NOT NULL AS pending`,
    [companyId, created],
  );
  return rows[0]!;
}

/**
 * The checks stored since the company's last refresh was claimed (newer ids than the newest it saw), counted
 * up to `limit` and no further, whichever way they came in.
 */
export async function checksStoredSinceFit(
  sql: Sql,
  companyId: CompanyId,
  limit: number,
): Promise<ChecksSinceFit> {
  const { rows } = await sql.query<ChecksSinceFit>(
    `WITH last AS (
       SELECT coalesce(max(last_check_id), 0) AS check_id, coalesce(max(fitted_checks), 0)::int AS fitted,
              coalesce(bool_or(requested_at IS NOT NULL), false) AS pending
       FROM clv_jobs WHERE company_id = $1
     )
     SELECT (SELECT count(*)::int FROM (SELECT 1 FROM pos_checks
                                        WHERE company_id = $1 AND id > (SELECT check_id FROM last) LIMIT $2) s) AS since,
            fitted, pending
     FROM last`,
    [companyId, limit],
  );
  return rows[0]!;
}

/**
 * The scheduler's tick at `now`: asks for a refresh of every company with checks whose last fit was made before
 * today's `nightlyHour` o'clock in its time zone (reason `nightly`, once that hour has come) or that has no fit at
 * all (reason `first-fit`, at once). Companies whose demo history is still loading, whose refresh is already
 * pending or running, or whose refresh failed in the last day are left out. Platform-wide: call it in a platform
 * transaction. Returns the companies asked for.
 */
export async function requestDueClvJobs(sql: Sql, now: Date, nightlyHour: number): Promise<number[]> {
  const { rows } = await sql.query<{ company_id: number }>(
    `WITH due AS (
       SELECT c.id,
              CASE WHEN f.company_id IS NULL THEN 'first-fit' ELSE 'nightly' END AS reason,
              date_trunc('day', $1::timestamptz AT TIME ZONE c.time_zone) + make_interval(hours => $2) AS nightly_at,
              $1::timestamptz AT TIME ZONE c.time_zone AS local_now,
              f.fitted_at AT TIME ZONE c.time_zone AS local_fitted_at
       FROM companies c LEFT JOIN clv_fits f ON f.company_id = c.id
       WHERE EXISTS (SELECT 1 FROM pos_checks p WHERE p.company_id = c.id)
         AND NOT EXISTS (SELECT 1 FROM demo_loads d WHERE d.company_id = c.id AND d.finished_at IS NULL)
         AND NOT EXISTS (SELECT 1 FROM clv_jobs j WHERE j.company_id = c.id
                         AND (j.requested_at IS NOT NULL OR j.lease_until IS NOT NULL
                              OR j.failed_at > $1::timestamptz - interval '1 day'))
     )
     INSERT INTO clv_jobs (company_id, reason, requested_at)
     SELECT id, reason, now() FROM due
     WHERE reason = 'first-fit' OR (local_now >= nightly_at AND local_fitted_at < nightly_at)
     ON CONFLICT (company_id) DO UPDATE SET reason = excluded.reason,
       requested_at = coalesce(clv_jobs.requested_at, excluded.requested_at)
     RETURNING company_id::int AS company_id`,
    [now, nightlyHour],
  );
  return rows.map((row) => row.company_id).sort((a, b) => a - b);
}
