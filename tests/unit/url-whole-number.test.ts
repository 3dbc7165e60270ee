import { describe, expect, it } from 'vitest';
import { urlWholeNumber } from '../../src/schemas/numbers.js';

describe('a whole number written in a URL', () => {
  const id = urlWholeNumber('id must be a positive integer');

  it('reads plain decimal digits', () => {
    expect(id.parse('1')).toBe(1);
    expect(id.parse('9007199254740991')).toBe(9007199254740991);
    expect(id.parse(42)).toBe(42);
  });

  it.each([
    '1e3',
    '0x10',
    ' 12',
    '12 ',
    '12.0',
    '-1',
    '+5',
    '012',
    '',
    'NaN',
    'Infinity',
    '0',
    '9007199254740993',
    '99999999999999999999',
  ])('refuses %j rather than reading another number', (text) => {
    const result = id.safeParse(text);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('id must be a positive integer');
  });

  it('takes 0 when the minimum is 0, and keeps its own message past the maximum', () => {
    expect(urlWholeNumber('x', { min: 0 }).parse('0')).toBe(0);
    expect(
      urlWholeNumber('x', { max: 10, maxMessage: 'too big' }).safeParse('11').error?.issues[0]?.message,
    ).toBe('too big');
  });
});
