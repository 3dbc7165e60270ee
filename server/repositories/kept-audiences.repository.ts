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
  const { rows } = await sql.query<KeptAudience & { audience_key: string }>(
    `SELECT audience_key, audience, counted_at FROM kept_audiences
     WHERE company_id = $1 AND counted_on = $2::date AND audience_key = ANY($3::text[])`,
    [companyId, day, keys],
  );
  return new Map(
    rows.map((row) => [row.audience_key, { audience: row.audience, counted_at: new Date(row.counted_at) }]),
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
    `INSERT INTO kept_audiences (company_id, counted_on, audience_key, audience, counted_at)
     SELECT $1, $2::date, k.audience_key, k.audience, $3::timestamptz
     FROM unnest($4::text[], $5::int[]) AS k(audience_key, audience)
     ON CONFLICT (company_id, counted_on, audience_key) DO NOTHING`,
    [companyId, day, countedAt, entries.map(([key]) => key), entries.map(([, audience]) => audience)],
  );
}

// Any constant: with the company id it names the lock between counting audiences and forgetting them.
const AUDIENCES_LOCK = 730_114;

/**
 * Takes the company's audience lock shared for the caller's transaction, before counting: a forget waits for the
 * counts under way, so none of them is kept after it, and a count started after it reads the new data.
 */
export async function lockAudiencesForCounting(sql: Sql, companyId: CompanyId): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock_shared($1, $2::int)', [AUDIENCES_LOCK, companyId]);
}

/**
 * Forgets every audience kept for the company, so the next call counts them again (an import's end, the company's
 * refresh). Waits for the counts under way (`lockAudiencesForCounting`), so none is kept after it.
 */
export async function forgetAudiences(sql: Sql, companyId: CompanyId): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock($1, $2::int)', [AUDIENCES_LOCK, companyId]);
  await sql.query('DELETE FROM kept_audiences WHERE company_id = $1', [companyId]);
}
