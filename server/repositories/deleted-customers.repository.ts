import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import type { WriteScope } from './scope.js';

/** The two kinds of customer profile. */
export type CustomerType = 'guest' | 'subscriber';

/** What is kept of a deleted guest or subscriber: that it existed, never who it was. */
export interface DeletedCustomerRow {
  id: number;
  company_id: number;
  customer_type: CustomerType;
  pos_id: string | null;
  original_id: number;
  deleted_by: number | null;
  deleted_at: Date;
}

/** Filters of the deleted-customer list. */
export interface DeletedCustomerFilter {
  customerType?: CustomerType | undefined;
  posId?: string | undefined;
  limit: number;
  offset: number;
}

const COLUMNS = 'id, company_id, customer_type, pos_id, original_id, deleted_by, deleted_at';

/** One page of a company's deleted customers, newest first, optionally of one type or POS id. */
export async function listDeletedCustomers(
  sql: Sql,
  companyId: CompanyId,
  filter: DeletedCustomerFilter,
): Promise<{ count: number; rows: DeletedCustomerRow[] }> {
  const where = `company_id = $1 AND ($2::text IS NULL OR customer_type = $2) AND ($3::text IS NULL OR pos_id = $3)`;
  const params = [companyId, filter.customerType ?? null, filter.posId ?? null];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM deleted_customers WHERE ${where}`,
    params,
  );
  const page = await sql.query<DeletedCustomerRow>(
    `SELECT ${COLUMNS} FROM deleted_customers WHERE ${where} ORDER BY deleted_at DESC, id DESC LIMIT $4 OFFSET $5`,
    [...params, filter.limit, filter.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/**
 * Records, inside the caller's delete transaction, that a guest or subscriber was deleted, with its audit
 * entry. Only the type, POS id and former id are kept, so the POS import can tell not to recreate them.
 */
export async function recordDeletedCustomer(
  sql: Sql,
  scope: WriteScope,
  entry: { customerType: CustomerType; posId: string | null; originalId: number },
): Promise<DeletedCustomerRow> {
  const { rows } = await sql.query<DeletedCustomerRow>(
    `INSERT INTO deleted_customers (company_id, customer_type, pos_id, original_id, deleted_by)
     VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [scope.companyId, entry.customerType, entry.posId, entry.originalId, scope.userId],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'deleted_customer',
    entityId: created.id,
    after: created,
  });
  return created;
}
