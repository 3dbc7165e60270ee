import type { Database } from '../db/database.js';

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
export function upsertOidcPayload(db: Database, write: OidcPayloadWrite): Promise<void> {
  return db.platform(async (sql) => {
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
  });
}

async function findWhere(
  db: Database,
  model: string,
  column: 'id' | 'uid' | 'user_code',
  value: string,
): Promise<OidcPayloadRecord | null> {
  return db.platform(async (sql) => {
    const { rows } = await sql.query<OidcPayloadRecord>(
      `SELECT model, id, payload, consumed_at FROM oidc_payloads
        WHERE model = $1 AND ${column} = $2 AND ${LIVE}
        LIMIT 1`,
      [model, value],
    );
    return rows[0] ?? null;
  });
}

/** The live object of this model with this id, or null (also when it has expired). */
export function findOidcPayload(db: Database, model: string, id: string): Promise<OidcPayloadRecord | null> {
  return findWhere(db, model, 'id', id);
}

/** The live object of this model with this uid (sessions are looked up by it), or null. */
export function findOidcPayloadByUid(
  db: Database,
  model: string,
  uid: string,
): Promise<OidcPayloadRecord | null> {
  return findWhere(db, model, 'uid', uid);
}

/** The live object of this model with this user code (device flow), or null. */
export function findOidcPayloadByUserCode(
  db: Database,
  model: string,
  userCode: string,
): Promise<OidcPayloadRecord | null> {
  return findWhere(db, model, 'user_code', userCode);
}

/** Marks an object consumed (an authorization code that was exchanged). */
export function consumeOidcPayload(db: Database, model: string, id: string): Promise<void> {
  return db.platform(async (sql) => {
    await sql.query(
      'UPDATE oidc_payloads SET consumed_at = now() WHERE model = $1 AND id = $2 AND consumed_at IS NULL',
      [model, id],
    );
  });
}

/** Deletes one object. */
export function destroyOidcPayload(db: Database, model: string, id: string): Promise<void> {
  return db.platform(async (sql) => {
    await sql.query('DELETE FROM oidc_payloads WHERE model = $1 AND id = $2', [model, id]);
  });
}

/** Deletes every object of this model issued under a grant (the provider revokes a grant model by model). */
export function revokeOidcPayloadsByGrant(db: Database, model: string, grantId: string): Promise<void> {
  return db.platform(async (sql) => {
    await sql.query('DELETE FROM oidc_payloads WHERE model = $1 AND grant_id = $2', [model, grantId]);
  });
}

/**
 * Ends every provider session of an account (the API logout): the next authorization request of that
 * browser, silent ones included, has to sign in again. Returns how many sessions ended.
 */
export function deleteSessionsForAccount(db: Database, accountId: string): Promise<number> {
  return db.platform(async (sql) => {
    const { rowCount } = await sql.query(
      `DELETE FROM oidc_payloads WHERE model = 'Session' AND account_id = $1`,
      [accountId],
    );
    return rowCount;
  });
}

/** Removes up to `limit` rows that expired a while ago, so the table does not grow forever. */
export function purgeExpiredOidcPayloads(db: Database, limit = 500): Promise<number> {
  return db.platform(async (sql) => {
    const { rowCount } = await sql.query(
      `DELETE FROM oidc_payloads WHERE (model, id) IN (
         SELECT model, id FROM oidc_payloads WHERE expires_at < now() - interval '1 hour' LIMIT $1)`,
      [limit],
    );
    return rowCount;
  });
}
