import { localDay, localInstant, nextSendAt, wallClock } from '../campaigns/schedule.js';
import { FLOW_SENDING_DEFAULTS, waitSeconds, type FlowDelaySettings } from '../../src/schemas/flows.js';

/**
 * When a flow's next step is due (docs/flows.md, "Delays, quiet hours"), pure. Waits count from the moment the
 * delay was due, not from when a worker got to it, so a busy engine never stretches a flow; `wait_until` and quiet
 * hours are read in the location's time zone through the campaign schedule's local-time rules (a time that a
 * daylight-saving change skips happens as late as the gap; one that happens twice, at its first occurrence).
 */

/**
 * The instant a delay ends, counted from `from` (when the delay was due). Minutes and hours are absolute; N days
 * are N local calendar days at the same local time in `zone`, so across a daylight-saving change "wait 2 days"
 * is 47 or 49 hours and still lands at 10:00 (a time the change skips, as late as the gap; a repeated one, first).
 */
export function delayEnd(delay: FlowDelaySettings, from: Date, zone: string): Date {
  if (delay.type === 'wait' && delay.unit === 'days') return localDaysLater(from, delay.amount, zone);
  if (delay.type === 'wait') return new Date(from.getTime() + waitSeconds(delay) * 1000);
  const next = nextSendAt(
    { repeat_on: 'weekly', start: null, end: null, selectedDays: [delay.weekday], schedules: [delay.time] },
    zone,
    from,
  );
  // A weekly schedule always has a next instant within a week; the fallback only satisfies the type.
  return next ?? new Date(from.getTime() + 7 * 86_400_000);
}

/** The same local time of day `days` local calendar days after `from` in `zone`, to the millisecond. */
function localDaysLater(from: Date, days: number, zone: string): Date {
  const wall = wallClock(zone, from.getTime());
  // The wall clock keeps whole seconds; the seconds and milliseconds past the minute are carried over as they are.
  const pastMinute = (wall % 60_000) + (((from.getTime() % 1000) + 1000) % 1000);
  const target = new Date(wall - (wall % 60_000) + days * 86_400_000).toISOString();
  return new Date(localInstant(zone, target.slice(0, 10), target.slice(11, 16)).getTime() + pastMinute);
}

/** Minutes after local midnight of an HH:MM time. */
function minutesOf(time: string): number {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return hour * 60 + minute;
}

/**
 * The end of the quiet hours `at` falls in (the location's zone), or null when `at` is outside them. Quiet hours
 * run from `start` to `end` across midnight when `start` > `end` (21:00–08:00 by default).
 */
export function quietHoursEnd(
  at: Date,
  zone: string,
  start: string = FLOW_SENDING_DEFAULTS.quietHoursStart,
  end: string = FLOW_SENDING_DEFAULTS.quietHoursEnd,
): Date | null {
  const wall = wallClock(zone, at.getTime());
  const minute = Math.floor((wall % 86_400_000) / 60_000);
  const [from, to] = [minutesOf(start), minutesOf(end)];
  const quiet = from > to ? minute >= from || minute < to : minute >= from && minute < to;
  if (!quiet) return null;
  const today = localDay(zone, at);
  const endToday = localInstant(zone, today, end);
  if (endToday.getTime() > at.getTime()) return endToday;
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const tomorrow = new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
  return localInstant(zone, tomorrow, end);
}
