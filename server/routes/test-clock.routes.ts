import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { TestClockAdvanceSchema, TestClockStateSchema } from '../../src/schemas/test-clock.js';
import { principalOf } from '../auth/principal.js';
import type { SharedTestClock } from '../flows/clock.js';
import { access } from '../http/access.js';
import { ApiError } from '../http/errors.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema };

/**
 * `POST /test/clock/`, registered only when the app runs with a test clock (`TEST_CLOCK=true`, never in
 * production): moves the flow engine's time forward, in every process (the offset is in the database), for a
 * browser journey. Platform staff only (docs/flows.md, "The test clock"): the clock is the installation's, not a
 * company's, so no company role may move it.
 */
export function testClockRoutes(clock: SharedTestClock, wake: () => void): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/test/clock/',
      {
        config: access(null, 'analyst'),
        // Staff first, before the body is read: a company user learns only that they may not.
        preValidation: async (request) => {
          if (!principalOf(request).isStaff)
            throw new ApiError(403, 'staff_required', 'Only platform staff may move the test clock');
        },
        schema: {
          tags: ['Test'],
          summary: "Moves the flow engine's test clock forward (test installations only)",
          body: TestClockAdvanceSchema,
          response: { 200: TestClockStateSchema, ...errors },
        },
      },
      async (request) => {
        const moved = await clock.advance(request.body.advance_seconds);
        // Steps now due run at once rather than at the runner's next turn (other processes: their next turn).
        wake();
        return { now: moved.now.toISOString(), offset_seconds: Math.round(moved.offsetMs / 1000) };
      },
    );
  };
}
