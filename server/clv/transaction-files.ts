import { readChecksCsv } from './checks-csv.js';
import { dayNumber, type Purchase } from './purchase-history.js';

/** The transaction-file layouts `npm run clv` reads: CDNOW purchase logs, and POS checks CSV files. */
export const TRANSACTION_FILE_FORMATS = ['cdnow-sample', 'cdnow-master', 'checks-csv'] as const;

/** One of `TRANSACTION_FILE_FORMATS`. */
export type TransactionFileFormat = (typeof TRANSACTION_FILE_FORMATS)[number];

/** A CDNOW purchase log's layout. */
type CdnowFormat = Exclude<TransactionFileFormat, 'checks-csv'>;

/** The purchases of a transaction file of any of `TRANSACTION_FILE_FORMATS`. */
export async function readPurchases(text: string, format: TransactionFileFormat): Promise<Purchase[]> {
  return format === 'checks-csv' ? readChecksCsv(text) : readTransactionFile(text, format);
}

// Whitespace-separated columns: the 1/10 sample carries a sample id after the customer id.
const COLUMNS: Record<CdnowFormat, { customer: number; date: number; amount: number; width: number }> = {
  'cdnow-sample': { customer: 0, date: 2, amount: 4, width: 5 },
  'cdnow-master': { customer: 0, date: 1, amount: 3, width: 4 },
};

/**
 * The purchases of a CDNOW purchase log (`customer_id [sample_id] YYYYMMDD number_of_cds dollar_value`,
 * whitespace-separated, an optional header line). A malformed line is an error naming its number.
 */
export function readTransactionFile(text: string, format: CdnowFormat): Purchase[] {
  const columns = COLUMNS[format];
  const purchases: Purchase[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const fields = line.trim().split(/\s+/);
    if (fields[0] === '' || (index === 0 && !/^\d+$/.test(fields[0]!))) return;
    const amount = Number(fields[columns.amount]);
    const date = fields[columns.date] ?? '';
    if (fields.length !== columns.width || !Number.isFinite(amount) || !/^\d{8}$/.test(date)) {
      throw new Error(`Line ${index + 1} is not a ${format} line: "${line.trim().slice(0, 80)}"`);
    }
    purchases.push({ customer: fields[columns.customer]!, day: dayNumber(date), amount });
  });
  return purchases;
}
