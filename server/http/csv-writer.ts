/**
 * CSV output for every download the server sends (list exports, file pages, rejected rows). Cells that a
 * spreadsheet would run as a formula are neutralised, and cells are quoted per RFC 4180 when needed.
 */

/** First characters that make Excel, LibreOffice or Sheets treat a cell as a formula (OWASP CSV injection). */
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/** A cell value as text with a leading apostrophe when it would otherwise start a formula. */
export function neutraliseFormula(value: string): string {
  return value.length > 0 && FORMULA_TRIGGERS.has(value[0]!) ? `'${value}` : value;
}

/** One cell: neutralised, then quoted when it holds a comma, quote or line break. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? neutraliseFormula(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of CSV ending in CRLF, as RFC 4180 asks. */
export function csvLine(cells: readonly (string | number | boolean | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
