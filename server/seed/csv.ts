/** One value of a CSV row for `COPY ... WITH (FORMAT csv)`. */
export type CsvValue = string | number | boolean | null;

/**
 * One field: null becomes an empty unquoted field (COPY reads it as NULL), every string is quoted with
 * inner quotes doubled (so an empty string stays an empty string and commas or line breaks are safe).
 */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`Cannot write ${value} to CSV`);
    return String(value);
  }
  return `"${value.replaceAll('"', '""')}"`;
}

/** One CSV line, newline included. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\n`;
}

/**
 * CSV text for rows, produced lazily in pieces of `rowsPerPiece` lines, so COPY can stream it (PostgreSQL)
 * or gather it (PGlite) without the caller building one huge string.
 */
export function* csvPieces<T>(
  rows: Iterable<T>,
  toValues: (row: T) => readonly CsvValue[],
  rowsPerPiece = 1000,
): Generator<string> {
  let piece = '';
  let count = 0;
  for (const row of rows) {
    piece += csvLine(toValues(row));
    if (++count === rowsPerPiece) {
      yield piece;
      piece = '';
      count = 0;
    }
  }
  if (count > 0) yield piece;
}

/** Splits a stream of items into arrays of at most `size`, lazily. */
export function* batches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** A UTC instant in milliseconds as an ISO timestamp PostgreSQL reads as timestamptz. */
export function isoTime(milliseconds: number): string {
  return new Date(milliseconds).toISOString();
}
