import type { Sql } from '../db/database.js';

/** How many failures a key has in the window, and when the oldest of those that still blocks expires. */
export interface FailureWindow {
  key: string;
  count: number;
  /** Seconds until the count drops below the limit again; 0 when it is already below. */
  retryAfterSeconds: number;
}

/**
 * Counts each key's failures within the last `windowSeconds`. `limit` decides which failure, once it
 * leaves the window, brings the count back under the limit: that moment is the retry time.
 * A platform read: sign-in happens before any company is known.
 */
export async function countRecentSignInFailures(
  sql: Sql,
  keys: readonly string[],
  windowSeconds: number,
  limits: readonly number[],
): Promise<FailureWindow[]> {
  const windows: FailureWindow[] = [];
  for (const [index, key] of keys.entries()) {
    const limit = limits[index] ?? 1;
    // The limit-th newest failure is the one whose expiry frees the key again.
    const { rows } = await sql.query<{ count: number; retry_after: number | null }>(
      `SELECT (SELECT count(*)::int FROM sign_in_failures
                WHERE key = $1 AND failed_at > now() - make_interval(secs => $2)) AS count,
              (SELECT ceil(extract(epoch FROM failed_at + make_interval(secs => $2) - now()))::int
                 FROM sign_in_failures
                WHERE key = $1 AND failed_at > now() - make_interval(secs => $2)
                ORDER BY failed_at DESC OFFSET $3 LIMIT 1) AS retry_after`,
      [key, windowSeconds, Math.max(limit - 1, 0)],
    );
    const row = rows[0];
    windows.push({ key, count: row?.count ?? 0, retryAfterSeconds: Math.max(row?.retry_after ?? 0, 0) });
  }
  return windows;
}

/** Records one failure under each key, and forgets failures older than `windowSeconds` while at it. */
export async function recordSignInFailures(
  sql: Sql,
  keys: readonly string[],
  windowSeconds: number,
): Promise<void> {
  await sql.query('INSERT INTO sign_in_failures (key) SELECT unnest($1::text[])', [keys]);
  await sql.query('DELETE FROM sign_in_failures WHERE failed_at <= now() - make_interval(secs => $1)', [
    windowSeconds,
  ]);
}

/** Forgets every failure under the key (a successful sign-in of that account). */
export async function clearSignInFailures(sql: Sql, key: string): Promise<void> {
  await sql.query('DELETE FROM sign_in_failures WHERE key = $1', [key]);
}
