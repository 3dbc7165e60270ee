import dayjs from 'dayjs';
import type { CampaignScheduleFields, Weekday } from '../schemas/campaigns.js';
import { WEEKDAYS } from '../schemas/campaigns.js';
// The time-zone plugins are extended where the formatters live.
import './index.js';

/** How far ahead the next send is looked for (days): beyond a year, nothing is shown. */
const HORIZON_DAYS = 400;

/** The weekday code of a calendar day (dayjs counts Sunday as 0). */
const weekdayOf = (day: dayjs.Dayjs): Weekday => WEEKDAYS[(day.day() + 6) % 7]!;

/**
 * When a schedule sends next after `now` (epoch ms), as an ISO instant (UTC), or null when nothing is due
 * (sent on the send action, or past its end). Days and times are the company's (`timeZone`): `once` sends
 * on `start` at the first time; `daily` every day from `start` (today when empty) to `end`; `weekly` on the
 * `selectedDays`; `monthly` on the day of the month of `start` (the last day in shorter months). A schedule
 * without a time sends at 09:00 (docs/campaigns.md).
 */
export function nextSendAt(schedule: CampaignScheduleFields, now: number, timeZone: string): string | null {
  const zone = timeZone || 'UTC';
  const times = (schedule.schedules.length ? [...schedule.schedules] : ['09:00']).sort();
  const today = dayjs(now).tz(zone).format('YYYY-MM-DD');
  if (schedule.repeat_on === 'once') {
    if (!schedule.start) return null;
    const at = dayjs.tz(`${schedule.start} ${times[0]}`, zone);
    return at.valueOf() > now ? at.toISOString() : null;
  }
  const first = schedule.start && schedule.start > today ? schedule.start : today;
  const anchor = dayjs(schedule.start ?? today);
  for (let offset = 0; offset < HORIZON_DAYS; offset += 1) {
    const day = dayjs(first).add(offset, 'day');
    const date = day.format('YYYY-MM-DD');
    if (schedule.end && date > schedule.end) return null;
    if (schedule.repeat_on === 'weekly' && !schedule.selectedDays.includes(weekdayOf(day))) continue;
    if (schedule.repeat_on === 'monthly' && day.date() !== Math.min(anchor.date(), day.daysInMonth()))
      continue;
    for (const time of times) {
      const at = dayjs.tz(`${date} ${time}`, zone);
      if (at.valueOf() > now) return at.toISOString();
    }
  }
  return null;
}
