/**
 * The time the flow engine reads (docs/flows.md, "The test clock"): every wait, due time, quiet hour and
 * frequency-cap window is worked out from `clock.now()`, never from the database's `now()`, so a test (or a
 * browser journey with `TEST_CLOCK=true`) can move time forward and watch weeks of a flow pass in seconds.
 * Claim leases are about processes, not flows, and keep using real time.
 */

/** Where the engine reads the time. */
export interface Clock {
  now(): Date;
}

/** A clock that can be moved forward (tests and `POST /api/test/clock/`). */
export interface TestClock extends Clock {
  /** Moves the clock forward by whole seconds (never back). */
  advance(seconds: number): Date;
  /** How far the clock is ahead of real time, in milliseconds. */
  offsetMs(): number;
}

/** Real time. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * Real time plus an offset that only grows, or a frozen instant moved by hand (`frozenAt`): the frozen form is
 * what simulations use, so a tick happens exactly where the test puts it.
 */
export function testClock(frozenAt?: Date): TestClock {
  let offset = 0;
  const base = frozenAt?.getTime();
  const now = () => new Date((base ?? Date.now()) + offset);
  return {
    now,
    advance(seconds: number) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('advance_seconds must be 0 or more');
      offset += Math.round(seconds) * 1000;
      return now();
    },
    offsetMs: () => offset,
  };
}

/** Whether the test clock may run: `TEST_CLOCK=true`, and never in production. */
export function testClockEnabled(env: {
  TEST_CLOCK?: string | undefined;
  NODE_ENV?: string | undefined;
}): boolean {
  if (env.TEST_CLOCK !== 'true') return false;
  if (env.NODE_ENV === 'production') throw new Error('TEST_CLOCK=true is refused when NODE_ENV=production');
  return true;
}
