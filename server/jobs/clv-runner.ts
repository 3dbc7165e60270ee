import { setImmediate as nextTick } from 'node:timers/promises';
import type { Database } from '../db/database.js';
import { logCode } from '../logging.js';
import {
  claimClvJob,
  finishClvJob,
  holdsClvJobClaim,
  releaseClvJob,
  renewClvJobLease,
  type ClaimedClvJob,
} from '../repositories/clv-jobs.repository.js';
import { requestDueClvRefreshes } from '../services/clv-jobs.service.js';
import { refreshCompanyClv, type RefreshOptions } from '../services/clv.service.js';
import { refreshCompanyRfm } from '../services/rfm.service.js';
import { refreshSegmentCaches } from '../services/segment-figures.js';
import { countOpeningAudiences } from '../services/home-dashboard.service.js';
import { forgetKeptAudiences } from '../services/kept-audiences.js';

/**
 * The worker that refits companies' CLV (docs/clv.md). The queue is `clv_jobs`, one row per company: a worker
 * claims the refresh that has waited longest (`FOR UPDATE SKIP LOCKED`), refits the company — histories read in
 * one transaction, the models fitted in a worker thread off the event loop, the figures and fit written in one
 * transaction — then works the company's segment figures out again (they read the predictions), and ends the
 * job; between the fit and the segments it scores the company's RFM again. A refresh is one unit of work: the claim is a lease the worker renews while it fits, so a refresh whose
 * process died is claimed again once its lease has passed, and a worker whose claim was taken over meanwhile
 * writes nothing. The same loop runs the scheduler's tick (`requestDueClvRefreshes`: the
 * nightly refresh and first fits) every `scheduleEveryMs`; several processes may tick, as asking twice changes
 * nothing. Works the same on PGlite and PostgreSQL, in the API process or in `npm run worker`.
 */

/** How the runner works; every value has a default suited to production. */
export interface ClvRunnerSettings {
  /** How often an idle runner looks for work. */
  pollMs: number;
  /** How long a claim holds without renewal: a refresh silent for longer was abandoned by its process. */
  leaseMs: number;
  /** How often a worker renews its lease while it fits. */
  renewEveryMs: number;
  /** How often the runner asks for due refreshes (nightly, first fits). */
  scheduleEveryMs: number;
  /** The fit itself; a worker thread unless a test says otherwise. */
  fit?: RefreshOptions['fit'];
}

/**
 * Production defaults: a fit of a million guests takes about a minute, so a lease of five minutes renewed every
 * minute outlives a busy machine's pauses and still takes an abandoned refresh over within minutes.
 */
export const DEFAULT_CLV_RUNNER_SETTINGS: ClvRunnerSettings = {
  pollMs: 5000,
  leaseMs: 5 * 60_000,
  renewEveryMs: 60_000,
  scheduleEveryMs: 60_000,
};

/** Where the runner reports failures: codes and ids only. */
export interface ClvRunnerLog {
  error(details: object, message: string): void;
}

/** The runner as the workers' registry sees it. */
export interface ClvRunner {
  start(): void;
  /** Stops now: a refresh in progress is abandoned unwritten and waits, pending, for the next worker. */
  stop(): Promise<void>;
  /** Wakes the runner now (a refresh was just asked for). */
  wake(): void;
}

/** The claim was taken over by another worker after its lease passed: this one writes nothing. */
class ClvClaimLostError extends Error {
  constructor() {
    super('The CLV refresh was taken over by another worker');
  }
}

/** The runner is stopping: the refresh in progress is given back. */
class ClvRunnerStoppingError extends Error {
  constructor() {
    super('The CLV runner is stopping');
  }
}

/** A code for the log and the job: the database's error code, or what kind of step failed. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'fit';
}

/** A segment refresh failure's code for the log: the database's, or the error's name. */
const segmentErrorCode = (error: unknown) => logCode(error, 'segments');

/**
 * Refits one claimed company, renewing the lease meanwhile, and ends the job: finished, failed (logged by code),
 * given back when `signal` aborts for a stop, or left alone when the claim was lost.
 */
