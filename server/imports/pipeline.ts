import type { ImportKind } from '../../src/schemas/imports.js';
import type { Database } from '../db/database.js';
import {
  createImportJob,
  discardImportJob,
  queueImportJob,
  storeImportChunk,
} from '../repositories/imports.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { mapColumns, type ColumnMap } from './columns.js';
import { readCsvRecords, type CsvRecord } from './csv-reader.js';
import { utf8Text, type ByteCounter } from './text-source.js';

/**
 * The receiving half of an import, done while the upload call waits: bytes → UTF-8 text → CSV records, only to
 * refuse a file that is not a CSV of the kind (no header, missing columns, binary, not UTF-8, too large, a
 * runaway quote) and to count its data rows, while its text is stored as it comes, in chunks under a job in
 * 'receiving'. No row is checked or staged here, so the call answers as soon as the body has arrived whatever
 * the file's size. The header is read before the job exists, so a file refused for its columns leaves nothing
 * behind; a file refused later has its job and stored text removed. Checking and staging the rows
 * (./staging.ts) and merging them are the job workers' half (server/jobs/import-runner.ts).
 */

/** Characters stored per chunk row (and per transaction) while a file streams in. */
const CHUNK_CHARS = 1024 * 1024;
/** A slow upload still stores (and so beats its heartbeat) at least this often, in milliseconds. */
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
  kind: ImportKind;
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
export async function readHeader(
  batches: AsyncIterator<CsvRecord[]>,
): Promise<{ header: CsvRecord; rest: CsvRecord[] }> {
  for (;;) {
    const next = await batches.next();
    if (next.done) throw new EmptyFileError();
    const [header, ...rest] = next.value;
    if (header) return { header, rest };
  }
}

/** Passes the text through unchanged while keeping it for `keep`, which stores it in chunks. */
async function* teeText(source: AsyncIterable<string>, keep: (text: string) => void): AsyncGenerator<string> {
  for await (const text of source) {
    keep(text);
    yield text;
  }
}

/**
 * Stores a file's text under a new job while checking it and counting its rows, then queues the job.
 * `receiving` holds the job id while the file streams, so this process's runner never gives the upload up as
 * abandoned.
 */
export async function receiveFile(
  db: Database,
  scope: WriteScope,
  file: IncomingFile,
  receiving: Set<number>,
): Promise<ReceivedFile> {
  const counter: ByteCounter = { bytes: 0 };
  let pending: string[] = [];
  let pendingChars = 0;
  // The text is stored as checked: UTF-8 without its byte order mark, cut anywhere between characters.
  const text = teeText(utf8Text(file.source, file.maxBytes, counter), (piece) => {
    pending.push(piece);
    pendingChars += piece.length;
  });
  const batches = readCsvRecords(text)[Symbol.asyncIterator]();
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
    let read = rest.length;
    let chunkSeq = 0;
    let lastStored = Date.now();
    // One chunk is written while the next is read and checked; chunks are written one at a time, in order.
    let writing: Promise<void> = Promise.resolve();
    const store = async (force: boolean) => {
      if (!force && pendingChars < CHUNK_CHARS && Date.now() - lastStored < HEARTBEAT_MS) return;
      const chunk = pendingChars > 0 ? { seq: ++chunkSeq, text: pending.join('') } : null;
      const totals = { bytes: counter.bytes, read };
      pending = [];
      pendingChars = 0;
      lastStored = Date.now();
      await writing;
      writing = db.tenant(scope.companyId, (sql) =>
        storeImportChunk(sql, scope.companyId, jobId, chunk, totals),
      );
      // Its failure is thrown where it is next awaited; until then it must not count as unhandled.
      writing.catch(() => undefined);
    };

    try {
      await store(false);
      for (let next = await batches.next(); !next.done; next = await batches.next()) {
        read += next.value.length;
        await store(false);
      }
      await store(true);
    } finally {
      // Whatever happened to the body, no chunk may still be on its way when the job is queued or removed.
      await writing.catch(() => undefined);
    }
    await writing;
    await db.tenant(scope.companyId, (sql) =>
      queueImportJob(sql, scope.companyId, jobId, { bytes: counter.bytes, read }),
    );
    return { jobId, bytes: counter.bytes, read };
  } catch (error) {
    // Nothing of a refused or broken upload stays: no job, no stored text.
    await db
      .tenant(scope.companyId, (sql) => discardImportJob(sql, scope.companyId, jobId))
      .catch(() => undefined);
    throw error;
  } finally {
    receiving.delete(jobId);
  }
}
