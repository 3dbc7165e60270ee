import type { z } from 'zod';
import {
  MAX_LINES_PER_CHECK,
  PosCheckInputSchema,
  type PosCheckInput,
} from '../../src/schemas/pos-checks.js';
import type { IngestCheck } from '../repositories/pos-ingestion.repository.js';
import type { ColumnMap, ImportColumn } from './columns.js';
import type { CsvRecord } from './csv-reader.js';
import type { RowProblem } from './row-rules.js';

/**
 * The rows of a POS checks file (one row per check line), checked with the rules of `POST /pos/checks/`
 * (src/schemas/pos-checks.ts) and grouped into checks. A check's rows are consecutive and share its identity
 * (location_id, check_number, closed_at) and every check-level column; a row that disagrees is rejected naming
 * the column, and a check with any rejected row is rejected whole (a check stored without one of its lines
 * could never be completed: sent again, it is unchanged).
 */

/** A record's cells and where it starts. */
type RecordCells = Omit<CsvRecord, 'end'>;

/** The columns a check carries on each of its rows; they must agree. */
const CHECK_COLUMNS = [
  'opened_at',
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
] as const;

/** A data row of a checks file, checked on its own. */
export interface CheckFileRow {
  seq: number;
  line: number;
  raw: string[];
  /** The check it belongs to, as `groupKey` reads it from the cells (also for an invalid row). */
  key: string;
  /** The row read as a check with its one line (or none); null when the row breaks a rule. */
  check: PosCheckInput | null;
  problems: RowProblem[];
}

/** The cell of a column, trimmed; '' when the file has no such column or the row is short. */
function cell(record: RecordCells, map: ColumnMap, column: ImportColumn): string {
  const index = map.positions[column];
  return index === undefined ? '' : (record.fields[index] ?? '').trim();
}

/** A cell that reads as a number becomes one; any other text stays, for the rule to name; blank is absent. */
function numberOr(text: string): number | string | undefined {
  if (text === '') return undefined;
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : text;
}

const textOr = (text: string): string | undefined => (text === '' ? undefined : text);

/**
 * The check a row belongs to: its location id, check number and closing instant as written (the instant in ISO
 * form when it reads as a date, so two spellings of one moment are one check).
 */
export function groupKey(record: RecordCells, map: ColumnMap): string {
  const location = cell(record, map, 'location_id');
  const closed = cell(record, map, 'closed_at');
  const instant = Date.parse(closed);
  return JSON.stringify([
    /^\d+$/.test(location) ? String(Number(location)) : location,
    cell(record, map, 'check_number'),
    Number.isNaN(instant) ? closed : new Date(instant).toISOString(),
  ]);
}

/** The file column a path of the check schema points at. */
function columnOf(path: readonly PropertyKey[]): string | null {
  const [first, , last] = path;
  if (first === 'lines') return typeof last === 'string' ? last : 'menu_item';
  if (first === 'guest') return typeof path[1] === 'string' ? path[1] : 'pos_id';
  return typeof first === 'string' ? first : null;
}

/** The first issue of a row as a problem naming the column (an empty required cell says so). */
function problemOf(error: z.ZodError, record: RecordCells, map: ColumnMap): RowProblem {
  const issue = error.issues[0]!;
  const field = columnOf(issue.path);
  if (field && issue.code === 'invalid_type' && cell(record, map, field as ImportColumn) === '') {
    return { field, code: 'required', params: {}, message: `${field} is required` };
  }
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return { field, code: 'too_long', params: { max: Number(issue.maximum) }, message: issue.message };
  }
  return { field, code: 'invalid', params: {}, message: issue.message };
}

