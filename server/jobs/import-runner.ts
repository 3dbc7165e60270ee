import { EventEmitter } from 'node:events';
import type { Database } from '../db/database.js';
import {
  claimImportJob,
  failAbandonedUploads,
  failImportJob,
  mergeImportBatch,
  purgeFinishedImportRows,
  requeueImportJob,
  type ClaimedJob,
} from '../repositories/imports.repository.js';

/**
 * The in-process worker that merges uploaded CSV files. The queue is the `import_jobs` table itself: a job
 * is claimed with `FOR UPDATE SKIP LOCKED`, merged batch by batch (each batch commits its rows, outcomes and
 * progress together), and a job whose process died is picked up again from its last committed batch once
 * its heartbeat is older than `staleAfterMs`. Works the same on PGlite and PostgreSQL, with any number of
 * server processes.
 */

/** How the runner works; every value has a default suited to production. */
export interface ImportRunnerSettings {
  /** Staged rows merged per transaction. */
  batchRows: number;
  /** How often an idle runner looks for work (an upload in this process also wakes it at once). */
  pollMs: number;
  /** A receiving or running job whose heartbeat is older than this was abandoned by its process. */
  staleAfterMs: number;
}

/** Production defaults: batches of 5,000 rows; a job silent for 15 seconds is taken over. */
export const DEFAULT_IMPORT_RUNNER_SETTINGS: ImportRunnerSettings = {
  batchRows: 5000,
  pollMs: 1000,
  staleAfterMs: 15_000,
};

/** Days a finished job's rejected rows stay downloadable before they are removed. */
export const REJECTED_ROWS_RETENTION_DAYS = 30;
/** How often the runner removes rejected rows past their retention, in milliseconds. */
const PURGE_EVERY_MS = 3600_000;

/** What the job's failure says when merging broke; never a row's contents. */
export const MERGE_FAILED = 'The import could not be completed; no further rows were merged';

/** Where the runner reports failures (the app's logger); only codes and ids, never row contents. */
export interface ImportRunnerLog {
  error(details: object, message: string): void;
}

/** The runner as the app and the imports service see it. */
export interface ImportRunner {
  start(): void;
  /** Stops after the current batch; a job in progress goes back to the queue for the next start. */
  stop(): Promise<void>;
  /** Wakes the runner now (a job was just queued). */
  wake(): void;
  /** Resolves when this process finishes the job, or after `timeoutMs`, whichever comes first. */
  waitFor(jobId: number, timeoutMs: number): Promise<void>;
  /** Uploads this process is receiving right now: never given up as abandoned. */
  readonly receiving: Set<number>;
}

/** Builds the runner over a database; it does nothing until `start`. */
export function importRunner(
  db: Database,
  log: ImportRunnerLog,
  settings: ImportRunnerSettings = DEFAULT_IMPORT_RUNNER_SETTINGS,
): ImportRunner {
  const finished = new EventEmitter();
  finished.setMaxListeners(0);
  const receiving = new Set<number>();
  let stopping = false;
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

  /** Merges one claimed job to its end, or until the runner stops. */
  async function runJob(job: ClaimedJob): Promise<void> {
    try {
      while (!stopping) {
        // One batch per transaction, so a crash loses at most the batch being merged.
        const done = await db.tenant(job.company_id, (sql) =>
          mergeImportBatch(sql, job.company_id, job.id, settings.batchRows),
        );
        if (done) {
          finished.emit(String(job.id));
          return;
        }
      }
      await db.tenant(job.company_id, (sql) => requeueImportJob(sql, job.company_id, job.id));
    } catch (error) {
      // The error may quote row values (constraint details), so only its code is logged.
      log.error({ jobId: job.id, code: (error as { code?: string }).code }, 'import job failed');
      await db
        .tenant(job.company_id, (sql) => failImportJob(sql, job.company_id, job.id, MERGE_FAILED))
        .catch(() => undefined);
      finished.emit(String(job.id));
    }
  }

  async function run(): Promise<void> {
    let purgedAt = 0;
    while (!stopping) {
      try {
        if (Date.now() - purgedAt >= PURGE_EVERY_MS) {
          purgedAt = Date.now();
          await db.platform((sql) => purgeFinishedImportRows(sql, REJECTED_ROWS_RETENTION_DAYS));
        }
        await db.platform((sql) => failAbandonedUploads(sql, settings.staleAfterMs, [...receiving]));
        const job = await db.platform((sql) => claimImportJob(sql, settings.staleAfterMs));
        if (job) {
          await runJob(job);
          continue;
        }
      } catch (error) {
        log.error({ code: (error as { code?: string }).code }, 'import runner could not poll');
      }
      if (!stopping) await pause();
    }
  }

  return {
    receiving,
    start() {
      stopping = false;
      loop ??= run().finally(() => {
        loop = null;
      });
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await loop;
    },
    wake() {
      wakeUp?.();
    },
    waitFor(jobId, timeoutMs) {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          finished.off(String(jobId), done);
          resolve();
        }, timeoutMs);
        timer.unref();
        finished.once(String(jobId), done);
      });
    },
  };
}
