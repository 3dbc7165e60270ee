import type { CompanyId, Sql } from '../db/database.js';

/** A company API token as stored: the key itself is never kept, only its SHA-256 hash. */
export interface CompanyTokenRow {
  id: number;
  company_id: number;
  name: string;
  key_prefix: string;
  created_by: number | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, company_id, name, key_prefix, created_by, created_at, last_used_at, revoked_at';

/** Stores a new token's hash for a company. */
export async function createCompanyToken(
  sql: Sql,
  companyId: CompanyId,
  input: { name: string; keyPrefix: string; keyHash: string; createdBy: number | null },
): Promise<CompanyTokenRow> {
  const { rows } = await sql.query<CompanyTokenRow>(
    `INSERT INTO company_tokens (company_id, name, key_prefix, key_hash, created_by)
     VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [companyId, input.name, input.keyPrefix, input.keyHash, input.createdBy],
  );
  return rows[0]!;
}

/** The company's tokens, newest first, revoked ones included so the owner sees their history. */
export async function listCompanyTokens(sql: Sql, companyId: CompanyId): Promise<CompanyTokenRow[]> {
  const { rows } = await sql.query<CompanyTokenRow>(
    `SELECT ${COLUMNS} FROM company_tokens WHERE company_id = $1 ORDER BY id DESC`,
    [companyId],
  );
  return rows;
}

/** Marks a token revoked; false when it is not this company's or already revoked. */
export async function revokeCompanyToken(sql: Sql, companyId: CompanyId, tokenId: number): Promise<boolean> {
  const result = await sql.query(
    `UPDATE company_tokens SET revoked_at = now() WHERE company_id = $1 AND id = $2 AND revoked_at IS NULL`,
    [companyId, tokenId],
  );
  return result.rowCount === 1;
}

/** A live token as authenticating a request needs it: whose it is and what its company may use. */
export interface CompanyTokenAuthorityRow extends CompanyTokenRow {
  features: string[];
}

/**
 * How stale `last_used_at` may be: recording every use would make each request a write that waits on the
 * token row's lock and a WAL flush, so concurrent calls with one key would queue behind each other.
 */
export const LAST_USED_PRECISION_SECONDS = 60;

/**
 * Finds the live token with this hash, across companies (the key is how the company is learned), with its
 * company's features, in one statement; records its use when the last record is older than
 * LAST_USED_PRECISION_SECONDS.
 */
export async function findActiveCompanyTokenByHash(
  sql: Sql,
  keyHash: string,
): Promise<CompanyTokenAuthorityRow | null> {
  const { rows } = await sql.query<CompanyTokenAuthorityRow>(
    `WITH live AS (
       SELECT ${COLUMNS} FROM company_tokens WHERE key_hash = $1 AND revoked_at IS NULL
     ), touched AS (
       UPDATE company_tokens t SET last_used_at = now() FROM live
        WHERE t.id = live.id
          AND (live.last_used_at IS NULL OR live.last_used_at < now() - make_interval(secs => $2::int))
       RETURNING t.id, t.last_used_at
     )
     SELECT live.id, live.company_id, live.name, live.key_prefix, live.created_by, live.created_at,
            coalesce(touched.last_used_at, live.last_used_at) AS last_used_at, live.revoked_at,
            array(SELECT f.feature FROM company_features f WHERE f.company_id = live.company_id ORDER BY 1)
              AS features
       FROM live LEFT JOIN touched ON touched.id = live.id`,
    [keyHash, LAST_USED_PRECISION_SECONDS],
  );
  return rows[0] ?? null;
}
