import type { ImportKind } from '../../src/schemas/imports.js';

/** The columns an upload of each kind understands; any other column is ignored. */
export const IMPORT_COLUMNS = {
  subscriber: ['email', 'first_name', 'last_name', 'phone', 'zip', 'birthday', 'pos_id', 'subscribed'],
  guest: ['customer_name', 'last_four_digits', 'pos_id'],
  // One row per check line: the check's columns repeat on each of its rows (docs/guest-data.md).
  checks: [
    'location_id',
    'check_number',
    'opened_at',
    'closed_at',
    'total',
    'subtotal',
    'tax',
    'tip',
    'discount',
    'guest_count',
    'revenue_center',
    'customer_name',
    'last_four_digits',
    'pos_id',
    'menu_item',
    'category',
    'quantity',
    'amount',
  ],
} as const satisfies Record<ImportKind, readonly string[]>;

/** The columns a file of each kind must have (the guests table needs a POS id; a check its identity and total). */
export const REQUIRED_COLUMNS = {
  subscriber: ['email'],
  guest: ['customer_name', 'last_four_digits', 'pos_id'],
  checks: ['location_id', 'check_number', 'opened_at', 'closed_at', 'total'],
} as const satisfies Record<ImportKind, readonly string[]>;

/** A column the kind understands. */
export type ImportColumn = (typeof IMPORT_COLUMNS)[ImportKind][number];

/** Where each understood column sits in the file's rows, and which required ones are missing. */
export interface ColumnMap {
  /** Column name → index in a row; absent when the file has no such column. */
  positions: Partial<Record<ImportColumn, number>>;
  missing: string[];
}

/** A header cell as a column name: any case, surrounding spaces ignored, inner spaces or dashes as `_`. */
export function normaliseColumnName(cell: string): string {
  return cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** Maps a header row to the kind's columns; the first of two cells with the same name wins. */
export function mapColumns(kind: ImportKind, header: readonly string[]): ColumnMap {
  const known = new Set<string>(IMPORT_COLUMNS[kind]);
  const positions: Partial<Record<ImportColumn, number>> = {};
  header.forEach((cell, index) => {
    const name = normaliseColumnName(cell) as ImportColumn;
    if (known.has(name) && positions[name] === undefined) positions[name] = index;
  });
  const missing = REQUIRED_COLUMNS[kind].filter((column) => positions[column] === undefined);
  return { positions, missing };
}
