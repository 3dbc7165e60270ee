import type { Database } from '../db/database.js';
import {
  beatImportJob,
  findStagingState,
  ImportJobGoneError,
  mergeSubscriberRows,
  readImportChunk,
  stageImportRows,
  type StagedRow,
  type StagingResumePoint,
} from '../repositories/imports.repository.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CustomerKind } from '../../src/schemas/customers.js';
import { MAX_LINES_PER_CHECK } from '../../src/schemas/pos-checks.js';
import { mergeCheckBatch } from './check-merge.js';
import { groupKey } from './check-rows.js';
import { mapColumns, type ColumnMap } from './columns.js';
import { readCsvRecords, type CsvRecord } from './csv-reader.js';
import { readHeader } from './pipeline.js';
import { checkRow } from './row-rules.js';

/**
 * The job workers' first half of an import: the stored file (./pipeline.ts) is read chunk by chunk, every data
 * row checked (./row-rules.ts) and staged into `import_rows`, a batch per turn. Each staged batch commits the
 * point in the file where it stopped (chunk, character, line), so whichever worker takes the next turn reads on
 * from there; a job's reader is also kept between its turns in this process. A job staged before resume points
 * were kept is read from the start once, skipping its staged rows. No row is staged twice.
 */

/** Records skipped between two heartbeats while a job without a resume point is read again from its start. */
const SKIP_SLICE = 10_000;

/** A job's file being read: the data records after the header, and how many of them were handed out. */
interface FileReader {
  records: AsyncIterator<CsvRecord[]>;
  buffered: CsvRecord[];
  position: number;
  /** The seq of the chunk this read started at: a record's `end.chunk` counts from it. */
  firstChunk: number;
  /** The next batch, read and checked while the database merged the one before (its records are taken). */
  ahead: CheckedBatch | null;
}

/** A batch of records read from the file and checked, ready to stage or merge. */
interface CheckedBatch {
  /** Rows of the file before this batch. */
  after: number;
  records: CsvRecord[];
  rows: StagedRow[];
  resume: StagingResumePoint;
}

/** Rows checked between two yields of the event loop while the next batch is checked ahead. */
const CHECK_SLICE = 250;

/** The stored chunks of a job's file in order from `firstSeq`, each read in its own short transaction. */
async function* storedText(
  db: Database,
  companyId: number,
  jobId: number,
  firstSeq: number,
): AsyncGenerator<string> {
  for (let seq = firstSeq; ; seq++) {
    const chunk = await db.tenant(companyId, (sql) => readImportChunk(sql, companyId, jobId, seq));
    if (!chunk) return;
    yield chunk;
  }
}

/** The next `count` data records of the file (fewer at its end). */
async function take(reader: FileReader, count: number): Promise<CsvRecord[]> {
  while (reader.buffered.length < count) {
    const next = await reader.records.next();
    if (next.done) break;
    reader.buffered.push(...next.value);
  }
  const taken = reader.buffered.splice(0, count);
  reader.position += taken.length;
  return taken;
}

/**
 * The next `count` records of a checks file, and then any that follow of the last record's check (up to a
 * check's most lines more), so no check is split between two batches.
 */
async function takeWholeChecks(reader: FileReader, count: number, columns: ColumnMap): Promise<CsvRecord[]> {
  const records = await take(reader, count);
  const last = records.at(-1);
  if (!last) return records;
  const key = groupKey(last, columns);
  for (let extra = 0; extra <= MAX_LINES_PER_CHECK; extra++) {
    const [next] = await take(reader, 1);
    if (!next) break;
    if (groupKey(next, columns) !== key) {
      reader.buffered.unshift(next);
      reader.position -= 1;
      break;
    }
    records.push(next);
  }
  return records;
}

/**
 * Opens a job's stored file where its staging stopped: at the resume point, or past its header and the first
 * `skip` data records (beating the job's heartbeat as it skips, so a long re-read is not taken for a dead worker).
 */
async function openReader(
  db: Database,
  companyId: number,
  jobId: number,
  skip: number,
  resume: StagingResumePoint | null,
): Promise<FileReader> {
  // The text was checked (size, UTF-8, no binary) on upload.
  if (resume && skip > 0) {
    const text = storedText(db, companyId, jobId, resume.chunk);
    const records = readCsvRecords(text, undefined, resume)[Symbol.asyncIterator]();
    return { records, buffered: [], position: skip, firstChunk: resume.chunk, ahead: null };
  }
  const records = readCsvRecords(storedText(db, companyId, jobId, 1))[Symbol.asyncIterator]();
  const { rest } = await readHeader(records);
  const reader: FileReader = { records, buffered: rest, position: 0, firstChunk: 1, ahead: null };
  // Rows staged in an earlier turn are skipped in slices, never held all at once.
  while (reader.position < skip) {
    await take(reader, Math.min(SKIP_SLICE, skip - reader.position));
    if (!(await db.tenant(companyId, (sql) => beatImportJob(sql, companyId, jobId)))) {
      throw new ImportJobGoneError();
    }
  }
  return reader;
}

/** Stages the rows of the stored files, keeping each job's reader between its turns. */
export interface FileStager {
  /**
   * Checks the job's next `batchRows` rows and, in one transaction, merges them (a subscriber file: 'done' when
   * they were its last, else 'staged') or stages them (a guest file, or a subscriber file staged before
   * subscriber files merged straight from their batches: 'staged'); 'complete' (having done nothing) when every
   * row of the file is staged already.
   */
  stageNext(companyId: number, jobId: number, batchRows: number): Promise<'staged' | 'complete' | 'done'>;
  /** Lets go of a job's reader (the job finished or failed). */
  forget(jobId: number): void;
}

