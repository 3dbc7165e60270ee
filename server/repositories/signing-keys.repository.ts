import type { Sql } from '../db/database.js';

/** A key pair that signs tokens, as JSON Web Keys. */
export interface SigningKeyRow {
  kid: string;
  private_jwk: Record<string, unknown>;
  public_jwk: Record<string, unknown>;
  created_at: Date;
  retired_at: Date | null;
}

/** Every key still published (active or retired recently), newest first: the newest active key signs. */
export async function listSigningKeys(sql: Sql): Promise<SigningKeyRow[]> {
  const { rows } = await sql.query<SigningKeyRow>(
    `SELECT kid, private_jwk, public_jwk, created_at, retired_at FROM signing_keys
      WHERE retired_at IS NULL OR retired_at > now() - interval '1 day'
      ORDER BY (retired_at IS NULL) DESC, created_at DESC`,
  );
  return rows;
}

/**
 * Stores a key unless one is already active; returns the active keys afterwards. Two processes
 * starting together both try, and the advisory lock makes only the first insert.
 */
export async function insertFirstSigningKey(
  sql: Sql,
  key: { kid: string; privateJwk: object; publicJwk: object },
): Promise<void> {
  await sql.query(`SELECT pg_advisory_xact_lock(hashtext('regulars.signing_keys'))`);
  const { rows } = await sql.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM signing_keys WHERE retired_at IS NULL',
  );
  if ((rows[0]?.count ?? 0) > 0) return;
  await sql.query('INSERT INTO signing_keys (kid, private_jwk, public_jwk) VALUES ($1, $2, $3)', [
    key.kid,
    JSON.stringify(key.privateJwk),
    JSON.stringify(key.publicJwk),
  ]);
}

/** The secrets the OpenID provider signs its cookies with, newest first; made once if there are none. */
export async function ensureCookieSecrets(sql: Sql, makeSecret: () => string): Promise<string[]> {
  await sql.query(`SELECT pg_advisory_xact_lock(hashtext('regulars.oidc_cookie_keys'))`);
  const existing = await sql.query<{ secret: string }>(
    'SELECT secret FROM oidc_cookie_keys ORDER BY id DESC',
  );
  if (existing.rows.length > 0) return existing.rows.map((row) => row.secret);
  await sql.query('INSERT INTO oidc_cookie_keys (secret) VALUES ($1)', [makeSecret()]);
  return [(await sql.query<{ secret: string }>('SELECT secret FROM oidc_cookie_keys')).rows[0]!.secret];
}
