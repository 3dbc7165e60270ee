import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { jsonParam } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/**
 * An outside sending service as shown to users: the key itself never leaves the database through this row,
 * only a masked form and whether one is set.
 */
export interface EmailProviderRow {
  id: number;
  company_id: number;
  provider: string;
  api_key_masked: string;
  has_api_key: boolean;
  settings: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** What saving a provider takes; a missing `api_key` keeps the stored one, so settings can change alone. */
export interface EmailProviderInput {
  provider: string;
  api_key?: string | undefined;
  settings?: Record<string, unknown> | undefined;
}

/** How much of a key is shown: never more than the last four characters, and those only of a long key. */
export function maskApiKey(key: string): string {
  if (key === '') return '';
  return key.length >= 12 ? `••••${key.slice(-4)}` : '••••';
}

/** Keys of settings that hold secrets and are masked before they reach the audit log. */
const SECRET_KEY = /api[_-]?key|secret|token|password/i;

/** A copy with every secret-looking value masked, so provider settings can be audited safely. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      SECRET_KEY.test(key) && typeof field === 'string' ? maskApiKey(field) : maskSecrets(field),
    ]),
  );
}

// The mask is computed in SQL so the clear key is never even read into the application here.
const SELECT_PROVIDER = `
  SELECT p.id, p.company_id, p.provider,
         CASE WHEN p.api_key = '' THEN '' WHEN length(p.api_key) >= 12 THEN '••••' || right(p.api_key, 4)
              ELSE '••••' END AS api_key_masked,
         btrim(p.api_key) <> '' AS has_api_key, p.settings, p.created_at, p.updated_at
  FROM email_providers p`;

async function selectProvider(
  sql: Sql,
  companyId: CompanyId,
  where: { id: number } | { provider: string },
  lock = false,
): Promise<EmailProviderRow | null> {
  const byId = 'id' in where;
  const { rows } = await sql.query<EmailProviderRow>(
    `${SELECT_PROVIDER} WHERE p.company_id = $1 AND ${byId ? 'p.id = $2' : 'p.provider = $2'}${lock ? ' FOR UPDATE' : ''}`,
    [companyId, byId ? where.id : where.provider],
  );
  return rows[0] ?? null;
}

/** The row as it may be audited: settings secrets masked too (the key is already masked). */
function audited(row: EmailProviderRow): EmailProviderRow {
  return { ...row, settings: maskSecrets(row.settings) as Record<string, unknown> };
}

/** The company's providers by name, keys masked. */
export async function listEmailProviders(sql: Sql, companyId: CompanyId): Promise<EmailProviderRow[]> {
  const { rows } = await sql.query<EmailProviderRow>(
    `${SELECT_PROVIDER} WHERE p.company_id = $1 ORDER BY lower(p.provider), p.id`,
    [companyId],
  );
  return rows;
}

/**
 * Creates or updates the company's entry for a provider (one per provider name). The key is trimmed; an
 * omitted key keeps the stored one. The audit log gets the masked key only.
 */
export async function upsertEmailProvider(
  sql: Sql,
  scope: WriteScope,
  input: EmailProviderInput,
): Promise<EmailProviderRow> {
  const provider = input.provider.trim();
  const before = await selectProvider(sql, scope.companyId, { provider }, true);
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO email_providers (company_id, provider, api_key, settings)
     VALUES ($1, $2, coalesce($3::text, ''), coalesce($4::jsonb, '{}'))
     ON CONFLICT (company_id, provider) DO UPDATE
       SET api_key = coalesce($3::text, email_providers.api_key),
           settings = coalesce($4::jsonb, email_providers.settings), updated_at = now()
       WHERE email_providers.company_id = $1
     RETURNING id`,
    [
      scope.companyId,
      provider,
      input.api_key === undefined ? null : input.api_key.trim(),
      input.settings === undefined ? null : jsonParam(input.settings),
    ],
  );
  const after = (await selectProvider(sql, scope.companyId, { id: rows[0]!.id }))!;
  await recordAudit(sql, scope, {
    action: before ? 'update' : 'create',
    entity: 'email_provider',
    entityId: after.id,
    ...(before ? { before: audited(before) } : {}),
    after: audited(after),
  });
  return after;
}

/** Deletes a provider entry; false when it does not exist in this company. */
export async function deleteEmailProvider(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = await selectProvider(sql, scope.companyId, { id }, true);
  if (!before) return false;
  await sql.query('DELETE FROM email_providers WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, {
    action: 'delete',
    entity: 'email_provider',
    entityId: id,
    before: audited(before),
  });
  return true;
}

/** True when the company has a provider it can send with (spec: "An entry counts only if api_key is non-empty"). */
export async function hasUsableProvider(sql: Sql, companyId: CompanyId): Promise<boolean> {
  const { rows } = await sql.query<{ usable: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM email_providers WHERE company_id = $1 AND btrim(api_key) <> '') AS usable`,
    [companyId],
  );
  return rows[0]?.usable ?? false;
}

/**
 * The clear key and settings of one provider, for the sending job only: never pass the result to a response
 * or a log. Null when the company has no entry for it or its key is empty.
 */
export async function getEmailProviderCredentials(
  sql: Sql,
  companyId: CompanyId,
  provider: string,
): Promise<{ provider: string; api_key: string; settings: Record<string, unknown> } | null> {
  const { rows } = await sql.query<{
    provider: string;
    api_key: string;
    settings: Record<string, unknown>;
  }>(
    `SELECT provider, api_key, settings FROM email_providers
     WHERE company_id = $1 AND provider = $2 AND btrim(api_key) <> ''`,
    [companyId, provider],
  );
  return rows[0] ?? null;
}

/** The provider a company sends through, with its clear key: for the run transport only, never a response or log. */
export interface SendingProviderRow {
  id: number;
  provider: string;
  api_key: string;
  settings: Record<string, unknown>;
  updated_at: Date;
}

/** The company's usable provider (non-empty key), the most recently saved when there are several; or null. */
export async function findSendingProvider(
  sql: Sql,
  companyId: CompanyId,
): Promise<SendingProviderRow | null> {
  const { rows } = await sql.query<SendingProviderRow>(
    `SELECT id::int, provider, api_key, settings, updated_at FROM email_providers
     WHERE company_id = $1 AND btrim(api_key) <> '' ORDER BY updated_at DESC, id DESC LIMIT 1`,
    [companyId],
  );
  return rows[0] ?? null;
}

/** Deletes every provider entry of the company but the one named (one provider sends for a company). */
export async function deleteOtherEmailProviders(sql: Sql, scope: WriteScope, keep: string): Promise<void> {
  const others = await sql.query<{ id: number }>(
    'SELECT id::int FROM email_providers WHERE company_id = $1 AND provider <> $2',
    [scope.companyId, keep.trim()],
  );
  for (const { id } of others.rows) await deleteEmailProvider(sql, scope, id);
}