/** Raised when a job's stored file ends before the rows counted on upload. */
function fileEndedEarly(): Error {
  return new Error('The stored file holds fewer rows than were counted on upload');
}

/** Where the reader's next batch starts: after the batch checked ahead was taken, before it. */
function nextRow(reader: FileReader): number {
  return reader.ahead ? reader.ahead.after : reader.position;
}

/** Gives the records of a batch checked ahead back to the reader (a turn asked for another size). */
function putBack(reader: FileReader): void {
  if (!reader.ahead) return;
  reader.buffered.unshift(...reader.ahead.records);
  reader.position -= reader.ahead.records.length;
  reader.ahead = null;
}

/**
 * Takes and checks the reader's next `count` records (the rows after the first `after`), yielding the event loop
 * every CHECK_SLICE rows when `sliced` (so a transaction in flight sends its next statement without waiting).
 * Null when the file has no more records.
 */
async function checkNext(
  reader: FileReader,
  kind: CustomerKind,
  columns: ColumnMap,
  after: number,
  count: number,
  sliced: boolean,
): Promise<CheckedBatch | null> {
  const records = await take(reader, count);
  const last = records.at(-1);
  if (!last) return null;
  const rows: StagedRow[] = [];
  for (const [index, record] of records.entries()) {
    if (sliced && index > 0 && index % CHECK_SLICE === 0) await nextTurn();
    const checked = checkRow(kind, columns, record);
    rows.push({
      seq: after + index + 1,
      line: checked.line,
      fields: checked.fields,
      raw: checked.raw,
      problems: checked.problems.length > 0 ? checked.problems : null,
    });
  }
  return { after, records, rows, resume: { ...last.end, chunk: reader.firstChunk + last.end.chunk } };
}

/** A stager over the database; readers live in this process only. */
export function fileStager(db: Database): FileStager {
  const readers = new Map<number, FileReader>();

  /** A checks file's next batch of whole checks, merged straight into the checks (./check-merge.ts). */
  async function stageChecks(
    reader: FileReader,
    jobId: number,
    companyId: number,
    columns: ColumnMap,
    count: number,
    staged: number,
  ): Promise<'staged' | 'done'> {
    const records = await takeWholeChecks(reader, count, columns);
    const last = records.at(-1);
    try {
      if (!last) throw fileEndedEarly();
      const resume = { ...last.end, chunk: reader.firstChunk + last.end.chunk };
      const done = await mergeCheckBatch(db, companyId, jobId, columns, records, staged, resume);
      if (done) readers.delete(jobId);
      return done ? 'done' : 'staged';
    } catch (error) {
      readers.delete(jobId);
      throw error;
    }
  }

  return {
    async stageNext(companyId, jobId, batchRows) {
      const job = await db.tenant(companyId, (sql) => findStagingState(sql, companyId, jobId));
      if (!job || job.staged >= job.read) {
        readers.delete(jobId);
        return 'complete';
      }
      let reader = readers.get(jobId);
      // Another process staged rows meanwhile (or none was open): read on from where the last batch stopped.
      if (!reader || nextRow(reader) !== job.staged) {
        reader = await openReader(db, companyId, jobId, job.staged, job.resume);
        readers.set(jobId, reader);
      }
      const columns = mapColumns(job.kind, job.header);
      const count = Math.min(batchRows, job.read - job.staged);
      if (job.kind === 'checks')
        return await stageChecks(reader, jobId, companyId, columns, count, job.staged);
      if (reader.ahead && reader.ahead.rows.length !== count) putBack(reader);
      const batch = reader.ahead ?? (await checkNext(reader, job.kind, columns, job.staged, count, false));
      reader.ahead = null;
      if (!batch) {
        readers.delete(jobId);
        const now = await db.tenant(companyId, (sql) => findStagingState(sql, companyId, jobId));
        // Another worker staged the last rows (and removed the file) meanwhile: this turn is simply lost.
        if (now?.staged !== job.staged) throw new ImportJobGoneError();
        throw fileEndedEarly();
      }
      const { rows, resume } = batch;
      // Guests are matched against the company's guests once for the whole file, so they are staged first.
      const direct = job.kind === 'subscriber' && job.processed === job.staged;
      try {
        if (!direct) {
          await db.tenant(companyId, (sql) =>
            stageImportRows(sql, companyId, jobId, rows, job.staged, resume),
          );
          return 'staged';
        }
        const merging = db.tenant(companyId, (sql) =>
          mergeSubscriberRows(sql, companyId, jobId, rows, job.staged, resume),
        );
        // While the database merges this batch, the next one is read and checked: on PostgreSQL the two run
        // side by side (on PGlite, which shares this thread, they simply take turns).
        const after = job.staged + rows.length;
        const nextCount = Math.min(batchRows, job.read - after);
        const checking =
          nextCount > 0
            ? checkNext(reader, job.kind, columns, after, nextCount, true).then(
                (ahead) => ahead,
                () => null,
              )
            : Promise.resolve(null);
        const [done, ahead] = await Promise.all([merging, checking]);
        if (done) readers.delete(jobId);
        else if (ahead) reader.ahead = ahead;
        // A failed read ahead leaves the reader mid-file: the next turn opens it again at the resume point.
        else if (nextCount > 0) readers.delete(jobId);
        return done ? 'done' : 'staged';
      } catch (error) {
        readers.delete(jobId);
        throw error;
      }
    },
    forget(jobId) {
      readers.delete(jobId);
    },
  };
}
