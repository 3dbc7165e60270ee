import { createHash, randomBytes } from 'node:crypto';

/** Keys look like `rgl_<prefix>_<secret>`; the prefix lets an owner tell keys apart without the secret. */
const KEY_PREFIX = 'rgl';

/** A freshly made key, its short prefix and the hash that is stored. */
export interface NewCompanyKey {
  key: string;
  keyPrefix: string;
  keyHash: string;
}

/** The SHA-256 of a key, hex-encoded: what the database keeps and looks up. */
export function hashCompanyKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Makes a new random key (256 bits of secret). */
export function generateCompanyKey(): NewCompanyKey {
  const keyPrefix = randomBytes(4).toString('hex');
  const key = `${KEY_PREFIX}_${keyPrefix}_${randomBytes(32).toString('base64url')}`;
  return { key, keyPrefix, keyHash: hashCompanyKey(key) };
}
