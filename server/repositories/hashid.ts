import { randomBytes } from 'node:crypto';

/** The characters of a hashid: digits, then upper- and lower-case letters (base62). */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Length of the hashids given to new guests and subscribers. */
export const HASHID_LENGTH = 10;

/** What a hashid looks like; routes can reject anything else before asking the database. */
export const HASHID_PATTERN = /^[0-9A-Za-z]{10}$/;

/** Bytes at or above this are skipped so every character is equally likely (256 is not a multiple of 62). */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/**
 * A new random hashid from the operating system's secure generator: 62^10 (about 8·10^17) values, so
 * it cannot be guessed from another profile's link and collisions are negligible.
 */
export function newHashid(length = HASHID_LENGTH): string {
  let hashid = '';
  while (hashid.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_LIMIT && hashid.length < length) hashid += ALPHABET[byte % ALPHABET.length];
    }
  }
  return hashid;
}
