import type { Sql } from '../db/database.js';

/**
 * Storage of the embedded OpenID provider (sessions, interactions, grants, authorization codes, access
 * tokens, ...): one row per model instance in `oidc_payloads`. These are platform rows, with no company,
 * so every statement runs in a platform transaction. A row past its `expires_at` counts as absent.
 */

/** One stored provider object: the model name, its id and the JSON the provider gave us. */
export interface OidcPayloadRecord {
  model: string;
  id: string;
  payload: Record<string, unknown>;
  /** When the provider consumed it (authorization codes), or null. */
  consumed_at: Date | null;
}

/** What an upsert stores besides the payload: the lookup columns and the lifetime. */
export interface OidcPayloadWrite {
  model: string;
  id: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  accountId: string | null;
  /** Seconds from now until the row expires; null keeps it until it is destroyed. */
  expiresInSeconds: number | null;
}

const LIVE = '(expires_at IS NULL OR expires_at > now())';

/** Stores (or replaces) one provider object; a consumed mark already set stays, as the provider expects. */
export async function upsertOidcPayload(sql: Sql, write: OidcPayloadWrite): Promise<void> {
  await sql.query(
    `INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, account_id, expires_at)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7,
             CASE WHEN $8::int IS NULL THEN NULL ELSE now() + make_interval(secs => $8::int) END)
     ON CONFLICT (model, id) DO UPDATE
       SET payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
           uid = excluded.uid, account_id = excluded.account_id, expires_at = excluded.expires_at`,
    [
      write.model,
      write.id,
      JSON.stringify(write.payload),
      write.grantId,
      write.userCode,
      write.uid,
      write.accountId,
      write.expiresInSeconds,
    ],
  );
}

async function findWhere(
  sql: Sql,
  model: string,
  column: 'id' | 'uid' | 'user_code',
  value: string,
): Promise<OidcPayloadRecord | null> {
  const { rows } = await sql.query<OidcPayloadRecord>(
    `SELECT model, id, payload, consumed_at FROM oidc_payloads
      WHERE model = $1 AND ${column} = $2 AND ${LIVE}
      LIMIT 1`,
    [model, value],
  );
  return rows[0] ?? null;
}

/** The live object of this model with this id, or null (also when it has expired). */
export function findOidcPayload(sql: Sql, model: string, id: string): Promise<OidcPayloadRecord | null> {
  return findWhere(sql, model, 'id', id);
}

/** The live object of this model with this uid (sessions are looked up by it), or null. */
export function findOidcPayloadByUid(
  sql: Sql,
  model: string,
  uid: string,
): Promise<OidcPayloadRecord | null> {
  return findWhere(sql, model, 'uid', uid);
}

/** The live object of this model with this user code (device flow), or null. */
export function findOidcPayloadByUserCode(
  sql: Sql,
  model: string,
  userCode: string,
): Promise<OidcPayloadRecord | null> {
  return findWhere(sql, model, 'user_code', userCode);
}

/** Marks an object consumed (an authorization code that was exchanged). */
export async function consumeOidcPayload(sql: Sql, model: string, id: string): Promise<void> {
  await sql.query(
    'UPDATE oidc_payloads SET consumed_at = now() WHERE model = $1 AND id = $2 AND consumed_at IS NULL',
    [model, id],
  );
}

/** Deletes one object. */
export async function destroyOidcPayload(sql: Sql, model: string, id: string): Promise<void> {
  await sql.query('DELETE FROM oidc_payloads WHERE model = $1 AND id = $2', [model, id]);
}

/** Deletes every object of this model issued under a grant (the provider revokes a grant model by model). */
export async function revokeOidcPayloadsByGrant(sql: Sql, model: string, grantId: string): Promise<void> {
  await sql.query('DELETE FROM oidc_payloads WHERE model = $1 AND grant_id = $2', [model, grantId]);
}

/**
 * Ends every provider session of an account (the API logout): the next authorization request of that
 * browser, silent ones included, has to sign in again. Returns how many sessions ended.
 */
export async function deleteSessionsForAccount(sql: Sql, accountId: string): Promise<number> {
  const { rowCount } = await sql.query(
    `DELETE FROM oidc_payloads WHERE model = 'Session' AND account_id = $1`,
    [accountId],
  );
  return rowCount;
}

/** Removes up to `limit` rows that expired a while ago, so the table does not grow forever. */
export async function purgeExpiredOidcPayloads(sql: Sql, limit = 500): Promise<number> {
  const { rowCount } = await sql.query(
    `DELETE FROM oidc_payloads WHERE (model, id) IN (
       SELECT model, id FROM oidc_payloads WHERE expires_at < now() - interval '1 hour' LIMIT $1)`,
    [limit],
  );
  return rowCount;
}
