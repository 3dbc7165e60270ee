import type { CompanyId, Sql } from '../db/database.js';

/**
 * Audiences kept for the company's day (migrations 0052 and 0054; docs/dashboards.md "Kept audiences"): a count of
 * guests made on one of the company's local days — a recommendation's segment, or the basket's "guests who ordered
 * X" — by its key (the SHA-256 of what was counted, as JSON). Only that day's rows are kept; an import's end and the
 * company's refresh forget them all.
 */

/** A kept audience: the guests counted and when. */
export interface KeptAudience {
  audience: number;
  counted_at: Date;
}

/** The audiences kept on `day` (`YYYY-MM-DD`, the company's local day) for these keys, by key. */
export async function keptAudiences(
  sql: Sql,
  companyId: CompanyId,
  day: string,
  keys: readonly string[],
): Promise<Map<string, KeptAudience>> {
  if (keys.length === 0) return new Map();
  const { rows } = await sql.query<KeptAudience & { segment_key: string }>(
    `SELECT segment_key, audience, counted_at FROM kept_audiences
     WHERE company_id = $1 AND counted_on = $2::date AND segment_key = ANY($3::text[])`,
    [companyId, day, keys],
  );
  return new Map(
    rows.map((row) => [row.segment_key, { audience: row.audience, counted_at: new Date(row.counted_at) }]),
  );
}

/**
 * Keeps audiences counted on `day` at `countedAt`, and deletes the company's audiences of other days. A count kept
 * meanwhile by another call of the same day stays (both counted the same data, or the refresh forgets both).
 */
export async function keepAudiences(
  sql: Sql,
  companyId: CompanyId,
  day: string,
  countedAt: Date,
  audiences: ReadonlyMap<string, number>,
): Promise<void> {
  await sql.query(`DELETE FROM kept_audiences WHERE company_id = $1 AND counted_on <> $2::date`, [
    companyId,
    day,
  ]);
  if (audiences.size === 0) return;
  // In key order, so two calls keeping some of the same audiences take their rows' locks in the same order.
  const entries = [...audiences].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await sql.query(
    `INSERT INTO kept_audiences (company_id, counted_on, segment_key, audience, counted_at)
     SELECT $1, $2::date, k.segment_key, k.audience, $3::timestamptz
     FROM unnest($4::text[], $5::int[]) AS k(segment_key, audience)
     ON CONFLICT (company_id, counted_on, segment_key) DO NOTHING`,
    [companyId, day, countedAt, entries.map(([key]) => key), entries.map(([, audience]) => audience)],
  );
}

/** Forgets every audience kept for the company, so the next call counts them again (the company's refresh). */
export async function forgetAudiences(sql: Sql, companyId: CompanyId): Promise<void> {
  await sql.query('DELETE FROM kept_audiences WHERE company_id = $1', [companyId]);
}
