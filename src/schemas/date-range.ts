import { addDays } from './dashboard-query.js';

/** The ranges a dashboard offers, and `custom` for two days the user picked. */
export const DATE_RANGE_PRESETS = [
  'last7',
  'last30',
  'last90',
  'thisMonth',
  'lastMonth',
  'yearToDate',
  'custom',
] as const;
/** One of the dashboard ranges. */
export type DateRangePreset = (typeof DATE_RANGE_PRESETS)[number];

/** The range every figure of a dashboard covers: inclusive `YYYY-MM-DD` days and the preset that made it. */
export interface DateRange {
  from: string;
  to: string;
  preset: DateRangePreset;
}

/** The first day of the month of a `YYYY-MM-DD` day. */
const monthStart = (day: string) => `${day.slice(0, 7)}-01`;

/**
 * The days of a preset seen from `today` (`YYYY-MM-DD`, the user's local date). The "last N days" are whole days
 * ending yesterday, so a morning's reading compares complete days with complete days; this month and the year
 * to date run to today. `custom` has no days of its own: it starts as the last 30 days, then the user's.
 */
export function rangeOfPreset(preset: DateRangePreset, today: string): DateRange {
  const yesterday = addDays(today, -1);
  switch (preset) {
    case 'last7':
      return { from: addDays(today, -7), to: yesterday, preset };
    case 'last90':
      return { from: addDays(today, -90), to: yesterday, preset };
    case 'thisMonth':
      return { from: monthStart(today), to: today, preset };
    case 'lastMonth': {
      const lastDay = addDays(monthStart(today), -1);
      return { from: monthStart(lastDay), to: lastDay, preset };
    }
    case 'yearToDate':
      return { from: `${today.slice(0, 4)}-01-01`, to: today, preset };
    case 'last30':
    case 'custom':
      return { from: addDays(today, -30), to: yesterday, preset };
  }
}
