import { setImmediate as nextTick, setTimeout as rest } from 'node:timers/promises';
import type { Database, DatabaseKind } from '../db/database.js';
import {
  claimSegmentExport,
  releaseSegmentExport,
  sweepExpiredSegmentExports,
  type ClaimedSegmentExport,
} from '../repositories/segment-exports.repository.js';
import {
  mailFinishedSegmentExport,
  writeSegmentExportTurn,
  type SegmentExportMail,
} from '../services/segment-export-writer.js';

/**
 * The worker that writes background segment exports (docs/segments.md, "Background exports"). The queue is the
 * `segment_exports` table: a worker claims the unfinished export whose last turn is oldest (`FOR UPDATE SKIP
 * LOCKED`, under a lease), writes its next members as one chunk with the progress in one transaction, and lets
 * it go to the back of the line, so exports of different companies take turns. An export whose process died
 * is claimed again once its lease has passed and goes on after the last committed chunk. The same loop sweeps
 * expired exports (their files hold personal data) and mails the chosen user when one is done. Works the same
 * on PGlite and PostgreSQL, in the API process or in `npm run worker`.
 */

/** How the runner works; every value has a default suited to production. */
export interface SegmentExportRunnerSettings {
  /** Members written per turn (one run of the rule set, one chunk, one transaction). */
  turnRows: number;
  /** After each turn the worker rests this many times as long as the turn took (PGlite shares the event loop). */
  restRatio: number;
  /** How often an idle runner looks for work (a trigger in this process also wakes it). */
  pollMs: number;
  /** A turn holds its export this long; one silent for longer was abandoned by its process. */
  leaseMs: number;
  /** How often expired exports are removed. */
  sweepEveryMs: number;
}

/** PostgreSQL: 20,000 members a turn (50 rule runs for a million members); a turn silent for a minute is taken over. */
export const DEFAULT_SEGMENT_EXPORT_RUNNER_SETTINGS: SegmentExportRunnerSettings = {
  turnRows: 20_000,
  restRatio: 0,
  pollMs: 1000,
  leaseMs: 60_000,
  sweepEveryMs: 3600_000,
};

/** On PGlite every statement runs on the event loop: smaller turns and rests, as the import runner does. */
const PGLITE_SETTINGS: Partial<SegmentExportRunnerSettings> = { turnRows: 2000, restRatio: 0.25 };

/** The defaults for a database: smaller turns and rests on PGlite. */
export function segmentExportRunnerDefaults(kind: DatabaseKind): SegmentExportRunnerSettings {
  return kind === 'pglite'
    ? { ...DEFAULT_SEGMENT_EXPORT_RUNNER_SETTINGS, ...PGLITE_SETTINGS }
    : DEFAULT_SEGMENT_EXPORT_RUNNER_SETTINGS;
}

/** Where the runner reports failures: codes and ids only, never rows or addresses. */
export interface SegmentExportRunnerLog {
  error(details: object, message: string): void;
}

/** The runner as the workers' registry and the export service see it. */
export interface SegmentExportRunner {
  start(): void;
  /** Stops after the current turn; an unfinished export waits for the next worker. */
  stop(): Promise<void>;
  /** Wakes the runner now (an export was just queued). */
  wake(): void;
}

/** A code for the log: the database's, or the error's name. */
function codeOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return cause instanceof Error ? cause.name : 'unknown';
}

/** Builds the runner over a database; it does nothing until `start`. Without `mail`, no export is mailed. */
export function segmentExportRunner(
  db: Database,
  log: SegmentExportRunnerLog,
  settings: SegmentExportRunnerSettings = segmentExportRunnerDefaults(db.kind),
  mail: SegmentExportMail | null = null,
): SegmentExportRunner {
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

  /** One turn of a claimed export; the export ends, goes on at its next claim, or was taken over. */
  async function takeTurn(job: ClaimedSegmentExport): Promise<void> {
    try {
      const { outcome } = await writeSegmentExportTurn(db, job, settings.turnRows);
      if (outcome === 'done' && mail) {
        await mailFinishedSegmentExport(db, mail, job.company_id, job.id).catch((error: unknown) =>
          log.error({ exportId: job.id, code: codeOf(error) }, 'segment export mail not sent'),
        );
      }
    } catch (error) {
      // Failed with 'export_failed' already; only the code is logged (errors may quote row values).
      log.error({ exportId: job.id, code: codeOf(error) }, 'segment export failed');
    }
  }

  async function run(): Promise<void> {
    let sweptAt = 0;
    while (!stopping) {
      try {
        if (Date.now() - sweptAt >= settings.sweepEveryMs) {
          sweptAt = Date.now();
          await db.platform((sql) => sweepExpiredSegmentExports(sql));
        }
        const job = await db.platform((sql) => claimSegmentExport(sql, settings.leaseMs));
        if (job) {
          if (stopping) {
            await db.tenant(job.company_id, (sql) => releaseSegmentExport(sql, job));
            break;
          }
          const started = performance.now();
          await takeTurn(job);
          // Other requests (and, on PGlite, their statements) get the event loop between two turns.
          if (settings.restRatio > 0) await rest((performance.now() - started) * settings.restRatio);
          else await nextTick();
          continue;
        }
      } catch (error) {
        log.error({ code: codeOf(error) }, 'segment export runner could not poll');
      }
      if (!stopping) await pause();
    }
  }

  return {
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
  };
}
