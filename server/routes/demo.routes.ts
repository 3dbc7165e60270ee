import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DemoStatusSchema } from '../../src/schemas/demo.js';
import type { DemoStatusService } from '../services/demo-status.service.js';

/**
 * `GET /api/demo/status/`: whether the demo data set is still loading its POS history (the server answers
 * while it does), for the app's banner. Public: it tells only a percentage.
 */
export function demoRoutes(service: DemoStatusService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/demo/status/',
      {
        config: { public: true },
        schema: {
          tags: ['Health'],
          summary: 'Loading progress of the demo data set',
          security: [],
          response: { 200: DemoStatusSchema },
        },
      },
      () => service.status(),
    );
  };
}