/** Checks one data row of a checks file with the JSON call's rules; `latest` is the latest closing time allowed. */
export function checkCheckRow(
  map: ColumnMap,
  record: RecordCells,
  seq: number,
  latest: number,
): CheckFileRow {
  const base = { seq, line: record.line, raw: record.fields, key: groupKey(record, map) };
  if (record.unclosedQuote) {
    const message = 'The row has a quote that is never closed';
    return { ...base, check: null, problems: [{ field: null, code: 'unclosed_quote', params: {}, message }] };
  }
  const get = (column: ImportColumn) => cell(record, map, column);
  const guest = {
    customer_name: get('customer_name'),
    last_four_digits: get('last_four_digits'),
    pos_id: get('pos_id'),
  };
  const line = {
    menu_item: get('menu_item'),
    category: get('category'),
    quantity: get('quantity'),
    amount: get('amount'),
  };
  const parsed = PosCheckInputSchema.safeParse({
    location_id: numberOr(get('location_id')),
    check_number: textOr(get('check_number')),
    opened_at: textOr(get('opened_at')),
    closed_at: textOr(get('closed_at')),
    total: numberOr(get('total')),
    subtotal: numberOr(get('subtotal')),
    tax: numberOr(get('tax')),
    tip: numberOr(get('tip')),
    discount: numberOr(get('discount')),
    guest_count: numberOr(get('guest_count')),
    revenue_center: textOr(get('revenue_center')),
    // A row with none of the guest's cells is a check without a known guest; with none of the line's, a check
    // without lines.
    guest: Object.values(guest).some((value) => value !== '')
      ? {
          customer_name: textOr(guest.customer_name),
          last_four_digits: textOr(guest.last_four_digits),
          pos_id: textOr(guest.pos_id),
        }
      : undefined,
    lines: Object.values(line).some((value) => value !== '')
      ? [
          {
            menu_item: textOr(line.menu_item),
            category: textOr(line.category),
            quantity: numberOr(line.quantity),
            amount: numberOr(line.amount),
          },
        ]
      : [],
  });
  if (!parsed.success) return { ...base, check: null, problems: [problemOf(parsed.error, record, map)] };
  if (parsed.data.closed_at.getTime() > latest) {
    const message = 'closed_at is more than a day in the future';
    return { ...base, check: null, problems: [{ field: 'closed_at', code: 'invalid', params: {}, message }] };
  }
  return { ...base, check: parsed.data, problems: [] };
}

/** A check-level value of a parsed row, comparable with `===`. */
function checkValue(check: PosCheckInput, column: (typeof CHECK_COLUMNS)[number]): unknown {
  switch (column) {
    case 'opened_at':
      return check.opened_at.getTime();
    case 'customer_name':
    case 'last_four_digits':
    case 'pos_id':
      return check.guest?.[column];
    default:
      return check[column];
  }
}

/** A run of consecutive rows of one check. */
export interface CheckGroup {
  key: string;
  /** The line the check starts on. */
  line: number;
  rows: CheckFileRow[];
  /** The check to store (its lines gathered from its rows); null when the check is rejected. */
  check: IngestCheck | null;
}

/** A problem for each row of a rejected check, keeping a row's own problem when it has one. */
export function rejectGroup(group: CheckGroup, problem: RowProblem): void {
  group.check = null;
  for (const row of group.rows) if (row.problems.length === 0) row.problems = [problem];
}

/** Rejects every row of `group` because of its row at `line`, which keeps its own reason. */
function rejectForLine(group: CheckGroup, line: number): void {
  rejectGroup(group, {
    field: null,
    code: 'invalid',
    params: {},
    message: `The check was rejected for its row at line ${line}`,
  });
}

/** Gathers a run of rows into its check, or rejects it naming the row and column at fault. */
function settle(group: CheckGroup): void {
  const bad = group.rows.find((row) => row.check === null);
  if (bad) return rejectForLine(group, bad.line);
  const [first, ...rest] = group.rows as [CheckFileRow, ...CheckFileRow[]];
  const head = first.check!;
  for (const row of rest) {
    const column = CHECK_COLUMNS.find((name) => checkValue(row.check!, name) !== checkValue(head, name));
    if (column) {
      row.problems = [
        {
          field: column,
          code: 'invalid',
          params: {},
          message: `${column} differs from line ${first.line} of the same check`,
        },
      ];
      return rejectForLine(group, row.line);
    }
  }
  const lines = group.rows.flatMap((row) => row.check!.lines);
  if (lines.length > MAX_LINES_PER_CHECK) {
    return rejectGroup(group, {
      field: null,
      code: 'invalid',
      params: {},
      message: `A check has at most ${MAX_LINES_PER_CHECK} lines`,
    });
  }
  group.check = { ...head, lines };
}

/**
 * Groups checked rows into checks: each run of consecutive rows with one key is a check. A run whose check
 * already came earlier in the rows is rejected as a repeat of the line it started on.
 */
export function groupCheckRows(rows: readonly CheckFileRow[]): CheckGroup[] {
  const groups: CheckGroup[] = [];
  const firstLine = new Map<string, number>();
  for (const row of rows) {
    const last = groups.at(-1);
    if (last && last.key === row.key) last.rows.push(row);
    else groups.push({ key: row.key, line: row.line, rows: [row], check: null });
  }
  for (const group of groups) {
    const earlier = firstLine.get(group.key);
    if (earlier !== undefined) {
      rejectAsRepeat(group, earlier);
      continue;
    }
    firstLine.set(group.key, group.line);
    settle(group);
  }
  return groups;
}

/** Rejects a run of rows whose check started earlier in the file, at `line`. */
export function rejectAsRepeat(group: CheckGroup, line: number): void {
  group.check = null;
  for (const row of group.rows) {
    row.problems = [
      {
        field: 'check_number',
        code: 'duplicate_in_file',
        params: { line },
        message: `The check of line ${line} again: a check's rows must be consecutive`,
      },
    ];
  }
}
