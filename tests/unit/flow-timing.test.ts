import { describe, expect, it } from 'vitest';
import { delayEnd, quietHoursEnd } from '../../server/flows/timing.js';
import { testClock, testClockEnabled } from '../../server/flows/clock.js';

/** The flow engine's pure parts: waits, quiet hours, and the test clock's switch. */

const NY = 'America/New_York';

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
