import { hashPath } from './random.js';

/** Base62, in the same order as the hashids the application generates. */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HALF_BITS = 29;
const HALF_MASK = 2 ** HALF_BITS - 1;
const ROUNDS = 6;

/** Writes a number below 62^width as exactly `width` base62 characters. */
function base62(value: number, width: number): string {
  let text = '';
  for (let i = 0; i < width; i++) {
    text = ALPHABET[value % 62]! + text;
    value = Math.floor(value / 62);
  }
  return text;
}

/**
 * A random-looking 10-character base62 hashid for the `index`-th entity of a stream. A keyed Feistel
 * network permutes the 58-bit index space, so two indexes under one key never collide (the unique
 * constraint on (company_id, hashid) can never fail) and the same key and index always give the same id.
 * Each 29-bit half fits in five base62 characters, so the encoding is one-to-one as well.
 */
export function seededHashid(key: number, index: number): string {
  let left = Math.floor(index / 2 ** HALF_BITS) % 2 ** HALF_BITS;
  let right = index % 2 ** HALF_BITS;
  for (let round = 0; round < ROUNDS; round++) {
    const next = (left ^ hashPath([key, round, right])) & HALF_MASK;
    left = right;
    right = next;
  }
  return base62(left, 5) + base62(right, 5);
}
