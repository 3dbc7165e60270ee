import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { isUniqueViolation } from './references.js';
import { jsonParam, type Page, type PageWindow } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/** Where an invoice is in billing. */
export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void';

/** An invoice of the company's subscription; amounts in cents, periods as ISO dates (YYYY-MM-DD). */
export interface InvoiceRow {
  id: number;
  company_id: number;
  number: string;
  period_start: string;
  period_end: string;
  amount_cents: number;
  currency: string;
  status: InvoiceStatus;
  lines: unknown[];
  issued_at: Date;
  paid_at: Date | null;
}

/** What issuing an invoice takes (billing and the demo seed). */
export interface InvoiceInput {
  number: string;
  period_start: string;
  period_end: string;
  amount_cents: number;
  currency?: string | undefined;
  status?: InvoiceStatus | undefined;
  lines?: unknown[] | undefined;
  issued_at?: Date | undefined;
  paid_at?: Date | null | undefined;
}

/** Raised when the company already has an invoice with this number. */
export class DuplicateInvoiceNumberError extends Error {
  constructor(readonly number: string) {
    super(`Invoice number ${number} is already used`);
    this.name = 'DuplicateInvoiceNumberError';
  }
}

const COLUMNS =
  'id, company_id, number, period_start, period_end, amount_cents, currency, status, lines, issued_at, paid_at';

async function selectInvoice(sql: Sql, companyId: CompanyId, id: number): Promise<InvoiceRow | null> {
  const { rows } = await sql.query<InvoiceRow>(
    `SELECT ${COLUMNS} FROM invoices WHERE company_id = $1 AND id = $2`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

/** One page of a company's invoices, newest first, with the total count. */
export async function listInvoices(
  sql: Sql,
  companyId: CompanyId,
  window: PageWindow,
): Promise<Page<InvoiceRow>> {
  const total = await sql.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM invoices WHERE company_id = $1',
    [companyId],
  );
  const page = await sql.query<InvoiceRow>(
    `SELECT ${COLUMNS} FROM invoices WHERE company_id = $1 ORDER BY issued_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [companyId, window.limit, window.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** One invoice, or null when it does not exist in this company. */
export function getInvoice(sql: Sql, companyId: CompanyId, id: number): Promise<InvoiceRow | null> {
  return selectInvoice(sql, companyId, id);
}

/** Issues an invoice; throws DuplicateInvoiceNumberError when the number is taken in this company. */
export async function createInvoice(sql: Sql, scope: WriteScope, input: InvoiceInput): Promise<InvoiceRow> {
  try {
    const taken = await sql.query('SELECT 1 FROM invoices WHERE company_id = $1 AND number = $2', [
      scope.companyId,
      input.number,
    ]);
    if (taken.rows.length > 0) throw new DuplicateInvoiceNumberError(input.number);
    const { rows } = await sql.query<InvoiceRow>(
      `INSERT INTO invoices (company_id, number, period_start, period_end, amount_cents, currency, status, lines,
                             issued_at, paid_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, coalesce($9, now()), $10) RETURNING ${COLUMNS}`,
      [
        scope.companyId,
        input.number,
        input.period_start,
        input.period_end,
        input.amount_cents,
        input.currency ?? 'USD',
        input.status ?? 'open',
        jsonParam(input.lines ?? []),
        input.issued_at ?? null,
        input.paid_at ?? null,
      ],
    );
    const created = rows[0]!;
    await recordAudit(sql, scope, {
      action: 'create',
      entity: 'invoice',
      entityId: created.id,
      after: created,
    });
    return created;
  } catch (error) {
    // A concurrent insert of the same number loses on the unique key; report it the same way.
    if (isUniqueViolation(error, 'invoices_company_id_number_key'))
      throw new DuplicateInvoiceNumberError(input.number);
    throw error;
  }
}
