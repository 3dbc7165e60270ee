import type { OperatingProfile } from './blueprints.js';
import type { Random } from './random.js';
import { wallClock } from '../../src/schemas/campaign-schedule.js';

/** Milliseconds in a calendar day. */
export const DAY_MS = 86_400_000;

/** The business days of the demo window with how busy each one is. */
export interface Calendar {
  /** Days since 1970-01-01 of the first business day (a local calendar date, not an instant). */
  firstEpochDay: number;
  /** Number of days in the window; day indexes run from 0 to days - 1. */
  days: number;
  /** Relative busy-ness of each day: weekday × month × slow growth, zero on closed holidays. */
  weights: Float64Array;
  maxWeight: number;
  /** Weekday of each day, 0 for Sunday to 6 for Saturday. */
  weekdays: Uint8Array;
  /** Month of each day, 0 for January to 11 for December. */
  months: Uint8Array;
}

/** Thanksgiving (fourth Thursday of November) and Christmas Day: every demo business is closed. */
function isClosedHoliday(date: Date): boolean {
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  if (month === 11 && day === 25) return true;
  return month === 10 && date.getUTCDay() === 4 && day >= 22 && day <= 28;
}

/**
 * The `months` months of business days ending two days before `until`'s UTC date, so that no check of
 * any western time zone, closing after midnight, lies after `until`. Only the date of `until` matters:
 * the same date gives the same calendar.
 */
export function buildCalendar(until: Date, months: number, profile: OperatingProfile): Calendar {
  const lastEpochDay = Math.floor(until.getTime() / DAY_MS) - 2;
  const last = new Date(lastEpochDay * DAY_MS);
  const firstEpochDay =
    Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - months, last.getUTCDate() + 1) / DAY_MS;
  const days = lastEpochDay - firstEpochDay + 1;
  const weights = new Float64Array(days);
  const weekdays = new Uint8Array(days);
  const monthOfDay = new Uint8Array(days);
  let maxWeight = 0;
  for (let day = 0; day < days; day++) {
    const date = new Date((firstEpochDay + day) * DAY_MS);
    weekdays[day] = date.getUTCDay();
    monthOfDay[day] = date.getUTCMonth();
    // A business that grows by about a fifth over the window, as a customer of a marketing product would.
    const growth = 0.9 + (0.2 * day) / days;
    const weight = isClosedHoliday(date)
      ? 0
      : profile.weekday[date.getUTCDay()]! * profile.month[date.getUTCMonth()]! * growth;
    weights[day] = weight;
    maxWeight = Math.max(maxWeight, weight);
  }
  return { firstEpochDay, days, weights, maxWeight, weekdays, months: monthOfDay };
}

/**
 * A business day in [from, to] drawn in proportion to the day weights (rejection sampling, so the cost
 * does not depend on the width of the range). A range of closed days only falls back to its first day.
 */
export function sampleDay(random: Random, calendar: Calendar, from: number, to: number): number {
  for (let attempt = 0; attempt < 64; attempt++) {
    const day = random.int(from, to);
    if (random.next() * calendar.maxWeight < calendar.weights[day]!) return day;
  }
  for (let day = from; day <= to; day++) if (calendar.weights[day]! > 0) return day;
  return from;
}

/** Turns local wall-clock times of one time zone into UTC instants, for every day of a calendar. */
export class ZoneClock {
  private readonly offsets: Float64Array;

  /**
   * Reads the zone's UTC offset once per day at 12:00 UTC (early morning in the Americas, after any 2 a.m.
   * daylight-saving change), which is right for every opening hour of that day.
   */
  constructor(
    readonly timeZone: string,
    private readonly calendar: Calendar,
  ) {
    this.offsets = new Float64Array(calendar.days);
    for (let day = 0; day < calendar.days; day++) {
      const instant = (calendar.firstEpochDay + day) * DAY_MS + DAY_MS / 2;
      this.offsets[day] = wallClock(timeZone, instant) - instant;
    }
  }

  /** The UTC instant (milliseconds) of a local time, given as seconds after local midnight of a day. */
  toUtc(day: number, secondOfDay: number): number {
    return (this.calendar.firstEpochDay + day) * DAY_MS + secondOfDay * 1000 - this.offsets[day]!;
  }
}
