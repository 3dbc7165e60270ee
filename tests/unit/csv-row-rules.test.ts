import { describe, expect, it } from 'vitest';
import { mapColumns } from '../../server/imports/columns.js';
import { checkRow } from '../../server/imports/row-rules.js';

describe('mapColumns', () => {
  it('matches header names in any case and with surrounding spaces, ignoring other columns', () => {
    const map = mapColumns('subscriber', [' Notes ', ' EMAIL ', 'First Name', 'zip']);
    expect(map.positions).toEqual({ email: 1, first_name: 2, zip: 3 });
    expect(map.missing).toEqual([]);
  });

  it('names every missing required column', () => {
    expect(mapColumns('guest', ['Customer_Name', 'email']).missing).toEqual(['last_four_digits', 'pos_id']);
    expect(mapColumns('subscriber', ['first_name']).missing).toEqual(['email']);
  });
});

describe('checkRow', () => {
  const subscribers = mapColumns('subscriber', [
    'email',
    'first_name',
    'phone',
    'zip',
    'birthday',
    'subscribed',
  ]);

  it('normalises a valid subscriber: trimmed, the phone as E.164, subscribed by default, a new hashid', () => {
    const checked = checkRow('subscriber', subscribers, {
      line: 2,
      fields: ['  Ann@Example.com ', ' Ann ', '555-123-4567', '12345', '1990-04-01', ''],
    });
    expect(checked.problems).toEqual([]);
    expect(checked.fields!.slice(0, 8)).toEqual([
      'Ann@Example.com',
      'Ann',
      '',
      // Stored as E.164, as the add dialog stores it.
      '+15551234567',
      '12345',
      '1990-04-01',
      'true',
      '',
    ]);
    expect(checked.fields![8]).toMatch(/^[0-9A-Za-z]{10}$/);
  });

  it('reads yes/no spellings of subscribed', () => {
    for (const [cell, value] of [
      ['No', 'false'],
      ['0', 'false'],
      ['FALSE', 'false'],
      ['yes', 'true'],
      ['1', 'true'],
    ]) {
      const checked = checkRow('subscriber', subscribers, {
        line: 2,
        fields: ['a@b.co', '', '', '', '', cell!],
      });
      expect(checked.fields![6]).toBe(value);
    }
  });

  it("gives the add dialog's messages, one per field, and treats missing cells as empty", () => {
    const checked = checkRow('subscriber', subscribers, {
      line: 7,
      fields: ['not-an-email', 'Bo', '12', '1234', '1990-13-45', 'maybe'],
    });
    expect(checked.fields).toBeNull();
    expect(checked.problems).toEqual([
      { field: 'email', code: 'invalid', params: {}, message: 'Email is not valid' },
      { field: 'phone', code: 'invalid', params: {}, message: 'Phone is not valid' },
      { field: 'zip', code: 'invalid', params: {}, message: 'Zip code is not valid' },
      { field: 'birthday', code: 'invalid', params: {}, message: 'Birthday is not valid' },
      { field: 'subscribed', code: 'invalid', params: {}, message: 'Subscribed is not valid' },
    ]);
    // Dates zod calls valid but PostgreSQL refuses (year 0) or no one is born on (the future).
    for (const birthday of ['0000-01-01', '1899-12-31', '2999-01-01']) {
      const odd = checkRow('subscriber', subscribers, { line: 9, fields: ['a@b.co', '', '', '', birthday] });
      expect(odd.problems, birthday).toEqual([
        { field: 'birthday', code: 'invalid', params: {}, message: 'Birthday is not valid' },
      ]);
    }
    const short = checkRow('subscriber', subscribers, { line: 8, fields: [] });
    expect(short.problems).toEqual([
      { field: 'email', code: 'required', params: {}, message: 'Email is required' },
    ]);
  });

  it('checks guest rows: name, four card digits and POS id required', () => {
    const guests = mapColumns('guest', ['customer_name', 'last_four_digits', 'pos_id']);
    expect(
      checkRow('guest', guests, { line: 2, fields: [' Jo Smith ', '4242', 'P-1'] }).fields!.slice(0, 3),
    ).toEqual(['Jo Smith', '4242', 'P-1']);
    expect(checkRow('guest', guests, { line: 3, fields: ['', '42', ''] }).problems).toEqual([
      { field: 'customer_name', code: 'required', params: {}, message: 'Customer name is required' },
      { field: 'last_four_digits', code: 'invalid', params: {}, message: 'Last four digits is not valid' },
      { field: 'pos_id', code: 'required', params: {}, message: 'POS id is required' },
    ]);
  });

  it('names a cell over its length with the longest length allowed', () => {
    const guests = mapColumns('guest', ['customer_name', 'last_four_digits', 'pos_id']);
    const checked = checkRow('guest', guests, { line: 5, fields: ['Jo', '4242', 'P'.repeat(101)] });
    expect(checked.problems).toEqual([
      { field: 'pos_id', code: 'too_long', params: { max: 100 }, message: 'POS id is not valid' },
    ]);
  });

  it('refuses a row whose quote never closes', () => {
    const checked = checkRow('subscriber', subscribers, { line: 4, fields: ['a@b.co'], unclosedQuote: true });
    expect(checked.problems).toEqual([
      {
        field: null,
        code: 'unclosed_quote',
        params: {},
        message: 'The row has a quote that is never closed',
      },
    ]);
  });
});
