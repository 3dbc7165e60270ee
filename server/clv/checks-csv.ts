import { normaliseColumnName } from '../imports/columns.js';
import { readCsvRecords } from '../imports/csv-reader.js';
import { dayNumber, type Purchase } from './purchase-history.js';

/**
 * The purchases of a POS checks file in the layout `POST /api/pos/checks/upload/` takes (one row per check
 * line, header names in any case): one purchase per check (location_id, check_number, closed_at), for its total,
 * on the local date its closed_at is written in. The customer is the check's pos_id when it has one, else its
 * customer_name (any case) with last_four_digits, as guests are matched; checks without either are nobody's
 * and left out. A check's later rows add nothing. A row without a readable total or closed_at is an error
 * naming its line.
 */

/** The columns read; the others are ignored. */
const COLUMNS = [
  'location_id',
  'check_number',
  'closed_at',
  'total',
  'customer_name',
  'last_four_digits',
  'pos_id',
] as const;

/** `YYYY-MM-DD` at the start of an ISO 8601 date and time. */
const LOCAL_DATE = /^(\d{4}-\d{2}-\d{2})[T ]/;
/** Dollars as the import takes them: at most two decimals. */
const DOLLARS = /^\d+(\.\d{1,2})?$/;

async function* whole(text: string): AsyncGenerator<string> {
  yield text;
}

/** Reads a POS checks CSV file's purchases. */
export async function readChecksCsv(text: string): Promise<Purchase[]> {
  const records = readCsvRecords(whole(text))[Symbol.asyncIterator]();
  const purchases: Purchase[] = [];
  const seen = new Set<string>();
  let positions: Map<string, number> | null = null;
  for (let next = await records.next(); !next.done; next = await records.next()) {
    for (const record of next.value) {
      if (!positions) {
        positions = new Map();
        record.fields.forEach((cell, index) => {
          const name = normaliseColumnName(cell);
          if (!positions!.has(name)) positions!.set(name, index);
        });
        const missing = COLUMNS.slice(0, 4).filter((column) => !positions!.has(column));
        if (missing.length > 0) throw new Error(`The file has no ${missing.join(', ')} column`);
        continue;
      }
      const cell = (column: (typeof COLUMNS)[number]) => {
        const index = positions!.get(column);
        return index === undefined ? '' : (record.fields[index] ?? '').trim();
      };
      const closedAt = cell('closed_at');
      const total = cell('total');
      const date = LOCAL_DATE.exec(closedAt)?.[1];
      if (!date || Number.isNaN(Date.parse(closedAt)) || !DOLLARS.test(total)) {
        throw new Error(`Line ${record.line} has no readable closed_at and total`);
      }
      const identity = JSON.stringify([
        cell('location_id'),
        cell('check_number'),
        new Date(closedAt).toISOString(),
      ]);
      if (seen.has(identity)) continue;
      seen.add(identity);
      const name = cell('customer_name');
      const digits = cell('last_four_digits');
      const customer =
        cell('pos_id') !== ''
          ? JSON.stringify(['pos', cell('pos_id')])
          : name !== '' && digits !== ''
            ? JSON.stringify(['card', name.toLowerCase(), digits])
            : null;
      if (customer) purchases.push({ customer, day: dayNumber(date), amount: Number(total) });
    }
  }
  if (!positions) throw new Error('The file is empty; its first line must name the columns');
  return purchases;
}
