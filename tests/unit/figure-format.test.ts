import { describe, expect, it } from 'vitest';
import { changeOf, formatFigure, sharePercent, topBucketLabel } from '../../src/views/kit/figure-format.js';

describe('formatFigure (dashboard figures, spec §9)', () => {
  it('writes money with a dollar sign, two decimals and thousands separators in every language', () => {
    expect(formatFigure(1234.5, 'currency', 'en')).toBe('$1,234.50');
    expect(formatFigure(1234.5, 'currency', 'de')).toBe('$1,234.50');
    expect(formatFigure(-3.1, 'currency', 'fr')).toBe('-$3.10');
    expect(formatFigure(null, 'currency', 'en')).toBe('');
  });

  it('writes percentages with two decimals, and a missing rate as 0%', () => {
    expect(formatFigure(12.5, 'percent', 'en')).toBe('12.50%');
    expect(formatFigure(0.333, 'percent', 'jp')).toBe('0.33%');
    expect(formatFigure(null, 'percent', 'en')).toBe('0%');
    expect(formatFigure(Number.NaN, 'percent', 'en')).toBe('0%');
  });

  it('writes counts whole with the language’s separators', () => {
    expect(formatFigure(1234567, 'count', 'en')).toBe('1,234,567');
    expect(formatFigure(1234567, 'count', 'de')).toBe('1.234.567');
    expect(formatFigure(2.6, 'count', 'en')).toBe('3');
    expect(formatFigure(null, 'count', 'en')).toBe('');
  });

  it('writes decimals with two places and days with their unit', () => {
    expect(formatFigure(2.5, 'decimal', 'en')).toBe('2.50');
    expect(formatFigure(2.5, 'decimal', 'de')).toBe('2,50');
    expect(formatFigure(1, 'days', 'en')).toBe('1 day');
    expect(formatFigure(12.25, 'days', 'en')).toBe('12.3 days');
    expect(formatFigure(3, 'days', 'de')).toBe('3 Tage');
    expect(formatFigure(3, 'days', 'jp')).toBe('3日');
    expect(formatFigure(undefined, 'days', 'fr')).toBe('');
  });
});

describe('changeOf (against the previous period)', () => {
  it('is the change in percent of the previous value', () => {
    expect(changeOf(150, 100)).toBe(50);
    expect(changeOf(75, 100)).toBe(-25);
    expect(changeOf(100, 100)).toBe(0);
  });

  it('has no percentage from zero or from nothing', () => {
    expect(changeOf(10, 0)).toBeNull();
    expect(changeOf(10, null)).toBeNull();
    expect(changeOf(null, 10)).toBeNull();
  });
});

describe('topBucketLabel and sharePercent (chart axes and values)', () => {
  it('labels the last bucket with a plus and every other count as it is', () => {
    expect([1, 9, 10, 14].map((count) => topBucketLabel(count, 10))).toEqual(['1', '9', '10+', '10+']);
  });

  it('turns a share into a percent with two decimals', () => {
    expect(sharePercent(0.12345)).toBe(12.35);
    expect(sharePercent(1 / 8)).toBe(12.5);
    expect(sharePercent(0)).toBe(0);
  });
});
