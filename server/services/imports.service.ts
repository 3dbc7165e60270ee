import { LIMITS } from '../../src/schemas/constants.js';
import type { ImportJob, ImportKind } from '../../src/schemas/imports.js';
import type { Database } from '../db/database.js';
import { csvLine } from '../http/csv-writer.js';
import { ApiError, fieldFailure, invalid, notFound } from '../http/errors.js';
import { CsvRecordTooLongError } from '../imports/csv-reader.js';
import { EmptyFileError, MissingColumnsError, receiveFile } from '../imports/pipeline.js';
import { UploadRefusedError } from '../imports/text-source.js';
import type { ImportRunner } from '../jobs/import-runner.js';
import {
  INTERRUPTED_UPLOAD,
  findImportJob,
  listImportRowErrors,
  rejectedRowsAfter,
  type ImportJobRow,
  type RejectedRow,
} from '../repositories/imports.repository.js';
import type { WriteScope } from '../repositories/scope.js';

/** Limits of uploads; the defaults are `LIMITS.uploadMaxBytes` and `LIMITS.uploadWaitMs`. */
export interface UploadSettings {
  maxBytes: number;
  /** How long the upload call (from its start) waits for the merge before answering 202 to be followed. */
  waitMs: number;
}

/** The upload limits of the product. */
export const DEFAULT_UPLOAD_SETTINGS: UploadSettings = {
  maxBytes: LIMITS.uploadMaxBytes,
  waitMs: LIMITS.uploadWaitMs,
};

/** One file as the upload route hands it over. */
export interface Upload {
  kind: ImportKind;
  fileName: string;
  source: AsyncIterable<Uint8Array | string>;
}

/** How often an upload waiting for its merge reads the job again (a worker in another process may run it). */
const WAIT_POLL_MS = 250;

/** Rejected rows read per query while the download streams. */
const REJECTED_PAGE_ROWS = 2000;

/** The job as the API shows it, with its first row errors. */
export async function presentImportJob(db: Database, row: ImportJobRow): Promise<ImportJob> {
  const errors = await db.tenant(row.company_id, (sql) =>
    listImportRowErrors(sql, row.company_id, row.id, LIMITS.importErrorPreview),
  );
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    file_name: row.file_name,
    bytes: Number(row.bytes),
    processed: row.processed,
    read: row.read,
    imported: row.imported,
    updated: row.updated,
    duplicates: row.duplicates,
    invalid: row.invalid,
    checks:
      row.kind === 'checks'
        ? { created: row.checks_created, unchanged: row.checks_unchanged, rejected: row.checks_rejected }
        : null,
    errors,
    failure: row.failure,
    failure_code: row.failure === null ? null : row.failure === INTERRUPTED_UPLOAD ? 'interrupted' : 'failed',
    rejected_url: `/api/imports/${row.id}/rejected/`,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at ? row.finished_at.toISOString() : null,
  };
}

/** A refusal of the file as a whole, as the client sees it. */
function refusal(error: unknown): unknown {
  if (error instanceof UploadRefusedError) {
    return error.reason === 'too_large'
      ? new ApiError(413, 'file_too_large', error.message)
      : invalid({ file: fieldFailure('not_valid', error.message) }, error.message);
  }
  if (error instanceof MissingColumnsError) {
    const fields = Object.fromEntries(
      error.columns.map((column) => [column, fieldFailure('required', `The column ${column} is missing`)]),
    );
    return invalid(fields, `${error.message}; nothing was imported`);
  }
  if (error instanceof EmptyFileError || error instanceof CsvRecordTooLongError) {
    return invalid({ file: fieldFailure('not_valid', error.message) }, error.message);
  }
  return error;
}

/** One rejected row of the download: its line, why, then its cells as written. */
function rejectedLine(row: RejectedRow): string {
  const reason = row.problems.map((problem) => problem.message).join('; ');
  return csvLine([row.line, reason, ...row.raw]);
}

/** CSV uploads of subscribers and guests, their progress and their rejected rows. */
export interface ImportsService {
  /** Receives a file and waits a little for its merge; `finished` says whether it ended in time. */
  upload(scope: WriteScope, upload: Upload): Promise<{ job: ImportJob; finished: boolean }>;
  get(companyId: number, id: number): Promise<ImportJob>;
  /** The rejected rows as CSV lines (header first), read from the database page by page. */
  rejected(companyId: number, id: number): Promise<{ job: ImportJob; lines: AsyncIterable<string> }>;
}

/** The imports rules over a database and the job runner that merges the files. */
export function importsService(
  db: Database,
  runner: ImportRunner,
  settings: UploadSettings = DEFAULT_UPLOAD_SETTINGS,
): ImportsService {
  const load = async (companyId: number, id: number) => {
    const row = await db.tenant(companyId, (sql) => findImportJob(sql, companyId, id));
    if (!row) throw notFound('Import');
    return row;
  };

  /**
   * The job once it ended, or as it stands at `deadline`. This process's runner says at once when it finishes
   * the job; a worker elsewhere is seen by reading the job again every `WAIT_POLL_MS`.
   */
  const waitForEnd = async (companyId: number, id: number, deadline: number) => {
    for (;;) {
      const row = await load(companyId, id);
      const left = deadline - Date.now();
      if (row.status === 'done' || row.status === 'failed' || left <= 0) return row;
      await runner.waitFor(id, Math.min(left, WAIT_POLL_MS));
    }
  };

  return {
    async upload(scope, upload) {
      // The wait counts from the call's start: a file that took long to store is answered as soon as it is.
      const deadline = Date.now() + settings.waitMs;
      let received;
      try {
        received = await receiveFile(db, scope, { ...upload, maxBytes: settings.maxBytes }, runner.receiving);
      } catch (error) {
        throw refusal(error);
      }
      runner.wake();
      const row = await waitForEnd(scope.companyId, received.jobId, deadline);
      const job = await presentImportJob(db, row);
      return { job, finished: job.status === 'done' || job.status === 'failed' };
    },
    async get(companyId, id) {
      return presentImportJob(db, await load(companyId, id));
    },
    async rejected(companyId, id) {
      const row = await load(companyId, id);
      async function* lines(): AsyncGenerator<string> {
        yield csvLine(['line', 'reason', ...row.header]);
        let after = 0;
        for (;;) {
          const page = await db.tenant(companyId, (sql) =>
            rejectedRowsAfter(sql, companyId, id, after, REJECTED_PAGE_ROWS),
          );
          if (page.length === 0) return;
          yield page.map(rejectedLine).join('');
          after = page[page.length - 1]!.seq;
        }
      }
      return { job: await presentImportJob(db, row), lines: lines() };
    },
  };
}
