import { nextSendAt as scheduleNextSendAt } from '../schemas/campaign-schedule.js';
import type { CampaignScheduleFields } from '../schemas/campaigns.js';

/** The time a schedule without one sends at in the preview (docs/campaigns.md); the server asks for one. */
const DEFAULT_TIME = '09:00';

/**
 * When a schedule sends next after `now` (epoch ms), as an ISO instant (UTC), or null when nothing is due
 * (sent on the send action, or past its end): the server's own computation (src/schemas/campaign-schedule.ts)
 * in the company's time zone, with 09:00 for a schedule that names no time yet.
 */
export function nextSendAt(schedule: CampaignScheduleFields, now: number, timeZone: string): string | null {
  const schedules = schedule.schedules.length ? schedule.schedules : [DEFAULT_TIME];
  const at = scheduleNextSendAt({ ...schedule, schedules }, timeZone || 'UTC', new Date(now));
  return at ? at.toISOString() : null;
}
