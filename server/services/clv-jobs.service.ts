import type { CompanyId, Database } from '../db/database.js';
import {
  addNewChecks,
  checksStoredSinceFit,
  requestClvJob,
  requestDueClvJobs,
  type ClvJobReason,
} from '../repositories/clv-jobs.repository.js';

/**
 * When a company's CLV is refitted (docs/clv.md): nightly, at once for a company with checks and no fit yet
 * (the demo companies once their history has loaded), after many new checks (by the API or an import), and
 * when its CLV settings change. Each of these only asks (`clv_jobs`); the CLV worker (server/jobs/clv-runner.ts)
 * does the work.
 */

/** The hour, in each company's time zone, after which its nightly refresh is due: quiet for restaurants. */
export const CLV_NIGHTLY_HOUR = 3;

/** New checks since the last fit that call for another: at least this many… */
export const CLV_NEW_CHECKS_MINIMUM = 1000;
/** …and at least this share of the checks the last fit saw (so a large company is not refitted all day). */
export const CLV_NEW_CHECKS_SHARE = 0.1;

/** The new checks that call for a refit after a fit that saw `fitted` checks. */
export function newChecksNeeded(fitted: number): number {
  return Math.max(CLV_NEW_CHECKS_MINIMUM, Math.ceil(fitted * CLV_NEW_CHECKS_SHARE));
}

/** Asks for a refresh of the company's CLV; at most one waits per company. */
export function requestClvRefresh(db: Database, companyId: CompanyId, reason: ClvJobReason): Promise<void> {
  return db.tenant(companyId, (sql) => requestClvJob(sql, companyId, reason));
}

/** After checks came in through the API: asks for a refresh once enough arrived since the last fit. */
export async function afterChecksStored(
  db: Database,
  companyId: CompanyId,
  created: number,
): Promise<boolean> {
  if (created <= 0) return false;
  return db.tenant(companyId, async (sql) => {
    const count = await addNewChecks(sql, companyId, created);
    if (count.pending || count.since < newChecksNeeded(count.fitted)) return false;
    await requestClvJob(sql, companyId, 'new-checks');
    return true;
  });
}

/** After an import finished: asks for a refresh when it (with anything else since) stored enough checks. */
export async function afterImportFinished(db: Database, companyId: CompanyId): Promise<boolean> {
  return db.tenant(companyId, async (sql) => {
    const fitted = (await checksStoredSinceFit(sql, companyId, 0)).fitted;
    const count = await checksStoredSinceFit(sql, companyId, newChecksNeeded(fitted));
    if (count.pending || count.since < newChecksNeeded(count.fitted)) return false;
    await requestClvJob(sql, companyId, 'import');
    return true;
  });
}

/** The nightly scheduler's tick (also run once the demo history has loaded): asks for every due refresh. */
export function requestDueClvRefreshes(
  db: Database,
  now: Date = new Date(),
  nightlyHour: number = CLV_NIGHTLY_HOUR,
): Promise<number[]> {
  return db.platform((sql) => requestDueClvJobs(sql, now, nightlyHour));
}
