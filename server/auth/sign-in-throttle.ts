import { createHash } from 'node:crypto';
import type { Database } from '../db/database.js';
import {
  clearSignInFailures,
  countRecentSignInFailures,
  recordSignInFailures,
} from '../repositories/sign-in-failures.repository.js';

/** The window failures are counted in: 15 minutes. */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** Failures one account may have within the window before it is refused for a while. */
export const MAX_FAILURES_PER_ACCOUNT = 5;
/** Failures one network address may have within the window (guessing across many accounts). */
export const MAX_FAILURES_PER_ADDRESS = 20;

/** Raised while an account or address has failed too often; even the right password is refused. */
export class SignInThrottledError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many failed sign-in attempts; try again later');
    this.name = 'SignInThrottledError';
  }
}

/** Who is trying to sign in: the email typed and the client's network address. */
export interface SignInAttempt {
  email: string;
  address: string | null | undefined;
}

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** The stored key of an account: a hash of the lowercased email, never the email itself. */
export function accountKey(email: string): string {
  return `account:${sha256(email.trim().toLowerCase())}`;
}

/** The stored key of a network address: a hash, never the address itself. */
export function addressKey(address: string): string {
  return `address:${sha256(address)}`;
}

function keysOf(attempt: SignInAttempt): { keys: string[]; limits: number[] } {
  const keys = [accountKey(attempt.email)];
  const limits = [MAX_FAILURES_PER_ACCOUNT];
  if (attempt.address) {
    keys.push(addressKey(attempt.address));
    limits.push(MAX_FAILURES_PER_ADDRESS);
  }
  return { keys, limits };
}

/** Throws SignInThrottledError when the account or the address has reached its limit in the window. */
export async function assertSignInAllowed(db: Database, attempt: SignInAttempt): Promise<void> {
  const { keys, limits } = keysOf(attempt);
  const windows = await db.platform((sql) =>
    countRecentSignInFailures(sql, keys, SIGN_IN_WINDOW_SECONDS, limits),
  );
  const blocked = windows.filter((window, index) => window.count >= (limits[index] ?? 0));
  if (blocked.length > 0) {
    // At least one second, so a client that honours Retry-After never retries at once.
    const wait = Math.max(1, ...blocked.map((window) => window.retryAfterSeconds));
    throw new SignInThrottledError(wait);
  }
}

/** Counts a failed attempt against both the account and the address. */
export function recordSignInFailure(db: Database, attempt: SignInAttempt): Promise<void> {
  return db.platform((sql) => recordSignInFailures(sql, keysOf(attempt).keys, SIGN_IN_WINDOW_SECONDS));
}

/** Forgets the account's failures after it signed in; the address keeps its count. */
export function clearAccountFailures(db: Database, email: string): Promise<void> {
  return db.platform((sql) => clearSignInFailures(sql, accountKey(email)));
}
