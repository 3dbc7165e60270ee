/**
 * The time the flow engine reads (docs/flows.md, "The test clock"): every wait, due time, quiet hour and
 * frequency-cap window is worked out from `clock.now()`, never from the database's `now()`, so a test (or a
 * browser journey with `TEST_CLOCK=true`) can move time forward and watch weeks of a flow pass in seconds.
 * Claim leases are about processes, not flows, and keep using real time.
 */

import type { Database } from '../db/database.js';
import { advanceTestClockOffset, readTestClockOffset } from '../repositories/test-clock.repository.js';

/** Where the engine reads the time. */
export interface Clock {
  now(): Date;
  /** Brings the clock up to date before a runner turn (the shared test clock reads its offset). */
  sync?(): Promise<void>;
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

/**
 * A test installation's clock (`TEST_CLOCK=true`): real time plus an offset kept in the database (migration
 * 0036), so every process agrees. `now()` stays synchronous: it uses the offset last read, and each flow runner
 * turn begins with `sync()`, so a move made through another process applies from that process's next turn.
 */
export interface SharedTestClock extends Clock {
  sync(): Promise<void>;
  /** Moves every process's clock forward by whole seconds; answers the new time and offset. */
  advance(seconds: number): Promise<{ now: Date; offsetMs: number }>;
}

/** The shared test clock of `db`. */
export function sharedTestClock(db: Pick<Database, 'platform'>): SharedTestClock {
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  return {
    now,
    async sync() {
      offset = await db.platform((sql) => readTestClockOffset(sql));
    },
    async advance(seconds: number) {
      if (!Number.isInteger(seconds) || seconds < 0)
        throw new RangeError('advance_seconds must be 0 or more');
      offset = await db.platform((sql) => advanceTestClockOffset(sql, seconds * 1000));
      return { now: now(), offsetMs: offset };
    },
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
