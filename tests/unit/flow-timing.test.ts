import { describe, expect, it } from 'vitest';
import { delayEnd, quietHoursEnd } from '../../server/flows/timing.js';
import { testClock, testClockEnabled } from '../../server/flows/clock.js';

/** The flow engine's pure parts: waits, quiet hours, and the test clock's switch. */

const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';

describe('flow timing', () => {
  it('waits N units from the due time, and until a local weekday and time across daylight-saving changes', () => {
    const from = new Date('2026-03-07T17:00:00Z');
    expect(delayEnd({ type: 'wait', amount: 90, unit: 'minutes' }, from, NY).toISOString()).toBe(
      '2026-03-07T18:30:00.000Z',
    );
    // Monday 10:00 after the spring-forward is 14:00 UTC; after the fall-back (2 November 2026) it is 15:00 UTC.
    expect(delayEnd({ type: 'wait_until', weekday: 'mon', time: '10:00' }, from, NY).toISOString()).toBe(
      '2026-03-09T14:00:00.000Z',
    );
    expect(
      delayEnd(
        { type: 'wait_until', weekday: 'mon', time: '10:00' },
        new Date('2026-10-31T16:00:00Z'),
        NY,
      ).toISOString(),
    ).toBe('2026-11-02T15:00:00.000Z');
    // At the very instant, the next week's.
    expect(
      delayEnd(
        { type: 'wait_until', weekday: 'mon', time: '10:00' },
        new Date('2026-03-09T14:00:00Z'),
        NY,
      ).toISOString(),
    ).toBe('2026-03-16T14:00:00.000Z');
  });

  it('waits N days as N local calendar days at the same local time across daylight-saving changes', () => {
    const days = (amount: number, from: string, zone: string) =>
      delayEnd({ type: 'wait', amount, unit: 'days' }, new Date(from), zone).toISOString();
    const hours = (amount: number, from: string, zone: string) =>
      delayEnd({ type: 'wait', amount, unit: 'hours' }, new Date(from), zone).toISOString();
    // New York springs forward on 8 March 2026: Saturday 10:00 EST + 1 day is Sunday 10:00 EDT (23 hours).
    expect(days(1, '2026-03-07T15:00:00Z', NY)).toBe('2026-03-08T14:00:00.000Z');
    expect(days(2, '2026-03-07T15:00:12.345Z', NY)).toBe('2026-03-09T14:00:12.345Z');
    // Hours stay absolute: 24 hours later is 11:00 EDT.
    expect(hours(24, '2026-03-07T15:00:00Z', NY)).toBe('2026-03-08T15:00:00.000Z');
    // It falls back on 1 November 2026: Saturday 10:00 EDT + 1 day is Sunday 10:00 EST (25 hours).
    expect(days(1, '2026-10-31T14:00:00Z', NY)).toBe('2026-11-01T15:00:00.000Z');
    expect(hours(24, '2026-10-31T14:00:00Z', NY)).toBe('2026-11-01T14:00:00.000Z');
    // 02:30 does not exist on 8 March: as late as the gap, 03:30 EDT. 01:30 happens twice on 1 November: the first.
    expect(days(1, '2026-03-07T07:30:00Z', NY)).toBe('2026-03-08T07:30:00.000Z');
    expect(days(1, '2026-10-31T05:30:00Z', NY)).toBe('2026-11-01T05:30:00.000Z');
    // Berlin springs forward on 29 March and falls back on 25 October 2026.
    expect(days(1, '2026-03-28T09:00:00Z', BERLIN)).toBe('2026-03-29T08:00:00.000Z');
    expect(days(3, '2026-10-24T08:00:00Z', BERLIN)).toBe('2026-10-27T09:00:00.000Z');
    expect(hours(72, '2026-10-24T08:00:00Z', BERLIN)).toBe('2026-10-27T08:00:00.000Z');
  });

  it('agrees with a minute-by-minute Intl search around all four changes', () => {
    // The independent answer: the first quarter hour (searching UTC instants around the naive guess) that Intl
    // shows as the same local time N days later; when none does (the spring-forward gap), the first shown an
    // hour later, which is as late as the gap.
    const formats = new Map<string, Intl.DateTimeFormat>();
    const format = (zone: string) => {
      const known = formats.get(zone);
      if (known) return known;
      const made = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
      });
      formats.set(zone, made);
      return made;
    };
    const local = (zone: string, ms: number) => {
      const parts = Object.fromEntries(
        format(zone)
          .formatToParts(new Date(ms))
          .map((part) => [part.type, Number(part.value)]),
      );
      return Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute);
    };
    const expected = (zone: string, from: number, n: number) => {
      const target = local(zone, from) + n * 86_400_000;
      for (const shift of [0, 3_600_000]) {
        for (let ms = target - 15 * 3_600_000; ms <= target + 15 * 3_600_000; ms += 900_000) {
          if (local(zone, ms) === target + shift) return ms;
        }
      }
      throw new Error('no local instant found');
    };
    const changes: [string, string][] = [
      [NY, '2026-03-08T07:00:00Z'],
      [NY, '2026-11-01T06:00:00Z'],
      [BERLIN, '2026-03-29T01:00:00Z'],
      [BERLIN, '2026-10-25T01:00:00Z'],
    ];
    let checked = 0;
    for (const [zone, change] of changes) {
      const around = new Date(change).getTime();
      for (let from = around - 3 * 86_400_000; from <= around + 86_400_000; from += 75 * 60_000) {
        for (const n of [1, 2, 3]) {
          const got = delayEnd({ type: 'wait', amount: n, unit: 'days' }, new Date(from), zone).getTime();
          expect(got, `${zone} ${new Date(from).toISOString()} + ${n} days`).toBe(expected(zone, from, n));
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('finds the end of quiet hours (21:00–08:00 local), or none outside them', () => {
    expect(quietHoursEnd(new Date('2026-03-03T15:00:00Z'), NY)).toBeNull(); // 10:00
    expect(quietHoursEnd(new Date('2026-03-04T01:59:00Z'), NY)).toBeNull(); // 20:59
    expect(quietHoursEnd(new Date('2026-03-04T02:00:00Z'), NY)?.toISOString()).toBe(
      '2026-03-04T13:00:00.000Z',
    ); // 21:00
    expect(quietHoursEnd(new Date('2026-03-04T10:00:00Z'), NY)?.toISOString()).toBe(
      '2026-03-04T13:00:00.000Z',
    ); // 05:00
    // Saturday 22:00 EST to Sunday 08:00 EDT, the night the clocks go forward.
    expect(quietHoursEnd(new Date('2026-03-08T03:00:00Z'), NY)?.toISOString()).toBe(
      '2026-03-08T12:00:00.000Z',
    );
  });
});

describe('test clock', () => {
  it('moves forward only, and is refused in production', () => {
    const clock = testClock(new Date('2026-03-01T00:00:00Z'));
    expect(clock.advance(3600).toISOString()).toBe('2026-03-01T01:00:00.000Z');
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(testClockEnabled({ TEST_CLOCK: 'true' })).toBe(true);
    expect(testClockEnabled({})).toBe(false);
    expect(() => testClockEnabled({ TEST_CLOCK: 'true', NODE_ENV: 'production' })).toThrow(/production/);
  });
});
