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

/**
 * Finds the live token with this hash, across companies (the key is how the company is learned),
 * and records its use.
 */
export async function findActiveCompanyTokenByHash(
  sql: Sql,
  keyHash: string,
): Promise<CompanyTokenRow | null> {
  const { rows } = await sql.query<CompanyTokenRow>(
    `UPDATE company_tokens SET last_used_at = now()
     WHERE key_hash = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
    [keyHash],
  );
  return rows[0] ?? null;
}
