import { describe, expect, it } from 'vitest';
import { cellValue, fileRowsOf, parseCsv, rowKey } from '../../src/machines/support/csv-rows.js';

describe('parseCsv', () => {
  it('splits records and fields with LF or CRLF line ends and no trailing record', () => {
    expect(parseCsv('a,b\r\nc,d\ne,f\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]);
  });

  it('reads quoted fields holding commas, doubled quotes and line breaks', () => {
    expect(parseCsv('name,pos\n"Lee, Ana ""AJ""\nSr.",P-1\n')).toEqual([
      ['name', 'pos'],
      ['Lee, Ana "AJ"\nSr.', 'P-1'],
    ]);
  });

  it('ignores a byte order mark and keeps a last line without a line end', () => {
    expect(parseCsv('\uFEFFemail,pos_id\nx@example.com,9')).toEqual([
      ['email', 'pos_id'],
      ['x@example.com', '9'],
    ]);
  });

  it('gives a blank line as one empty field', () => {
    expect(parseCsv('a,b\n\nc,d\n')).toEqual([['a', 'b'], [''], ['c', 'd']]);
  });
});

describe('cellValue', () => {
  it('removes the apostrophe the server puts before a formula-like cell', () => {
    expect(cellValue("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(cellValue("'+1 555 0100")).toBe('+1 555 0100');
    expect(cellValue("'-3")).toBe('-3');
    expect(cellValue("'@home")).toBe('@home');
  });

  it('keeps every other apostrophe', () => {
    expect(cellValue("O'Brien")).toBe("O'Brien");
    expect(cellValue("'quoted'")).toBe("'quoted'");
  });
});

describe('fileRowsOf', () => {
  it('reads guest rows by header name and discards rows with one field or fewer', () => {
    const text = [
      'customer_name,last_four_digits,pos_id',
      'Ana Lee,1234,P-1',
      'Solo',
      '',
      "'=Evil,0001,P-2",
    ].join('\r\n');
    expect(fileRowsOf('guest', text)).toEqual({
      rows: [
        { customer_name: 'Ana Lee', last_four_digits: '1234', pos_id: 'P-1' },
        { customer_name: '=Evil', last_four_digits: '0001', pos_id: 'P-2' },
      ],
      discarded: 2,
    });
  });

  it('finds columns in another order and any case', () => {
    const text = 'POS_ID , Email\n7,b@example.com\n';
    expect(fileRowsOf('subscriber', text)).toEqual({
      rows: [{ email: 'b@example.com', pos_id: '7' }],
      discarded: 0,
    });
  });

  it('keeps an empty POS id of a subscriber row that has an email', () => {
    expect(fileRowsOf('subscriber', 'email,pos_id\nc@example.com,\n').rows).toEqual([
      { email: 'c@example.com', pos_id: '' },
    ]);
  });

  it('answers no rows for an empty file or a header alone', () => {
    expect(fileRowsOf('guest', '')).toEqual({ rows: [], discarded: 0 });
    expect(fileRowsOf('guest', 'customer_name,last_four_digits,pos_id\n')).toEqual({
      rows: [],
      discarded: 0,
    });
  });
});

describe('rowKey', () => {
  it('matches guests on name and last four digits, ignoring case and spaces', () => {
    expect(rowKey({ customer_name: ' Ana LEE', last_four_digits: '1234', pos_id: '1' })).toBe(
      rowKey({ customer_name: 'ana lee ', last_four_digits: '1234', pos_id: '2' }),
    );
    expect(rowKey({ customer_name: 'Ana Lee', last_four_digits: '1234', pos_id: '1' })).not.toBe(
      rowKey({ customer_name: 'Ana Lee', last_four_digits: '9999', pos_id: '1' }),
    );
  });

  it('matches subscribers on email, ignoring case and spaces', () => {
    expect(rowKey({ email: 'A@Example.com ', pos_id: '' })).toBe(
      rowKey({ email: 'a@example.com', pos_id: '5' }),
    );
  });
});
