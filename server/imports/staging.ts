import type { Database } from '../db/database.js';
import {
  findStagingState,
  readImportChunk,
  stageImportRows,
  type StagedRow,
} from '../repositories/imports.repository.js';
import { mapColumns } from './columns.js';
import { readCsvRecords, type CsvRecord } from './csv-reader.js';
import { readHeader } from './pipeline.js';
import { checkRow } from './row-rules.js';

/**
 * The job workers' first half of an import: the stored file (./pipeline.ts) is read again chunk by chunk,
 * every data row checked (./row-rules.ts) and staged into `import_rows`, a batch per turn. The reader of a job
 * is kept between its turns in this process; a worker that takes a job over (after a restart, or from another
 * process) reads the file again from the start and skips the rows already staged, so no row is staged twice.
 */

/** A job's file being read: the data records after the header, and how many of them were handed out. */
interface FileReader {
  records: AsyncIterator<CsvRecord[]>;
  buffered: CsvRecord[];
  position: number;
}

/** The stored chunks of a job's file in order, each read in its own short transaction. */
async function* storedText(db: Database, companyId: number, jobId: number): AsyncGenerator<string> {
  for (let seq = 1; ; seq++) {
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

/** Opens a job's stored file past its header and the first `skip` data records. */
async function openReader(db: Database, companyId: number, jobId: number, skip: number): Promise<FileReader> {
  // The text was checked (size, UTF-8, no binary) on upload.
  const records = readCsvRecords(storedText(db, companyId, jobId))[Symbol.asyncIterator]();
  const { rest } = await readHeader(records);
  const reader: FileReader = { records, buffered: rest, position: 0 };
  // Rows staged in an earlier turn of another process are skipped in slices, never held all at once.
  while (reader.position < skip) await take(reader, Math.min(10_000, skip - reader.position));
  return reader;
}

/** Stages the rows of the stored files, keeping each job's reader between its turns. */
export interface FileStager {
  /**
   * Checks and stages the job's next `batchRows` rows in one transaction: 'staged' when it did, 'complete'
   * (having done nothing) when every row of the file is staged already.
   */
  stageNext(companyId: number, jobId: number, batchRows: number): Promise<'staged' | 'complete'>;
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
      // Another process staged rows meanwhile (or none was open): read the file again up to where it stands.
      if (reader?.position !== job.staged) {
        reader = await openReader(db, companyId, jobId, job.staged);
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
      if (rows.length === 0) throw new Error('The stored file holds fewer rows than were counted on upload');
      try {
        await db.tenant(companyId, (sql) => stageImportRows(sql, companyId, jobId, rows, job.staged));
      } catch (error) {
        readers.delete(jobId);
        throw error;
      }
      return 'staged';
    },
    forget(jobId) {
      readers.delete(jobId);
    },
  };
}
