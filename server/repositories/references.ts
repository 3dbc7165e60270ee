import type { CompanyId, Sql } from '../db/database.js';

/**
 * Raised when a write names a row (location, guest, menu item, …) the company does not have. Foreign keys
 * alone would accept another company's id, so repositories check ownership first.
 */
export class UnknownReferenceError extends Error {
  constructor(
    readonly field: string,
    readonly ids: number[],
  ) {
    super(`Unknown ${field}: ${ids.join(', ')}`);
    this.name = 'UnknownReferenceError';
  }
}

/** Tenant tables whose ids other rows may point at. */
export type OwnedTable =
  'locations' | 'guests' | 'subscribers' | 'menu_categories' | 'menu_items' | 'revenue_centers' | 'users';

/** The ids among `ids` that are not rows of `table` in this company (duplicates ignored). */
export async function missingIds(
  sql: Sql,
  companyId: CompanyId,
  table: OwnedTable,
  ids: readonly number[],
): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  // The table name comes from the closed OwnedTable union, never from input, so inlining it is safe.
  const { rows } = await sql.query<{ id: number }>(
    `SELECT id FROM ${table} WHERE company_id = $1 AND id = ANY($2::bigint[])`,
    [companyId, unique],
  );
  const found = new Set(rows.map((row) => row.id));
  return unique.filter((id) => !found.has(id));
}

/** Throws UnknownReferenceError naming `field` unless every id is a row of `table` in this company. */
export async function assertOwned(
  sql: Sql,
  companyId: CompanyId,
  table: OwnedTable,
  field: string,
  ids: readonly (number | null | undefined)[],
): Promise<void> {
  const given = ids.filter((id): id is number => id !== null && id !== undefined);
  const missing = await missingIds(sql, companyId, table, given);
  if (missing.length > 0) throw new UnknownReferenceError(field, missing);
}

/** A guest or a subscriber: the two kinds of customer profile that notes and cards hang on. */
export interface CustomerRef {
  type: 'guest' | 'subscriber';
  id: number;
}

/** The column of notes and profile_cards that points at this kind of customer. */
export function customerColumn(ref: CustomerRef): 'guest_id' | 'subscriber_id' {
  return ref.type === 'guest' ? 'guest_id' : 'subscriber_id';
}

/** True when the guest or subscriber exists in this company. */
export async function customerExists(sql: Sql, companyId: CompanyId, ref: CustomerRef): Promise<boolean> {
  const missing = await missingIds(sql, companyId, ref.type === 'guest' ? 'guests' : 'subscribers', [ref.id]);
  return missing.length === 0;
}

/** True when a database error is a unique violation of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const details = error as { code?: unknown; constraint?: unknown } | null;
  return details?.code === '23505' && details.constraint === constraint;
}

/** Raised when an email is already used by an account (in any company: sign-in finds the company by it). */
export class UserEmailTakenError extends Error {
  constructor() {
    super('A user with this email already exists');
    this.name = 'UserEmailTakenError';
  }
}
