import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  base64url,
  challengeOf,
  createPkce,
  createVerifier,
  randomString,
  VERIFIER_ALPHABET,
  VERIFIER_MAX_LENGTH,
  VERIFIER_MIN_LENGTH,
} from '../../src/services/pkce.js';

describe('PKCE code verifier', () => {
  it('is always 43 to 128 characters of digits and uppercase letters', () => {
    for (let i = 0; i < 500; i += 1) {
      const verifier = createVerifier();
      expect(verifier.length).toBeGreaterThanOrEqual(VERIFIER_MIN_LENGTH);
      expect(verifier.length).toBeLessThanOrEqual(VERIFIER_MAX_LENGTH);
      expect(verifier).toMatch(/^[0-9A-Z]+$/);
    }
  });

  it('takes any length from 43 to 128 and refuses the others', () => {
    for (let length = VERIFIER_MIN_LENGTH; length <= VERIFIER_MAX_LENGTH; length += 1) {
      const verifier = createVerifier(length);
      expect(verifier).toHaveLength(length);
      expect(verifier).toMatch(/^[0-9A-Z]+$/);
    }
    expect(() => createVerifier(42)).toThrow(RangeError);
    expect(() => createVerifier(129)).toThrow(RangeError);
    expect(() => createVerifier(64.5)).toThrow(RangeError);
  });

  it('is fresh each time', () => {
    expect(createVerifier()).not.toBe(createVerifier());
    const verifiers = new Set(Array.from({ length: 200 }, () => createVerifier()));
    expect(verifiers.size).toBe(200);
  });

  it('uses every character of the alphabet about equally (no modulo bias)', () => {
    const text = randomString(36 * 2000);
    const counts = new Map<string, number>();
    for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...VERIFIER_ALPHABET].sort().join(''));
    // Each of the 36 characters is expected 2000 times; a biased generator (byte % 36) would
    // over-draw the first 4 characters by about 14%.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(1750);
      expect(count).toBeLessThan(2250);
    }
  });
});

describe('S256 code challenge', () => {
  it('matches the RFC 7636 appendix B example', async () => {
    expect(await challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('is base64url(SHA-256(verifier)) without padding', async () => {
    for (let i = 0; i < 20; i += 1) {
      const verifier = createVerifier();
      const expected = createHash('sha256').update(verifier, 'ascii').digest('base64url');
      const challenge = await challengeOf(verifier);
      expect(challenge).toBe(expected);
      expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it('encodes base64url without padding', () => {
    expect(base64url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(base64url(new Uint8Array([]))).toBe('');
  });
});

describe('a redirect’s PKCE pair', () => {
  it('carries a fresh verifier, its challenge and a random state', async () => {
    const first = await createPkce();
    const second = await createPkce();
    expect(first.verifier).not.toBe(second.verifier);
    expect(first.state).not.toBe(second.state);
    expect(first.challenge).toBe(await challengeOf(first.verifier));
    expect(first.state).toMatch(/^[0-9A-Z]{32}$/);
  });
});
