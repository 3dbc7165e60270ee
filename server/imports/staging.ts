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
import { mapColumns } from './columns.js';
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
}

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
    return { records, buffered: [], position: skip, firstChunk: resume.chunk };
  }
  const records = readCsvRecords(storedText(db, companyId, jobId, 1))[Symbol.asyncIterator]();
  const { rest } = await readHeader(records);
  const reader: FileReader = { records, buffered: rest, position: 0, firstChunk: 1 };
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

/** A stager over the database; readers live in this process only. */
export function fileStager(db: Database): FileStager {
  const readers = new Map<number, FileReader>();
  return {
    async stageNext(companyId, jobId, batchRows) {
      const job = await db.tenant(companyId, (sql) => findStagingState(sql, companyId, jobId));
      if (!job || job.staged >= job.read) {
        readers.delete(jobId);
        return 'complete';
      }
      let reader = readers.get(jobId);
      // Another process staged rows meanwhile (or none was open): read on from where the last batch stopped.
      if (reader?.position !== job.staged) {
        reader = await openReader(db, companyId, jobId, job.staged, job.resume);
        readers.set(jobId, reader);
      }
      const columns = mapColumns(job.kind, job.header);
      const records = await take(reader, Math.min(batchRows, job.read - job.staged));
      const rows: StagedRow[] = records.map((record, index) => {
        const checked = checkRow(job.kind, columns, record);
        return {
          seq: job.staged + index + 1,
          line: checked.line,
          fields: checked.fields,
          raw: checked.raw,
          problems: checked.problems.length > 0 ? checked.problems : null,
        };
      });
      const last = records.at(-1);
      if (!last) {
        readers.delete(jobId);
        const now = await db.tenant(companyId, (sql) => findStagingState(sql, companyId, jobId));
        // Another worker staged the last rows (and removed the file) meanwhile: this turn is simply lost.
        if (now?.staged !== job.staged) throw new ImportJobGoneError();
        throw new Error('The stored file holds fewer rows than were counted on upload');
      }
      const resume = { ...last.end, chunk: reader.firstChunk + last.end.chunk };
      // Guests are matched against the company's guests once for the whole file, so they are staged first.
      const direct = job.kind === 'subscriber' && job.processed === job.staged;
      try {
        if (!direct) {
          await db.tenant(companyId, (sql) =>
            stageImportRows(sql, companyId, jobId, rows, job.staged, resume),
          );
          return 'staged';
        }
        const done = await db.tenant(companyId, (sql) =>
          mergeSubscriberRows(sql, companyId, jobId, rows, job.staged, resume),
        );
        if (done) readers.delete(jobId);
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
