import type { Database } from '../db/database.js';
import {
  findUserByEmailForSignIn,
  recordUserLogin,
  type UserSignInRow,
} from '../repositories/users.repository.js';
import { LOGIN_FAILED_MESSAGE } from '../../src/schemas/accounts.js';
import { hashPassword, verifyPassword } from './passwords.js';
import {
  assertSignInAllowed,
  clearAccountFailures,
  recordSignInFailure,
  SignInThrottledError,
} from './sign-in-throttle.js';

export { SignInThrottledError };

/** Raised for any refused sign-in, with the one message that never tells which part was wrong. */
export class SignInRejectedError extends Error {
  constructor() {
    super(LOGIN_FAILED_MESSAGE);
    this.name = 'SignInRejectedError';
  }
}

/** What a sign-in attempt brings: the typed credentials and the client's network address. */
export interface Credentials {
  email: string;
  password: string;
  address: string | null | undefined;
}

// A real argon2id hash of a throwaway password, made once, so unknown emails cost a full verification too.
let dummyHash: Promise<string> | null = null;
function timingDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('regulars-timing-equaliser');
  return dummyHash;
}

/**
 * Checks an email and password: the user on success (their last sign-in noted and their failures
 * forgotten); SignInRejectedError when anything is wrong (unknown email, wrong password, inactive user,
 * no password set) and SignInThrottledError while the account or address has failed too often.
 * An unknown email spends the same argon2 verification as a known one, so timing reveals no accounts.
 */
export async function verifyCredentials(db: Database, credentials: Credentials): Promise<UserSignInRow> {
  const attempt = { email: credentials.email, address: credentials.address };
  await assertSignInAllowed(db, attempt);
  const user = await db.platform((sql) => findUserByEmailForSignIn(sql, credentials.email));
  const hashed = user?.password_hash ? user.password_hash : await timingDummyHash();
  const matches = await verifyPassword(hashed, credentials.password);
  if (!user || !user.password_hash || !matches || !user.is_active) {
    await recordSignInFailure(db, attempt);
    throw new SignInRejectedError();
  }
  await db.tenant(user.company_id, (sql) => recordUserLogin(sql, user.company_id, user.id));
  await clearAccountFailures(db, credentials.email);
  return { ...user, last_login_at: new Date() };
}
