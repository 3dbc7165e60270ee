import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, neutraliseFormula } from '../../server/http/csv-writer.js';

describe('CSV writer', () => {
  it.each(['=SUM(A1:A2)', '+1', '-2+3', '@cmd', '\tx', '\rx'])(
    'neutralises %j with an apostrophe',
    (value) => {
      expect(neutraliseFormula(value)).toBe(`'${value}`);
    },
  );

  it('leaves ordinary values alone', () => {
    expect(neutraliseFormula('ana@example.com')).toBe('ana@example.com');
    expect(neutraliseFormula('')).toBe('');
    expect(csvCell(-5)).toBe('-5');
  });

  it('quotes commas, quotes and line breaks after neutralising', () => {
    expect(csvCell('Smith, Ana')).toBe('"Smith, Ana"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
    expect(csvLine(['a', null, 3, true])).toBe('a,,3,true\r\n');
  });
});
