import { describe, expect, it } from 'vitest';
import { HASHID_PATTERN, hashidSource, newHashid } from '../../server/repositories/hashid.js';

describe('hashids', () => {
  it('makes ten base62 characters, one at a time or many from one draw, never the same twice', () => {
    // A small draw so the source refills many times within the test.
    const next = hashidSource(3);
    const made = [newHashid(), ...Array.from({ length: 5000 }, () => next())];
    for (const hashid of made) expect(hashid).toMatch(HASHID_PATTERN);
    expect(new Set(made).size).toBe(made.length);
  });

  it('uses every character of the alphabet about equally', () => {
    const next = hashidSource();
    const counts = new Map<string, number>();
    for (let i = 0; i < 6200; i++)
      for (const character of next()) counts.set(character, (counts.get(character) ?? 0) + 1);
    // 62,000 characters over 62: about 1,000 each (±200 is over six standard deviations).
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(count).toBeGreaterThan(800);
    for (const count of counts.values()) expect(count).toBeLessThan(1200);
  });
});
