import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import { canonicalPhone, displayPhone, editablePhone } from '../../src/format/phone.js';

describe('canonicalPhone', () => {
  it('stores US numbers however they were typed as one E.164 value', () => {
    expect(canonicalPhone('(503) 555-4585')).toBe('+15035554585');
    expect(canonicalPhone('5035550199')).toBe('+15035550199');
    expect(canonicalPhone('503.555.0199')).toBe('+15035550199');
    expect(canonicalPhone('503-555-0199')).toBe('+15035550199');
    expect(canonicalPhone('  503 555 0199 ')).toBe('+15035550199');
    expect(canonicalPhone('15035550199')).toBe('+15035550199');
  });

  it('reads plain US numbers (its shortcut past libphonenumber) exactly as libphonenumber does', () => {
    const separators = ['', '-', ' ', '.'];
    for (let area = 100; area < 1000; area += 7) {
      for (const [index, separator] of separators.entries()) {
        const typed = `${index % 2 === 0 ? `(${area})` : area}${separator}555${separators[3 - index]}0${area}`;
        const parsed = parsePhoneNumberFromString(typed, 'US');
        expect(canonicalPhone(typed), typed).toBe(parsed?.isPossible() ? parsed.number : typed);
      }
    }
  });

  it('keeps the country code of numbers written with one', () => {
    expect(canonicalPhone('+442079460958')).toBe('+442079460958');
    expect(canonicalPhone('+1(503)555-0199')).toBe('+15035550199');
    // Too short for El Salvador, still written with a country code: '+' and its digits.
    expect(canonicalPhone('+503 555 0199')).toBe('+5035550199');
  });

  it('keeps empty as empty and a number of no region as typed', () => {
    expect(canonicalPhone('')).toBe('');
    expect(canonicalPhone('   ')).toBe('');
    expect(canonicalPhone('503-555-458512')).toBe('503-555-458512');
  });
});

describe('displayPhone', () => {
  it('shows US numbers in the national form and others in the international form', () => {
    expect(displayPhone('+15035554585')).toBe('(503) 555-4585');
    expect(displayPhone('+442079460958')).toBe('+44 20 7946 0958');
  });

  it('shows what it cannot read as stored', () => {
    expect(displayPhone('')).toBe('');
    expect(displayPhone('503-555-458512')).toBe('503-555-458512');
    expect(displayPhone('+5035550199')).toBe('+5035550199');
  });
});

describe('editablePhone', () => {
  it('starts a US number in the form the spec rule accepts and others as stored', () => {
    expect(editablePhone('+15035554585')).toBe('(503) 555-4585');
    expect(editablePhone('+442079460958')).toBe('+442079460958');
    expect(editablePhone('')).toBe('');
  });
});
