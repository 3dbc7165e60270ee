/**
 * When a campaign sends (docs/campaigns.md, "Scheduling"), pure: the instants of a schedule written in a company's
 * time zone as days (`start`, `end`, weekdays, a day of the month) and times of day. Local times become instants
 * through `Intl.DateTimeFormat` alone, so a 09:00 send stays at 09:00 on both sides of a daylight-saving change.
 * A time that does not exist on a spring-forward day (02:30 in New York) sends as late as the gap (03:30); a
 * time that happens twice on a fall-back day sends at its first occurrence.
 */

/** A schedule as a campaign saves it. */
export interface CampaignSchedule {
  repeat_on: 'once' | 'daily' | 'weekly' | 'monthly';
  /** First local day (YYYY-MM-DD), null: from the day of the send. */
  start: string | null;
  /** Last local day (inclusive), null: no end. */
  end: string | null;
  /** Weekly: weekday codes mon…sun. */
  selectedDays: readonly string[];
  /** Times of day, HH:MM. */
  schedules: readonly string[];
}

const DAY_MS = 86_400_000;
const WEEKDAY_CODES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** Days looked ahead for the next send: a monthly campaign on the 31st waits at most this long. */
const HORIZON_DAYS = 800;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall-clock time in `zone` at instant `ms`, as milliseconds of the same wall clock read as UTC. */
export function wallClock(zone: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The zone's offset from UTC at instant `ms` (wall clock minus UTC), whole seconds. */
function offsetAt(zone: string, ms: number): number {
  return wallClock(zone, Math.floor(ms / 1000) * 1000) - Math.floor(ms / 1000) * 1000;
}

/** True when `zone` is a time zone Intl knows. */
export function isTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** The instant a local day and time of day happen in `zone` (gaps and repeats as the module says). */
export function localInstant(zone: string, day: string, time: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const local = Date.UTC(year, month - 1, date, hour, minute);
  // At most one change happens within a day either side, so the offsets a day before and after are the candidates.
  const before = local - offsetAt(zone, local - DAY_MS);
  const after = local - offsetAt(zone, local + DAY_MS);
  const valid = [before, after].filter((instant) => wallClock(zone, instant) === local);
  if (valid.length === 0) return new Date(before);
  return new Date(Math.min(...valid));
}

/** The local day (YYYY-MM-DD) of an instant in `zone`. */
export function localDay(zone: string, instant: Date): string {
  return dayString(wallClock(zone, instant.getTime()));
}

function dayString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function dayMs(day: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, date);
}

/** The day of the month a monthly schedule sends on in the month of `ms`: the start's, or the month's last. */
function monthlyDay(startDay: number, ms: number): number {
  const at = new Date(ms);
  const lastDay = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
  return Math.min(startDay, lastDay);
}

/** Whether the schedule sends on the local day `ms` (midnight UTC of that day). */
function sendsOn(schedule: CampaignSchedule, ms: number, startDay: number): boolean {
  switch (schedule.repeat_on) {
    case 'once':
    case 'daily':
      return true;
    case 'weekly':
      return schedule.selectedDays.includes(WEEKDAY_CODES[new Date(ms).getUTCDay()]!);
    case 'monthly':
      return new Date(ms).getUTCDate() === monthlyDay(startDay, ms);
  }
}

/**
 * The first send instant of the schedule strictly after `after`, or null when none is left (past `end`, a `once`
 * already passed). `once` sends only at `start` + the first time of day.
 */
export function nextSendAt(schedule: CampaignSchedule, zone: string, after: Date): Date | null {
  const times = [...schedule.schedules].sort();
  if (times.length === 0) return null;
  const today = dayMs(localDay(zone, after));
  const first = schedule.start ? Math.max(dayMs(schedule.start), today) : today;
  const last = schedule.end ? dayMs(schedule.end) : first + HORIZON_DAYS * DAY_MS;
  if (schedule.repeat_on === 'once') {
    if (!schedule.start) return null;
    const instant = localInstant(zone, schedule.start, schedule.schedules[0]!);
    return instant.getTime() > after.getTime() ? instant : null;
  }
  const startDay = new Date(schedule.start ? dayMs(schedule.start) : today).getUTCDate();
  // The day before `after`'s local day is looked at too: its late times can fall after `after` across a change.
  for (let ms = first - DAY_MS; ms <= Math.min(last, first + HORIZON_DAYS * DAY_MS); ms += DAY_MS) {
    if (schedule.start && ms < dayMs(schedule.start)) continue;
    if (!sendsOn(schedule, ms, startDay)) continue;
    for (const time of times) {
      const instant = localInstant(zone, dayString(ms), time);
      if (instant.getTime() > after.getTime()) return instant;
    }
  }
  return null;
}
