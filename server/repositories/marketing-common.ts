import type { CompanyId, Sql } from '../db/database.js';
import { UnknownReferenceError, type OwnedTable } from './references.js';

/** Marketing tables whose ids other rows point at (campaign → segment, email campaign → template, …). */
export type MarketingTable =
  | 'segments'
  | 'campaigns'
  | 'subscriber_lists'
  | 'email_templates'
  | 'email_senders'
  | 'location_groups'
  | 'other_campaign_configurations';

/** One page of a list with the total number of matching rows, as `listLocations` returns it. */
export interface Page<Row> {
  count: number;
  rows: Row[];
}

/** LIMIT and OFFSET of a page request. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** A value as a jsonb parameter: drivers would turn a JS array into a PostgreSQL array, not JSON. */
export function jsonParam(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** The distinct ids of a list, in first-seen order, leaving out null and undefined. */
export function distinctIds(ids: readonly (number | null | undefined)[]): number[] {
  return [...new Set(ids.filter((id): id is number => id !== null && id !== undefined))];
}

/**
 * Throws UnknownReferenceError naming `field` unless every id is a row of `table` in this company. Runs in
 * the caller's transaction and takes a key-share lock, so the rows cannot be deleted before it commits.
 */
export async function assertOwnedRows(
  sql: Sql,
  companyId: CompanyId,
  table: MarketingTable | OwnedTable,
  field: string,
  ids: readonly (number | null | undefined)[],
): Promise<void> {
  const given = distinctIds(ids);
  // Non-integers cannot be ids; reporting them beats a driver error about a bigint cast.
  const wellFormed = given.filter((id) => Number.isSafeInteger(id) && id > 0);
  let found = new Set<number>();
  if (wellFormed.length > 0) {
    // The table name comes from a closed union, never from input, so inlining it is safe.
    const { rows } = await sql.query<{ id: number }>(
      `SELECT id FROM ${table} WHERE company_id = $1 AND id = ANY($2::bigint[]) ORDER BY id FOR KEY SHARE`,
      [companyId, wellFormed],
    );
    found = new Set(rows.map((row) => row.id));
  }
  const missing = given.filter((id) => !found.has(id));
  if (missing.length > 0) throw new UnknownReferenceError(field, missing);
}
