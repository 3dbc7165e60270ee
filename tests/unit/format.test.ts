import { describe, expect, it } from 'vitest';
import {
  formatApproximateCount,
  formatCount,
  languageOf,
  formatCurrency,
  formatDate,
  formatDateTime,
  formatPercent,
  formatTime,
  unixToIsoDate,
} from '../../src/format/index.js';
import type { Language } from '../../src/schemas/constants.js';

const MOMENT = '2026-03-05T14:07:00Z';

describe('money', () => {
  it('has a dollar sign, two decimals and thousands separators', () => {
    expect(formatCurrency(1234.5)).toBe('$1,234.50');
    expect(formatCurrency(1234567.891)).toBe('$1,234,567.89');
    expect(formatCurrency(0)).toBe('$0.00');
    expect(formatCurrency('19.9')).toBe('$19.90');
    expect(formatCurrency(-3.1)).toBe('-$3.10');
    expect(formatCurrency(-0.001)).toBe('$0.00');
  });

  it('leaves an empty amount blank', () => {
    for (const empty of [null, undefined, '', '  ', 'n/a', Number.NaN])
      expect(formatCurrency(empty)).toBe('');
  });
});

describe('percentages', () => {
  it('have two decimals', () => {
    expect(formatPercent(12.5)).toBe('12.50%');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(1234.567)).toBe('1,234.57%');
    expect(formatPercent('7')).toBe('7.00%');
    expect(formatPercent(66.6667, { whole: true })).toBe('67%');
    expect(formatPercent(1234.4, { whole: true })).toBe('1,234%');
  });

  it("give '' for an empty value, or '0%' where nothing means none", () => {
    expect(formatPercent(null)).toBe('');
    expect(formatPercent('')).toBe('');
    expect(formatPercent(undefined, { empty: 'zero' })).toBe('0%');
    expect(formatPercent(Number.NaN, { empty: 'zero' })).toBe('0%');
    expect(formatPercent(3, { empty: 'zero' })).toBe('3.00%');
  });
});

describe('dates', () => {
  it("use 'lll', 'MMM DD, YYYY' and 'hh:mm a' (lower-case marker) in English", () => {
    expect(formatDateTime(MOMENT, 'en', 'UTC')).toBe('Mar 5, 2026 2:07 PM');
    expect(formatDate(MOMENT, 'en', 'UTC')).toBe('Mar 05, 2026');
    expect(formatTime(MOMENT, 'en', 'UTC')).toBe('02:07 pm');
  });

  it('follow the time zone', () => {
    expect(formatTime(MOMENT, 'en', 'America/New_York')).toBe('09:07 am');
    expect(formatDate('2026-03-05T02:00:00Z', 'en', 'America/Los_Angeles')).toBe('Mar 04, 2026');
  });

  // What a reader of each language writes for 5 March 2026, 14:07 (not US order with translated month names).
  const WRITTEN: Record<Exclude<Language, 'en'>, { date: string; time: string; dateTime: string }> = {
    de: { date: '5. März 2026', time: '14:07', dateTime: '5. März 2026 14:07' },
    fr: { date: '5 mars 2026', time: '14:07', dateTime: '5 mars 2026 14:07' },
    es: { date: '5 de mar de 2026', time: '14:07', dateTime: '5 de mar de 2026 14:07' },
    jp: { date: '2026年3月5日', time: '14:07', dateTime: '2026年3月5日 14:07' },
    ch: { date: '2026年3月5日', time: '14:07', dateTime: '2026年3月5日 14:07' },
  };
  for (const [language, written] of Object.entries(WRITTEN) as [
    Exclude<Language, 'en'>,
    typeof WRITTEN.de,
  ][]) {
    it(`write ${language} dates and times in that language's own order and clock`, () => {
      expect(formatDate(MOMENT, language, 'UTC')).toBe(written.date);
      expect(formatTime(MOMENT, language, 'UTC')).toBe(written.time);
      expect(formatDateTime(MOMENT, language, 'UTC')).toBe(written.dateTime);
    });
  }

  it('leave a missing or invalid date blank', () => {
    expect(formatDate(null, 'en')).toBe('');
    expect(formatDateTime('', 'en')).toBe('');
    expect(formatTime('not a date', 'en')).toBe('');
  });

  it('turn unix time into YYYY-MM-DD', () => {
    expect(unixToIsoDate(1772719620)).toBe('2026-03-05');
    expect(unixToIsoDate('0')).toBe('1970-01-01');
    expect(unixToIsoDate(1772676000, 'America/Los_Angeles')).toBe('2026-03-04');
    expect(unixToIsoDate(null)).toBe('');
  });
});

describe('counts', () => {
  it("writes whole numbers with each language's separators, English for an unknown language", () => {
    expect(formatCount(1234567, 'en')).toBe('1,234,567');
    expect(formatCount(1234567, 'de')).toBe('1.234.567');
    expect(formatCount(1234, 'xx')).toBe('1,234');
    expect(languageOf('jp')).toBe('jp');
    expect(languageOf('en-GB')).toBe('en');
  });

  it('writes an estimated count rounded as said in each language', () => {
    expect(formatApproximateCount(1_234_567, 'en')).toBe('1.2 million');
    expect(formatApproximateCount(1_234_567, 'de')).toBe('1,2 Millionen');
    expect(formatApproximateCount(1_234_567, 'fr')).toBe('1,2 million');
    expect(formatApproximateCount(1_234_567, 'es')).toBe('1,2 millones');
    expect(formatApproximateCount(1_234_567, 'jp')).toBe('123.5万');
    expect(formatApproximateCount(1_234_567, 'ch')).toBe('123.5万');
  });
});
