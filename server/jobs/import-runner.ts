import { EventEmitter } from 'node:events';
import { setImmediate as nextTick, setTimeout as rest } from 'node:timers/promises';
import type { Database, DatabaseKind } from '../db/database.js';
import { fileStager } from '../imports/staging.js';
import {
  claimImportJob,
  failAbandonedUploads,
  failImportJob,
  ImportJobGoneError,
  mergeImportBatch,
  purgeFinishedImportRows,
  releaseImportJob,
  type ClaimedJob,
} from '../repositories/imports.repository.js';
import { afterImportFinished } from '../services/clv-jobs.service.js';
import { forgetKeptAudiences } from '../services/kept-audiences.js';

/**
 * The worker that turns uploaded CSV files into subscribers and guests. The queue is the `import_jobs` table
 * itself. A job is worked in turns: a worker claims the job that has waited longest (`FOR UPDATE SKIP
 * LOCKED`), does one batch — stages the next rows of the stored file, or, once all are staged, merges the
 * next staged rows — commits it with the job's progress, and lets the job go to the back of the line. So
 * jobs of different companies take turns, and a job whose process died is picked up again from its last
 * committed batch (staging reads on from the resume point it committed) once its heartbeat is older than
 * `staleAfterMs`. A worker whose job was taken over meanwhile finds its batch refused and drops the turn,
 * leaving the job to the other; it never fails it. The event loop is yielded between turns:
 * on PGlite (which runs in this process) no other request waits longer than one batch. Works the same on
 * PGlite and PostgreSQL, in the API process or in `npm run worker` (server/worker.ts), with any number of them.
 */

/** How the runner works; every value has a default suited to production. */
export interface ImportRunnerSettings {
  /** Staged rows merged per transaction (one turn). */
  batchRows: number;
  /** Rows of the stored file checked and staged per transaction (one turn). */
  stageRows: number;
  /**
   * After each turn the worker rests this many times as long as the turn took (0: not at all). On PGlite,
   * whose statements run on the event loop, resting as long as it worked leaves requests at least half of
   * the database.
   */
  restRatio: number;
  /** How often an idle runner looks for work (an upload in this process also wakes it at once). */
  pollMs: number;
  /** A receiving or running job whose heartbeat is older than this was abandoned by its process. */
  staleAfterMs: number;
}

/**
 * Production defaults on PostgreSQL: turns of 5,000 rows (the database works apart from the event loop, so
 * larger batches only mean fewer round trips); a job silent for 15 seconds is taken over.
 */
export const DEFAULT_IMPORT_RUNNER_SETTINGS: ImportRunnerSettings = {
  batchRows: 5000,
  stageRows: 5000,
  restRatio: 0,
  pollMs: 1000,
  staleAfterMs: 15_000,
};

/**
 * On PGlite every statement runs on the event loop, and a request waits for the batch in progress: turns of
 * 500 rows hold it for 50–100 ms (measured with `npm run bench`), and the worker rests a quarter as long between
 * turns (50k rows: guest list p95 about 170 ms during the import, well under 500 ms; resting as long as each turn
 * gave 95 ms at 0.7× the import speed).
 */
const PGLITE_SETTINGS: Partial<ImportRunnerSettings> = { batchRows: 500, stageRows: 500, restRatio: 0.25 };

/** The defaults for a database: smaller turns and rests on PGlite. */
export function importRunnerDefaults(kind: DatabaseKind): ImportRunnerSettings {
  return kind === 'pglite'
    ? { ...DEFAULT_IMPORT_RUNNER_SETTINGS, ...PGLITE_SETTINGS }
    : DEFAULT_IMPORT_RUNNER_SETTINGS;
}

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
  /** Stops after the current turn; a job in progress waits, released, for the next worker. */
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
  settings: ImportRunnerSettings = importRunnerDefaults(db.kind),
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

  const stager = fileStager(db);

  /** One turn on a claimed job: a batch staged or merged. The job is released unless it ended. */
  async function takeTurn(job: ClaimedJob): Promise<void> {
    let ended = false;
    try {
      const staging = await stager.stageNext(job.company_id, job.id, settings.stageRows);
      // One batch per transaction, so a crash loses at most the batch at hand.
      if (staging === 'done') ended = true;
      else if (staging === 'complete') {
        ended = await db.tenant(job.company_id, (sql) =>
          mergeImportBatch(sql, job.company_id, job.id, settings.batchRows),
        );
      }
    } catch (error) {
      if (error instanceof ImportJobGoneError) {
        // Another worker took the job over (or it ended) while this turn ran: the turn is dropped, the job left to it.
        stager.forget(job.id);
        return;
      }
      // The error may quote row values (constraint details), so only its code is logged.
      log.error({ jobId: job.id, code: (error as { code?: string }).code }, 'import job failed');
      await db
        .tenant(job.company_id, (sql) => failImportJob(sql, job.company_id, job.id, MERGE_FAILED))
        .catch(() => undefined);
      ended = true;
    }
    if (ended) {
      stager.forget(job.id);
      // An import that stored many checks asks for a CLV refit (docs/clv.md).
      await afterImportFinished(db, job.company_id).catch((error: unknown) =>
        log.error({ jobId: job.id, code: (error as { code?: string }).code }, 'CLV refresh not asked for'),
      );
      // Imported subscribers, guests and checks move the kept audiences: the next call counts them again.
      await forgetKeptAudiences(db, job.company_id).catch((error: unknown) =>
        log.error({ jobId: job.id, code: (error as { code?: string }).code }, 'audiences not forgotten'),
      );
      finished.emit(String(job.id));
      return;
    }
    await db.tenant(job.company_id, (sql) => releaseImportJob(sql, job.company_id, job.id));
  }

  async function run(): Promise<void> {
    let purgedAt = 0;
    let abandonedCheckedAt = 0;
    while (!stopping) {
      try {
        if (Date.now() - purgedAt >= PURGE_EVERY_MS) {
          purgedAt = Date.now();
          await db.platform((sql) => purgeFinishedImportRows(sql, REJECTED_ROWS_RETENTION_DAYS));
        }
        if (Date.now() - abandonedCheckedAt >= settings.pollMs) {
          abandonedCheckedAt = Date.now();
          await db.platform((sql) => failAbandonedUploads(sql, settings.staleAfterMs, [...receiving]));
        }
        const job = await db.platform((sql) => claimImportJob(sql, settings.staleAfterMs));
        if (job) {
          const started = performance.now();
          await takeTurn(job);
          // Other requests (and, on PGlite, their statements) get the event loop between two turns.
          if (settings.restRatio > 0) await rest((performance.now() - started) * settings.restRatio);
          else await nextTick();
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
