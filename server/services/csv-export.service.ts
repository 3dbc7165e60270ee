import { Readable } from 'node:stream';
import { csvLine } from '../http/csv-writer.js';

/** Rows fetched per query while streaming an export. */
export const EXPORT_BATCH_SIZE = 1000;

/** A CSV cell value. */
type Cell = string | number | boolean | null | undefined;

/**
 * A CSV download that pages through rows by id (keyset paging) while the client reads it: a header line,
 * then one line per row. Memory stays at one batch however many rows there are; cells are neutralised
 * against formula injection by csvLine.
 */
export function keysetCsv<Row extends { id: number }>(
  header: readonly string[],
  nextBatch: (afterId: number, limit: number) => Promise<Row[]>,
  cells: (row: Row) => readonly Cell[],
): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(header);
    let afterId = 0;
    for (;;) {
      const batch = await nextBatch(afterId, EXPORT_BATCH_SIZE);
      if (batch.length === 0) return;
      yield batch.map((row) => csvLine(cells(row))).join('');
      if (batch.length < EXPORT_BATCH_SIZE) return;
      afterId = batch[batch.length - 1]!.id;
    }
  }
  return Readable.from(lines());
}

/** A whole small CSV (one file of the big-data download) as text: a header line and the rows. */
export function csvText(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((cells) => csvLine(cells)).join('');
}
