import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { TestClockAdvanceSchema, TestClockStateSchema } from '../../src/schemas/test-clock.js';
import type { TestClock } from '../flows/clock.js';
import { access } from '../http/access.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema };

/**
 * `POST /test/clock/`, registered only when the app runs with a test clock (`TEST_CLOCK=true`, never in
 * production): moves the flow engine's time forward for a browser journey. Owners only (platform staff act as one).
 */
export function testClockRoutes(clock: TestClock, wake: () => void): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/test/clock/',
      {
        config: access(null, 'owner'),
        schema: {
          tags: ['Test'],
          summary: "Moves the flow engine's test clock forward (test installations only)",
          body: TestClockAdvanceSchema,
          response: { 200: TestClockStateSchema, ...errors },
        },
      },
      async (request) => {
        const now = clock.advance(request.body.advance_seconds);
        // Steps now due run at once rather than at the runner's next turn.
        wake();
        return { now: now.toISOString(), offset_seconds: Math.round(clock.offsetMs() / 1000) };
      },
    );
  };
}
