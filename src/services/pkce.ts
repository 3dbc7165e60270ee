/**
 * PKCE (RFC 7636) for the sign-in redirect: a fresh code verifier at each redirect, its S256 challenge,
 * and a random `state`. Only `crypto.getRandomValues` and `crypto.subtle` are used.
 */

/** The characters a code verifier is made of (spec section 1): digits and uppercase letters. */
export const VERIFIER_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The shortest code verifier RFC 7636 allows (and spec section 9 names). */
export const VERIFIER_MIN_LENGTH = 43;

/** The longest code verifier RFC 7636 allows. */
export const VERIFIER_MAX_LENGTH = 128;

/** The length of each verifier the app makes: well inside the allowed range. */
export const VERIFIER_LENGTH = 64;

/** What one redirect needs: the verifier kept in storage, the challenge sent, and the state echoed back. */
export interface PkcePair {
  verifier: string;
  challenge: string;
  state: string;
}

/**
 * A random string of `length` characters from `alphabet`, without modulo bias: a random byte is kept
 * only when it falls below the largest multiple of the alphabet size that fits in a byte.
 */
export function randomString(length: number, alphabet: string = VERIFIER_ALPHABET): string {
  if (alphabet.length < 2 || alphabet.length > 256)
    throw new RangeError('The alphabet needs 2 to 256 characters');
  const limit = 256 - (256 % alphabet.length);
  let result = '';
  // getRandomValues fills at most 65,536 bytes per call; a rejected byte just costs another draw.
  const bytes = new Uint8Array(Math.min(4096, Math.max(16, length * 2)));
  while (result.length < length) {
    crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte >= limit) continue;
      result += alphabet[byte % alphabet.length];
      if (result.length === length) break;
    }
  }
  return result;
}

/** A fresh code verifier of digits and uppercase letters; the length must be 43 to 128. */
export function createVerifier(length: number = VERIFIER_LENGTH): string {
  if (!Number.isInteger(length) || length < VERIFIER_MIN_LENGTH || length > VERIFIER_MAX_LENGTH) {
    throw new RangeError(
      `A code verifier has ${VERIFIER_MIN_LENGTH} to ${VERIFIER_MAX_LENGTH} characters, not ${length}`,
    );
  }
  return randomString(length);
}

/** Base64url without padding (RFC 4648 section 5). */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The S256 code challenge of a verifier: base64url(SHA-256(ASCII(verifier))). */
export async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** A fresh verifier, its challenge and a random state for one redirect. */
export async function createPkce(): Promise<PkcePair> {
  const verifier = createVerifier();
  return { verifier, challenge: await challengeOf(verifier), state: randomString(32) };
}
