import type { CustomerKind } from '../../schemas/customers.js';

// Pure parsing of the CSV files the file-URLs call points at (spec sections 3 and 5). No network here:
// src/app/wiring downloads the text and hands it to these functions.

/** One row of a guest file: who paid, with which card, under which POS id. */
export interface GuestFileRow {
  customer_name: string;
  last_four_digits: string;
  pos_id: string;
}

/** One row of a subscriber file. */
export interface SubscriberFileRow {
  email: string;
  pos_id: string;
}

/** A row of either kind of file. */
export type FileRow = GuestFileRow | SubscriberFileRow;

/** What one file held: its usable rows and how many rows were discarded (one field or fewer). */
export interface FileRows {
  rows: FileRow[];
  discarded: number;
}

/** The columns of each kind of file, in the order the server writes them. */
export const FILE_COLUMNS: Readonly<Record<CustomerKind, readonly string[]>> = {
  guest: ['customer_name', 'last_four_digits', 'pos_id'],
  subscriber: ['email', 'pos_id'],
};

/**
 * Splits CSV text into records of fields (RFC 4180: quoted fields may hold commas, quotes doubled as "" and
 * line breaks; CRLF or LF line ends; a UTF-8 byte order mark is ignored). A blank line is a record of one
 * empty field; a final line break adds no record.
 */
export function parseCsv(text: string): string[][] {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        field += '"';
        index += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      index += 1;
      continue;
    }
    if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      // CRLF is one line end.
      if (char === '\r' && source[index + 1] === '\n') index += 1;
    } else field += char;
    index += 1;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** The server prefixes a cell starting with = + - @, tab or CR with an apostrophe (formula injection). */
const NEUTRALISED = /^'[=+\-@\t\r]/;

/** A cell as it was before the server neutralised it for spreadsheets. */
export function cellValue(cell: string): string {
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
}

/**
 * The rows of one downloaded file of a kind. The first record is the header; columns are found by name
 * (any case, surrounding spaces ignored) and, when the header lacks a name, by the server's order. Rows
 * with one field or fewer (a blank line, a cut-off line) are discarded (spec section 5); an empty field
 * still counts, as a subscriber without a POS id writes one. Values are trimmed and un-neutralised.
 */
export function fileRowsOf(kind: CustomerKind, text: string): FileRows {
  const [header, ...records] = parseCsv(text);
  if (!header) return { rows: [], discarded: 0 };
  const names = header.map((name) => name.trim().toLowerCase());
  const columns = FILE_COLUMNS[kind].map((column, order) => {
    const found = names.indexOf(column);
    return found >= 0 ? found : order;
  });
  const rows: FileRow[] = [];
  let discarded = 0;
  for (const record of records) {
    if (record.length <= 1) {
      discarded += 1;
      continue;
    }
    const value = (position: number) => cellValue((record[columns[position]!] ?? '').trim());
    rows.push(
      kind === 'guest'
        ? { customer_name: value(0), last_four_digits: value(1), pos_id: value(2) }
        : { email: value(0), pos_id: value(1) },
    );
  }
  return { rows, discarded };
}

/**
 * The key two rows of a kind share when they are the same person (spec section 5): subscribers by email,
 * guests by customer name plus last four digits; case and surrounding spaces do not count.
 */
export function rowKey(row: FileRow): string {
  if ('email' in row) return `subscriber:${row.email.trim().toLowerCase()}`;
  return `guest:${row.customer_name.trim().toLowerCase()}|${row.last_four_digits.trim()}`;
}
