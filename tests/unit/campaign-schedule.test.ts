import { describe, expect, it } from 'vitest';
import { nextSendAt as previewNextSendAt } from '../../src/format/next-send.js';
import { localInstant, nextSendAt, type CampaignSchedule } from '../../src/schemas/campaign-schedule.js';

const NEW_YORK = 'America/New_York';
const weekly = (fields: Partial<CampaignSchedule>): CampaignSchedule => ({
  repeat_on: 'weekly',
  start: null,
  end: null,
  selectedDays: [],
  schedules: [],
  ...fields,
});

/** Every send instant from `after` on, up to `count`. */
function instants(schedule: CampaignSchedule, zone: string, after: string, count: number): string[] {
  const out: string[] = [];
  let at = new Date(after);
  for (let i = 0; i < count; i += 1) {
    const next = nextSendAt(schedule, zone, at);
    if (!next) break;
    out.push(next.toISOString());
    at = next;
  }
  return out;
}

describe('campaign schedule', () => {
  it('keeps a daily 09:00 send at 09:00 local across the spring and autumn changes', () => {
    const daily: CampaignSchedule = { ...weekly({}), repeat_on: 'daily', schedules: ['09:00'] };
    expect(instants(daily, NEW_YORK, '2026-03-06T20:00:00Z', 4)).toEqual([
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-10T13:00:00.000Z',
    ]);
    expect(instants(daily, NEW_YORK, '2026-10-31T00:00:00Z', 3)).toEqual([
      '2026-10-31T13:00:00.000Z',
      '2026-11-01T14:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
    ]);
    expect(instants(daily, 'Europe/Berlin', '2026-03-28T00:00:00Z', 2)).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
    ]);
  });

  it('sends a time lost to spring-forward as late as the gap, and a repeated time once, at its first', () => {
    expect(localInstant(NEW_YORK, '2026-03-08', '02:30').toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(localInstant(NEW_YORK, '2026-11-01', '01:30').toISOString()).toBe('2026-11-01T05:30:00.000Z');
    const nightly: CampaignSchedule = { ...weekly({}), repeat_on: 'daily', schedules: ['01:30'] };
    // 01:30 happens twice on 1 November: one send, at the first.
    expect(instants(nightly, NEW_YORK, '2026-10-31T12:00:00Z', 3)).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
      '2026-11-03T06:30:00.000Z',
    ]);
  });

  it('sends weekly on the chosen weekdays at each time, within start and end', () => {
    const schedule = weekly({
      start: '2026-03-02',
      end: '2026-03-15',
      selectedDays: ['mon', 'fri'],
      schedules: ['18:00', '08:15'],
    });
    expect(instants(schedule, 'UTC', '2026-01-01T00:00:00Z', 20)).toEqual([
      '2026-03-02T08:15:00.000Z',
      '2026-03-02T18:00:00.000Z',
      '2026-03-06T08:15:00.000Z',
      '2026-03-06T18:00:00.000Z',
      '2026-03-09T08:15:00.000Z',
      '2026-03-09T18:00:00.000Z',
      '2026-03-13T08:15:00.000Z',
      '2026-03-13T18:00:00.000Z',
    ]);
  });

  it('sends monthly on the start day, or the last day of a shorter month', () => {
    const monthly: CampaignSchedule = {
      ...weekly({}),
      repeat_on: 'monthly',
      start: '2026-01-31',
      schedules: ['10:00'],
    };
    expect(instants(monthly, 'UTC', '2026-01-01T00:00:00Z', 4)).toEqual([
      '2026-01-31T10:00:00.000Z',
      '2026-02-28T10:00:00.000Z',
      '2026-03-31T10:00:00.000Z',
      '2026-04-30T10:00:00.000Z',
    ]);
  });

  it('sends once at start and the first time, and never again', () => {
    const once: CampaignSchedule = {
      ...weekly({}),
      repeat_on: 'once',
      start: '2026-07-04',
      schedules: ['12:00', '08:00'],
    };
    expect(instants(once, NEW_YORK, '2026-01-01T00:00:00Z', 3)).toEqual(['2026-07-04T16:00:00.000Z']);
    expect(nextSendAt({ ...once, start: null }, NEW_YORK, new Date('2026-01-01T00:00:00Z'))).toBeNull();
  });

  it('agrees with Intl for every hour of a year in several zones (independent check of the wall clock)', () => {
    for (const zone of ['America/New_York', 'Europe/London', 'Australia/Sydney', 'Asia/Kolkata']) {
      const format = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      });
      for (let day = 0; day < 365; day += 1) {
        const date = new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10);
        const instant = localInstant(zone, date, '09:45');
        expect(format.format(instant), `${zone} ${date}`).toBe(`${date}, 09:45`);
      }
    }
  });

  it("shows in the editor's preview the instant the server schedules, at 09:00 when no time is named yet", () => {
    const now = Date.parse('2026-03-06T20:00:00Z');
    const fields = { categories: [], selectedDays: ['mon' as const, 'fri' as const], start: null, end: null };
    // Friday 2026-03-06 20:00 UTC is 15:00 in New York: the next of Monday or Friday at 10:30 is Monday the 9th.
    const timed = { ...fields, repeat_on: 'weekly' as const, schedules: ['10:30'] };
    expect(previewNextSendAt(timed, now, NEW_YORK)).toBe('2026-03-09T14:30:00.000Z');
    expect(previewNextSendAt(timed, now, NEW_YORK)).toBe(
      nextSendAt(timed, NEW_YORK, new Date(now))?.toISOString(),
    );
    const untimed = { ...timed, schedules: [] };
    expect(previewNextSendAt(untimed, now, NEW_YORK)).toBe('2026-03-09T13:00:00.000Z');
    // An empty zone reads as UTC; a once without start sends on the action, so has no instant.
    expect(previewNextSendAt(untimed, now, '')).toBe('2026-03-09T09:00:00.000Z');
    expect(previewNextSendAt({ ...untimed, repeat_on: 'once' }, now, NEW_YORK)).toBeNull();
  });
});
