import type { Sql } from '../db/database.js';

/**
 * Grants of the embedded provider whose access tokens the API refuses (a replayed authorization code,
 * a provider sign-out). Platform rows: a Bearer token is checked before any company is known.
 */

/** Records the grant as revoked until `keepSeconds` from now (the longest life of one of its tokens). */
export async function recordRevokedGrant(sql: Sql, grantId: string, keepSeconds: number): Promise<void> {
  await sql.query(
    `INSERT INTO revoked_grants (grant_id, expires_at)
     VALUES ($1, now() + make_interval(secs => $2::int))
     ON CONFLICT (grant_id) DO UPDATE SET revoked_at = now(), expires_at = excluded.expires_at`,
    [grantId, Math.ceil(keepSeconds)],
  );
}

/** Deletes revocations no token can outlive any more; returns how many went. */
export async function purgeExpiredRevokedGrants(sql: Sql): Promise<number> {
  const { rowCount } = await sql.query('DELETE FROM revoked_grants WHERE expires_at < now()');
  return rowCount;
}
