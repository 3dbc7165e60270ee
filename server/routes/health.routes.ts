import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HealthService } from '../services/health.service.js';

/** `GET /api/health`: the process is up and the database answers. */
export function healthRoutes(health: HealthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { public: true },
        schema: {
          tags: ['Health'],
          summary: 'Liveness and database check',
          security: [],
          response: {
            200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }),
            503: z.object({ status: z.literal('unavailable'), database: z.enum(['pglite', 'postgres']) }),
          },
        },
      },
      async (request, reply) => {
        const database = health.databaseKind();
        try {
          await health.checkDatabase();
          return { status: 'ok' as const, database };
        } catch (error) {
          request.log.error({ err: error }, 'health check failed');
          return reply.status(503).send({ status: 'unavailable' as const, database });
        }
      },
    );
  };
}
