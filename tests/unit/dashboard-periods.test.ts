import { describe, expect, it } from 'vitest';
import { periodOf, periodsOf, periodStart } from '../../src/schemas/dashboard-periods.js';

// The one rule every dashboard groups its series by, at its edges, against days counted by hand.

/** The day `n` days after `day`, counted on the calendar (no shared helper). */
const after = (day: string, n: number) => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
};

describe('dashboard periods', () => {
  it('draws days up to 31 days, weeks up to 182 days (26 weeks), months beyond', () => {
    const from = '2025-01-01';
    expect(periodOf({ from, to: from })).toBe('day');
    expect(periodOf({ from, to: after(from, 30) })).toBe('day');
    expect(periodOf({ from, to: after(from, 31) })).toBe('week');
    expect(periodOf({ from, to: after(from, 181) })).toBe('week');
    expect(periodOf({ from, to: after(from, 182) })).toBe('month');
  });

  it('starts weeks on Monday and months on the first, and lists each period once', () => {
    // 2025-03-05 is a Wednesday; 2025-03-03 the Monday before it.
    expect(periodStart('2025-03-05', 'week')).toBe('2025-03-03');
    expect(periodStart('2025-03-03', 'week')).toBe('2025-03-03');
    expect(periodStart('2025-03-09', 'week')).toBe('2025-03-03');
    expect(periodStart('2025-03-05', 'month')).toBe('2025-03-01');
    expect(periodStart('2025-03-05', 'day')).toBe('2025-03-05');
    expect(periodsOf({ from: '2025-03-05', to: '2025-03-18' }, 'week')).toEqual([
      '2025-03-03',
      '2025-03-10',
      '2025-03-17',
    ]);
    expect(periodsOf({ from: '2024-12-30', to: '2025-02-01' }, 'month')).toEqual([
      '2024-12-01',
      '2025-01-01',
      '2025-02-01',
    ]);
    expect(periodsOf({ from: '2025-03-30', to: '2025-04-01' }, 'day')).toEqual([
      '2025-03-30',
      '2025-03-31',
      '2025-04-01',
    ]);
  });
});
