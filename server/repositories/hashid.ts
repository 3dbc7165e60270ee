import { randomBytes } from 'node:crypto';

/** The characters of a hashid: digits, then upper- and lower-case letters (base62). */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Length of the hashids given to new guests and subscribers. */
export const HASHID_LENGTH = 10;

/** What a hashid looks like; routes can reject anything else before asking the database. */
export const HASHID_PATTERN = /^[0-9A-Za-z]{10}$/;

/** Bytes at or above this are skipped so every character is equally likely (256 is not a multiple of 62). */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/** Appends base62 characters drawn from `bytes` to `into` until it holds `length`; returns the bytes' next index. */
function fill(into: string[], bytes: Uint8Array, from: number, length: number): number {
  let index = from;
  while (into.length < length && index < bytes.length) {
    const byte = bytes[index++]!;
    if (byte < UNBIASED_LIMIT) into.push(ALPHABET[byte % ALPHABET.length]!);
  }
  return index;
}

/**
 * A new random hashid from the operating system's secure generator: 62^10 (about 8·10^17) values, so
 * it cannot be guessed from another profile's link and collisions are negligible.
 */
export function newHashid(length = HASHID_LENGTH): string {
  const characters: string[] = [];
  while (characters.length < length) fill(characters, randomBytes(length * 2), 0, length);
  return characters.join('');
}

/**
 * Hands out hashids like `newHashid`'s (same generator, same unbiased characters), drawing the random bytes for
 * many at once: one call to the generator per thousand instead of one per hashid, which cost a CSV import
 * about 7 µs a row.
 */
export function hashidSource(perDraw = 1024, length = HASHID_LENGTH): () => string {
  let bytes = new Uint8Array(0);
  let next = 0;
  return () => {
    const characters: string[] = [];
    while (characters.length < length) {
      if (next >= bytes.length) {
        bytes = randomBytes(perDraw * length * 2);
        next = 0;
      }
      next = fill(characters, bytes, next, length);
    }
    return characters.join('');
  };
}
