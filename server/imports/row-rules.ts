import { z } from 'zod';
import { canonicalPhone } from '../../src/format/phone.js';
import { ProfileCardCreateSchema, type CustomerKind } from '../../src/schemas/customers.js';
import type { ImportProblemCode, ImportProblemParams } from '../../src/schemas/imports.js';
import { SubscriberCreateSchema } from '../../src/schemas/subscribers.js';
import { hashidSource } from '../repositories/hashid.js';
import type { ColumnMap, ImportColumn } from './columns.js';
import type { CsvRecord } from './csv-reader.js';

/** A record's cells and where it starts: all a row's checks look at. */
type RecordCells = Omit<CsvRecord, 'end'>;

/**
 * The rules of one uploaded row, the same as the add dialogs' (spec section 5) so the messages match:
 * 'Email is not valid', 'Phone is not valid', 'Zip code is not valid', '{field} is required'.
 */

/**
 * What is wrong with a row: the column at fault (null for the row as a whole), why as a code with its values
 * (the app translates it), and the same in English (the API and the rejected-rows download).
 */
export interface RowProblem {
  field: string | null;
  code: ImportProblemCode;
  params: ImportProblemParams;
  message: string;
}

/** The reason code of one zod issue: an empty required cell, a cell over its length, or anything else invalid. */
function codeOfIssue(issue: z.core.$ZodIssue): { code: ImportProblemCode; params: ImportProblemParams } {
  if (issue.code === 'too_small' && Number(issue.minimum) <= 1) return { code: 'required', params: {} };
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return { code: 'too_long', params: { max: Number(issue.maximum) } };
  }
  return { code: 'invalid', params: {} };
}

/**
 * A row checked: `fields` are its normalised values in the order of `STAGED_FIELDS` (null when the row is
 * invalid), `raw` the cells as written, `problems` what makes it invalid (empty when valid).
 */
export interface CheckedRow {
  line: number;
  fields: string[] | null;
  raw: string[];
  problems: RowProblem[];
}

/**
 * The order of the normalised values staged for each kind; the merge SQL reads them by position. Before a guest
 * job merges, the id of the existing guest a row matches is appended after these (imports.repository.ts).
 */
export const STAGED_FIELDS = {
  subscriber: [
    'email',
    'first_name',
    'last_name',
    'phone',
    'zip',
    'birthday',
    'subscribed',
    'pos_id',
    'hashid',
  ],
  guest: ['customer_name', 'last_four_digits', 'pos_id', 'hashid'],
} as const satisfies Record<CustomerKind, readonly string[]>;

/** The add dialog's rules for the columns a subscriber file may carry. */
const SubscriberRowSchema = SubscriberCreateSchema.pick({
  email: true,
  first_name: true,
  last_name: true,
  phone: true,
  zip: true,
  birthday: true,
  subscribed: true,
  pos_id: true,
});

/** A guest row: a name, the card's last four digits (the card dialog's rule) and the POS id. */
const GuestRowSchema = z.object({
  customer_name: z.string().trim().min(1, 'Customer name is required').max(200, 'Customer name is not valid'),
  last_four_digits: ProfileCardCreateSchema.shape.last_four_digits,
  pos_id: z.string().trim().min(1, 'POS id is required').max(100, 'POS id is not valid'),
});

/** New rows' hashids, drawn from the secure generator a thousand at a time. */
const newHashid = hashidSource();

/** Spellings of yes and no accepted in the subscribed column (any case). */
const YES = new Set(['true', 'yes', 'y', '1']);
const NO = new Set(['false', 'no', 'n', '0']);

/** The subscribed cell as a boolean; empty means subscribed; anything else is left for the rule to refuse. */
function subscribedValue(cell: string): boolean | string {
  const value = cell.trim().toLowerCase();
  if (value === '' || YES.has(value)) return true;
  if (NO.has(value)) return false;
  return cell;
}

/** The cell of a column, '' when the file has no such column or the row is short. */
function cellOf(record: RecordCells, map: ColumnMap, column: ImportColumn): string {
  const index = map.positions[column];
  return index === undefined ? '' : (record.fields[index] ?? '');
}

/** Zod's issues as row problems, one per field, in column order. */
function problemsOf(error: z.ZodError): RowProblem[] {
  const seen = new Set<string>();
  const problems: RowProblem[] = [];
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (seen.has(field)) continue;
    seen.add(field);
    // The date rule's own wording is for API callers; a file's author reads the dialog's.
    const message = field === 'birthday' ? 'Birthday is not valid' : issue.message;
    const reason = field === 'birthday' ? { code: 'invalid' as const, params: {} } : codeOfIssue(issue);
    problems.push({ field, ...reason, message });
  }
  return problems;
}

/** Checks a subscriber row; valid values come out trimmed (the phone as E.164) with a new hashid. */
function checkSubscriber(record: RecordCells, map: ColumnMap): Pick<CheckedRow, 'fields' | 'problems'> {
  const parsed = SubscriberRowSchema.safeParse({
    email: cellOf(record, map, 'email'),
    first_name: cellOf(record, map, 'first_name'),
    last_name: cellOf(record, map, 'last_name'),
    phone: cellOf(record, map, 'phone'),
    zip: cellOf(record, map, 'zip'),
    birthday: cellOf(record, map, 'birthday').trim(),
    subscribed: subscribedValue(cellOf(record, map, 'subscribed')),
    pos_id: cellOf(record, map, 'pos_id'),
  });
  if (!parsed.success) return { fields: null, problems: problemsOf(parsed.error) };
  const row = parsed.data;
  return {
    fields: [
      row.email,
      row.first_name,
      row.last_name,
      // One stored form for every write path: an update by email then matches what the dialogs store.
      canonicalPhone(row.phone),
      row.zip,
      row.birthday ?? '',
      row.subscribed ? 'true' : 'false',
      row.pos_id,
      newHashid(),
    ],
    problems: [],
  };
}

/** Checks a guest row; valid values come out trimmed with a new hashid. */
function checkGuest(record: RecordCells, map: ColumnMap): Pick<CheckedRow, 'fields' | 'problems'> {
  const parsed = GuestRowSchema.safeParse({
    customer_name: cellOf(record, map, 'customer_name'),
    last_four_digits: cellOf(record, map, 'last_four_digits'),
    pos_id: cellOf(record, map, 'pos_id'),
  });
  if (!parsed.success) return { fields: null, problems: problemsOf(parsed.error) };
  const row = parsed.data;
  return { fields: [row.customer_name, row.last_four_digits, row.pos_id, newHashid()], problems: [] };
}

/** Checks one data row of a file of the kind against its rules. */
export function checkRow(kind: CustomerKind, map: ColumnMap, record: RecordCells): CheckedRow {
  if (record.unclosedQuote) {
    return {
      line: record.line,
      fields: null,
      raw: record.fields,
      problems: [
        {
          field: null,
          code: 'unclosed_quote',
          params: {},
          message: 'The row has a quote that is never closed',
        },
      ],
    };
  }
  const checked = kind === 'subscriber' ? checkSubscriber(record, map) : checkGuest(record, map);
  return { line: record.line, raw: record.fields, ...checked };
}
