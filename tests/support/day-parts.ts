/**
 * The day parts as the product defines them (`day_part()`, migration 0016), worked out independently in plain JS for
 * the tests that check figures by day part: breakfast from 5:00, lunch from 11:00, dinner from 16:00, late from 22:00.
 */

/** The day part of an opening hour (0–23, local). */
export function dayPartOfHour(hour: number): 'breakfast' | 'lunch' | 'dinner' | 'late' {
  if (hour >= 5 && hour < 11) return 'breakfast';
  if (hour >= 11 && hour < 16) return 'lunch';
  if (hour >= 16 && hour < 22) return 'dinner';
  return 'late';
}

/** The hour (0–23) of an instant in a time zone, as the JS runtime reads it. */
export function localHour(at: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(at));
}
