/** A column of a chart's data table: the row key it reads and its header. */
export interface CsvColumn {
  key: string;
  label: string;
}

// A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: numbers as they are; text guarded against formulas and quoted as RFC 4180 asks. */
function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/**
 * A chart's data table as CSV (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote or line
 * break quoted, quotes doubled): the headers, then one line per row. Numbers are written plain (1234.5) for a
 * spreadsheet to read; text cells starting with = + - @ are prefixed with ' so no spreadsheet runs them.
 */
export function tableCsv(
  columns: readonly CsvColumn[],
  rows: readonly Record<string, string | number | null>[],
): string {
  const lines = [columns.map((column) => csvField(column.label))];
  for (const row of rows) lines.push(columns.map((column) => csvField(row[column.key])));
  return `${lines.map((line) => line.join(',')).join('\r\n')}\r\n`;
}
