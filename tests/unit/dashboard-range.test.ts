import { describe, expect, it } from 'vitest';
import { rangeOfPreset } from '../../src/machines/kit/dashboard-machine.js';
import { daysIn, dashboardQuerySchema, previousPeriod } from '../../src/schemas/dashboard-query.js';

// Day arithmetic checked by walking the calendar one day at a time, not by the code under test.
function walkDays(from: string, count: number): string[] {
  const days: string[] = [];
  const [year, month, day] = from.split('-').map(Number) as [number, number, number];
  for (let index = 0; index < count; index += 1) {
    const date = new Date(Date.UTC(year, month - 1, day + index));
    days.push(date.toISOString().slice(0, 10));
  }
  return days;
}

describe('rangeOfPreset', () => {
  const today = '2026-03-01';

  it('ends the "last N days" yesterday, N whole days long', () => {
    for (const [preset, length] of [
      ['last7', 7],
      ['last30', 30],
      ['last90', 90],
    ] as const) {
      const range = rangeOfPreset(preset, today);
      expect(range.to).toBe('2026-02-28');
      expect(daysIn(range)).toBe(length);
      expect(walkDays(range.from, length).at(-1)).toBe(range.to);
      expect(range.preset).toBe(preset);
    }
  });

  it('runs this month and the year to today, and last month whole', () => {
    expect(rangeOfPreset('thisMonth', today)).toEqual({
      from: '2026-03-01',
      to: '2026-03-01',
      preset: 'thisMonth',
    });
    expect(rangeOfPreset('yearToDate', today)).toEqual({
      from: '2026-01-01',
      to: '2026-03-01',
      preset: 'yearToDate',
    });
    expect(rangeOfPreset('lastMonth', today)).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
      preset: 'lastMonth',
    });
    expect(rangeOfPreset('lastMonth', '2024-03-15')).toMatchObject({ from: '2024-02-01', to: '2024-02-29' });
    expect(rangeOfPreset('lastMonth', '2026-01-10')).toMatchObject({ from: '2025-12-01', to: '2025-12-31' });
  });

  it('starts a custom range as the last 30 days', () => {
    expect(rangeOfPreset('custom', today)).toEqual({ ...rangeOfPreset('last30', today), preset: 'custom' });
  });
});

describe('previousPeriod', () => {
  it('is as many days, ending the day before the range starts', () => {
    for (const [from, length] of [
      ['2026-03-01', 1],
      ['2026-03-01', 7],
      ['2024-02-20', 20],
      ['2026-01-01', 365],
    ] as const) {
      const range = { from, to: walkDays(from, length).at(-1)! };
      const previous = previousPeriod(range);
      const before = walkDays(previous.from, length + 1);
      expect(before.at(-2)).toBe(previous.to);
      expect(before.at(-1)).toBe(range.from);
    }
  });

  it('crosses a leap day', () => {
    expect(previousPeriod({ from: '2024-03-01', to: '2024-03-02' })).toEqual({
      from: '2024-02-28',
      to: '2024-02-29',
    });
  });
});

describe('dashboardQuerySchema', () => {
  it('takes repeated locations and groups and an optional comparison', () => {
    const query = dashboardQuerySchema.parse({
      from_date: '2026-01-01',
      to_date: '2026-01-31',
      compare: 'previous',
      location_id: ['3', '4'],
      location_group_id: '9',
    });
    expect(query).toEqual({
      from_date: '2026-01-01',
      to_date: '2026-01-31',
      compare: 'previous',
      location_id: [3, 4],
      location_group_id: [9],
    });
  });

  it('names the field of a bad range', () => {
    const fieldsOf = (input: object) =>
      dashboardQuerySchema
        .safeParse(input)
        .error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(fieldsOf({ from_date: '2026-02-30', to_date: '2026-03-01' })).toEqual([
      ['from_date', 'must be a date written YYYY-MM-DD'],
    ]);
    expect(fieldsOf({ from_date: '2026-03-02', to_date: '2026-03-01' })).toEqual([
      ['to_date', 'to_date must not be before from_date'],
    ]);
    expect(fieldsOf({ from_date: '2024-01-01', to_date: '2025-12-31' })).toBeUndefined();
    expect(fieldsOf({ from_date: '2024-01-01', to_date: '2026-01-01' })).toEqual([
      ['to_date', 'to_date must be at most 731 days after from_date'],
    ]);
    expect(fieldsOf({ from_date: '2026-01-01', to_date: '2026-01-02', compare: 'last-year' })).toEqual([
      ['compare', 'compare must be previous'],
    ]);
  });
});

describe('todayIn (the presets count from the company’s today)', () => {
  it('reads the day in the company’s zone, not the browser’s', async () => {
    const { todayIn } = await import('../../src/app/dashboard-range.js');
    // 03:00 UTC on 1 March is still 28 February in New York and already 1 March in Tokyo.
    const at = new Date('2026-03-01T03:00:00Z');
    expect(todayIn('America/New_York', at)).toBe('2026-02-28');
    expect(todayIn('Asia/Tokyo', at)).toBe('2026-03-01');
    expect(rangeOfPreset('thisMonth', todayIn('America/New_York', at))).toMatchObject({
      from: '2026-02-01',
      to: '2026-02-28',
    });
  });
});
