import { describe, expect, it } from 'vitest';
import { tableCsv } from '../../src/views/kit/table-csv.js';

const COLUMNS = [
  { key: 'name', label: 'Location' },
  { key: 'revenue', label: 'Revenue, $' },
];

describe('tableCsv (a chart’s data as CSV)', () => {
  it('writes a header and one CRLF-ended line per row, numbers plain', () => {
    expect(
      tableCsv(COLUMNS, [
        { name: 'Harbour', revenue: 1234.5 },
        { name: 'Old Town', revenue: null },
      ]),
    ).toBe('Location,"Revenue, $"\r\nHarbour,1234.5\r\nOld Town,\r\n');
  });

  it('quotes commas, quotes and line breaks as RFC 4180 asks', () => {
    const csv = tableCsv(COLUMNS, [{ name: 'Bar "Luna", upstairs\nroom', revenue: -12 }]);
    expect(csv.split('\r\n')[1]).toBe('"Bar ""Luna"", upstairs\nroom",-12');
  });

  it('guards text that a spreadsheet would run as a formula, not negative numbers', () => {
    const csv = tableCsv(COLUMNS, [
      { name: '=HYPERLINK("x")', revenue: -3 },
      { name: '+1', revenue: 0 },
      { name: '-2', revenue: 0 },
      { name: '@SUM(A1)', revenue: 0 },
    ]);
    expect(csv.split('\r\n').slice(1, 5)).toEqual([
      `"'=HYPERLINK(""x"")",-3`,
      "'+1,0",
      "'-2,0",
      "'@SUM(A1),0",
    ]);
  });
});
