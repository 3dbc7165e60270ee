import type { CustomerKind } from '../../src/schemas/customers.js';
import type { Database } from '../db/database.js';
import {
  createImportJob,
  discardImportJob,
  queueImportJob,
  stageImportRows,
  type StagedRow,
} from '../repositories/imports.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { mapColumns, type ColumnMap } from './columns.js';
import { readCsvRecords, type CsvRecord } from './csv-reader.js';
import { checkRow } from './row-rules.js';
import { utf8Text, type ByteCounter } from './text-source.js';

/**
 * The receiving half of an import: bytes → UTF-8 text → CSV records → checked rows → staged in batches
 * under a job in 'receiving'. The header is read before the job exists, so a file refused for its columns
 * leaves nothing behind; a file refused later (too large, binary) has its job and staged rows removed.
 * Merging the staged rows is the job runner's half (server/jobs/import-runner.ts).
 */

/** Rows staged per transaction while a file streams in. */
const STAGE_BATCH_ROWS = 2000;
/** A slow upload still stages (and so beats its heartbeat) at least this often, in milliseconds. */
const HEARTBEAT_MS = 2000;

/** Raised for a file with no header line. */
export class EmptyFileError extends Error {
  constructor() {
    super('The file is empty; its first line must name the columns');
    this.name = 'EmptyFileError';
  }
}

/** Raised for a header without a column the kind requires. */
export class MissingColumnsError extends Error {
  constructor(readonly columns: readonly string[]) {
    super(`The file has no ${columns.join(', ')} column`);
    this.name = 'MissingColumnsError';
  }
}

/** One uploaded file to receive. */
export interface IncomingFile {
  kind: CustomerKind;
  fileName: string;
  source: AsyncIterable<Uint8Array | string>;
  maxBytes: number;
}

/** What was received: the job now queued for merging. */
export interface ReceivedFile {
  jobId: number;
  bytes: number;
  read: number;
}

/** Reads records until the header, returning it with any records read past it. */
async function readHeader(
  batches: AsyncIterator<CsvRecord[]>,
): Promise<{ header: CsvRecord; rest: CsvRecord[] }> {
  for (;;) {
    const next = await batches.next();
    if (next.done) throw new EmptyFileError();
    const [header, ...rest] = next.value;
    if (header) return { header, rest };
  }
}

/**
 * Streams a file into a new job's staging rows and queues the job. `receiving` holds the job id while the
 * file streams, so this process's runner never takes the upload for an abandoned one.
 */
export async function receiveFile(
  db: Database,
  scope: WriteScope,
  file: IncomingFile,
  receiving: Set<number>,
): Promise<ReceivedFile> {
  const counter: ByteCounter = { bytes: 0 };
  const batches = readCsvRecords(utf8Text(file.source, file.maxBytes, counter))[Symbol.asyncIterator]();
  const { header, rest } = await readHeader(batches);
  const columns: ColumnMap = mapColumns(file.kind, header.fields);
  if (columns.missing.length > 0) throw new MissingColumnsError(columns.missing);

  const jobId = await db.tenant(scope.companyId, (sql) =>
    createImportJob(sql, scope, {
      kind: file.kind,
      fileName: file.fileName,
      header: header.fields,
    }),
  );
  receiving.add(jobId);
  try {
    let seq = 0;
    let staged: StagedRow[] = [];
    let lastStaged = Date.now();
    const stage = async () => {
      await db.tenant(scope.companyId, (sql) =>
        stageImportRows(sql, scope.companyId, jobId, staged, counter.bytes),
      );
      staged = [];
      lastStaged = Date.now();
    };
    const take = async (records: readonly CsvRecord[]) => {
      for (const record of records) {
        const checked = checkRow(file.kind, columns, record);
        seq += 1;
        staged.push({
          seq,
          line: checked.line,
          fields: checked.fields,
          raw: checked.raw,
          problems: checked.problems.length > 0 ? checked.problems : null,
        });
        if (staged.length >= STAGE_BATCH_ROWS) await stage();
      }
      if (Date.now() - lastStaged >= HEARTBEAT_MS) await stage();
    };

    await take(rest);
    for (let next = await batches.next(); !next.done; next = await batches.next()) await take(next.value);
    await stage();
    await db.tenant(scope.companyId, (sql) => queueImportJob(sql, scope.companyId, jobId, counter.bytes));
    return { jobId, bytes: counter.bytes, read: seq };
  } catch (error) {
    // Nothing of a refused or broken upload stays: no job, no staged rows.
    await db
      .tenant(scope.companyId, (sql) => discardImportJob(sql, scope.companyId, jobId))
      .catch(() => undefined);
    throw error;
  } finally {
    receiving.delete(jobId);
  }
}
