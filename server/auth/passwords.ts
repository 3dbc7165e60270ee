import { hash, verify } from '@node-rs/argon2';

/**
 * Argon2id with the OWASP-recommended minimum (19 MiB, two passes, one lane). The library's default
 * algorithm is argon2id; its `Algorithm` is a const enum, which isolated-module builds cannot inline, so
 * the algorithm is left at that default and the `$argon2id$` prefix of every hash shows it.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id and a fresh random salt; the result is a self-describing PHC string. */
export function hashPassword(plain: string): Promise<string> {
  return hash(plain, OPTIONS);
}

/**
 * True when `plain` is the password behind `hashed`. A malformed or empty hash answers false rather than
 * throwing, so a user without a password simply cannot sign in with one.
 */
export async function verifyPassword(hashed: string | null | undefined, plain: string): Promise<boolean> {
  if (!hashed) return false;
  try {
    return await verify(hashed, plain);
  } catch {
    return false;
  }
}
