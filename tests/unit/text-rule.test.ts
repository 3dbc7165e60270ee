import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_DEPTH, textRuleFailure } from '../../server/http/text-rule.js';

describe('the text rule of every request', () => {
  it('passes storable text, numbers and nesting within the limit', () => {
    expect(
      textRuleFailure('body', { name: 'Café 🍕', tags: ['a', 'b'], count: 3, nested: { ok: true } }),
    ).toBeNull();
  });

  it('names the field holding a NUL or a lone surrogate, however deep', () => {
    expect(Object.keys(textRuleFailure('body', { notes: 'a\u0000b' })!)).toEqual(['notes']);
    expect(Object.keys(textRuleFailure('body', { address: { street: 'x\uD800' } })!)).toEqual([
      'address.street',
    ]);
    expect(Object.keys(textRuleFailure('body', { ids: ['ok', '\uDC00'] })!)).toEqual(['ids.1']);
    expect(Object.keys(textRuleFailure('query', { q: '\u0000' })!)).toEqual(['q']);
  });

  it('refuses a NUL in a key and names it printably', () => {
    const failure = textRuleFailure('body', { 'a\u0000b': 1 })!;
    expect(Object.keys(failure)).toEqual(['a\uFFFDb']);
    expect(failure['a\uFFFDb']!.code).toBe('not_valid');
  });

  it('refuses a top-level string of the part by the part name', () => {
    expect(Object.keys(textRuleFailure('body', 'a\u0000')!)).toEqual(['body']);
  });

  it('refuses nesting past the limit without overflowing the stack', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const failure = textRuleFailure('body', { tree: deep })!;
    expect(Object.keys(failure)[0]!.split('.')).toHaveLength(MAX_REQUEST_DEPTH);
  });

  it('keeps a well-formed surrogate pair', () => {
    expect(textRuleFailure('body', { emoji: '\uD83C\uDF55' })).toBeNull();
  });
});
