import { describe, expect, it } from 'vitest';
import { quantileOfCounts } from '../../server/services/customer-journey.service.js';
import type { CustomerJourney } from '../../src/schemas/customer-journey.js';
import {
  cellValue,
  journeyHeatmap,
  journeyMatrix,
  shortNames,
} from '../../src/views/customer-journey/journey-charts.js';

/** The quantile of a plain list of values, sorted, with linear interpolation between ranks. */
function quantileOfValues(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = q * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.min(low + 1, sorted.length - 1);
  return Math.round((sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low)) * 10) / 10;
}

describe('customer journey figures', () => {
  it('takes quantiles of counted values as of the values themselves', () => {
    const counts = [
      { value: 2, count: 3 },
      { value: 5, count: 1 },
      { value: 9, count: 4 },
      { value: 40, count: 2 },
    ];
    const values = counts.flatMap((entry) => Array<number>(entry.count).fill(entry.value));
    for (const q of [0, 0.25, 0.5, 0.75, 1])
      expect(quantileOfCounts(counts, q)).toBe(quantileOfValues(values, q));
    expect(quantileOfCounts([], 0.5)).toBeNull();
  });

  it('drops the words every location name shares, and nothing else', () => {
    expect(shortNames(['Harbor & Vine Alberta', 'Harbor & Vine Nob Hill'])).toEqual(['Alberta', 'Nob Hill']);
    expect(shortNames(['North', 'South'])).toEqual(['North', 'South']);
    expect(shortNames(['Cafe', 'Cafe Two'])).toEqual(['Cafe', 'Cafe Two']);
    expect(shortNames(['Solo Place'])).toEqual(['Solo Place']);
  });

  it('builds the matrix with a row total, a "did not return" cell and row percentages', () => {
    const figures = {
      locations: [
        { id: 1, name: 'Group North' },
        { id: 2, name: 'Group South' },
      ],
      moves: [
        { from_location_id: 1, to_location_id: 1, guests: 2 },
        { from_location_id: 1, to_location_id: 2, guests: 1 },
        { from_location_id: 1, to_location_id: null, guests: 5 },
        { from_location_id: 2, to_location_id: null, guests: 4 },
      ],
    } as CustomerJourney;
    const matrix = journeyMatrix(figures);
    expect(matrix.rows).toEqual([
      { locationId: 1, name: 'Group North', total: 8, next: [2, 1], notReturned: 5 },
      { locationId: 2, name: 'Group South', total: 4, next: [0, 0], notReturned: 4 },
    ]);
    expect(cellValue(1, 8, 'rowPercent')).toBe(12.5);
    expect(cellValue(0, 0, 'rowPercent')).toBe(0);
    const series = journeyHeatmap(matrix, 'rowPercent', (name, row) => `${name} (${row.total})`, 'None');
    // ApexCharts draws the last series on top: the first row comes last.
    expect(series.map((row) => row.name)).toEqual(['South (4)', 'North (8)']);
    expect(series[1]!.data).toEqual([
      { x: 'North', y: 25 },
      { x: 'South', y: 12.5 },
      { x: 'None', y: 62.5 },
    ]);
  });
});