async function runClaimedJob(
  db: Database,
  log: ClvRunnerLog,
  settings: ClvRunnerSettings,
  job: ClaimedClvJob,
  stop: AbortSignal,
): Promise<void> {
  const abort = new AbortController();
  const onStop = () => abort.abort(new ClvRunnerStoppingError());
  stop.addEventListener('abort', onStop, { once: true });
  const renew = setInterval(() => {
    db.tenant(job.company_id, (sql) => renewClvJobLease(sql, job, settings.leaseMs)).then(
      (held) => {
        if (!held) abort.abort(new ClvClaimLostError());
      },
      // A missed renewal is retried at the next one; the lease outlasts several.
      () => undefined,
    );
  }, settings.renewEveryMs);
  try {
    await refreshCompanyClv(db, job.company_id, {
      signal: abort.signal,
      ...(settings.fit ? { fit: settings.fit } : {}),
      beforeWrite: async (sql) => {
        if (!(await holdsClvJobClaim(sql, job))) throw new ClvClaimLostError();
      },
    });
    // The RFM scores carry the new CLV and the segments' `rfm_cell` rules read them: scored before the segments.
    if (!abort.signal.aborted) {
      await refreshCompanyRfm(db, job.company_id).catch((error: unknown) => {
        log.error({ companyId: job.company_id, code: segmentErrorCode(error) }, 'RFM refresh failed');
      });
    }
    // The segments' figures read the new predictions: the company's refresh goes on with them. A stop or a lost
    // claim ends it between two segments, as it ends a fit; any other failure leaves the CLV written.
    await refreshSegmentCaches(db, job.company_id, abort.signal).catch((error: unknown) => {
      if (abort.signal.aborted) throw error;
      log.error({ companyId: job.company_id, code: segmentErrorCode(error) }, 'segment refresh failed');
    });
    // The kept audiences were counted before the checks this refresh follows: forgotten even when stopping, and
    // those the home dashboard opens on counted again now, so the day's first reader does not wait (the basket's
    // opening item guests are a sum over the item presence rollup).
    const countFailed = (error: unknown) =>
      log.error({ companyId: job.company_id, code: segmentErrorCode(error) }, 'audience count failed');
    const forgotten = await forgetKeptAudiences(db, job.company_id).then(
      () => true,
      (error: unknown) => {
        log.error({ companyId: job.company_id, code: segmentErrorCode(error) }, 'audiences not forgotten');
        return false;
      },
    );
    if (forgotten) await countOpeningAudiences(db, job.company_id, abort.signal).catch(countFailed);
    await db.tenant(job.company_id, (sql) => finishClvJob(sql, job, null));
  } catch (error) {
    const reason: unknown = abort.signal.aborted ? abort.signal.reason : error;
    if (reason instanceof ClvClaimLostError || error instanceof ClvClaimLostError) return;
    if (reason instanceof ClvRunnerStoppingError) {
      await db.tenant(job.company_id, (sql) => releaseClvJob(sql, job)).catch(() => undefined);
      return;
    }
    log.error({ companyId: job.company_id, code: errorCode(error) }, 'CLV refresh failed');
    await db.tenant(job.company_id, (sql) => finishClvJob(sql, job, errorCode(error))).catch(() => undefined);
  } finally {
    clearInterval(renew);
    stop.removeEventListener('abort', onStop);
  }
}

/**
 * Claims the next refresh and runs it; the company refitted (or tried), or null when nothing was waiting. The
 * runner's loop is made of these; tests call it to run exactly one.
 */
export async function runNextClvJob(
  db: Database,
  log: ClvRunnerLog,
  settings: ClvRunnerSettings = DEFAULT_CLV_RUNNER_SETTINGS,
  stop: AbortSignal = new AbortController().signal,
): Promise<number | null> {
  const job = await db.platform((sql) => claimClvJob(sql, settings.leaseMs));
  if (!job) return null;
  await runClaimedJob(db, log, settings, job, stop);
  return job.company_id;
}

/** Builds the runner over a database; it does nothing until `start`. */
export function clvRunner(
  db: Database,
  log: ClvRunnerLog,
  settings: ClvRunnerSettings = DEFAULT_CLV_RUNNER_SETTINGS,
): ClvRunner {
  let stopping = new AbortController();
  let loop: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;

  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, settings.pollMs);
      timer.unref();
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function run(signal: AbortSignal): Promise<void> {
    let scheduledAt = 0;
    while (!signal.aborted) {
      try {
        if (Date.now() - scheduledAt >= settings.scheduleEveryMs) {
          scheduledAt = Date.now();
          await requestDueClvRefreshes(db);
        }
        if ((await runNextClvJob(db, log, settings, signal)) !== null) {
          // Requests get the event loop between two refreshes.
          await nextTick();
          continue;
        }
      } catch (error) {
        log.error({ code: errorCode(error) }, 'CLV runner could not poll');
      }
      if (!signal.aborted) await pause();
    }
  }

  return {
    start() {
      if (loop) return;
      stopping = new AbortController();
      loop = run(stopping.signal).finally(() => {
        loop = null;
      });
    },
    async stop() {
      stopping.abort();
      wakeUp?.();
      await loop;
    },
    wake() {
      wakeUp?.();
    },
  };
}
