import { z } from 'zod';

/**
 * `POST /api/test/clock/` (docs/flows.md, "The test clock"): only with `TEST_CLOCK=true` outside production, so a
 * browser journey can move the flow engine's time forward.
 */
export const TestClockAdvanceSchema = z.object({
  advance_seconds: z
    .number({ error: 'advance_seconds must be a number of seconds' })
    .int('advance_seconds must be whole seconds')
    .min(0, 'advance_seconds must be 0 or more')
    .max(400 * 86_400, 'advance_seconds must be at most 400 days'),
});

/** The engine's time after the move, and how far it is ahead of real time. */
export const TestClockStateSchema = z.object({
  now: z.string(),
  offset_seconds: z.number().int(),
});
