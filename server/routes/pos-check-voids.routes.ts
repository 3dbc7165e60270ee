import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { PosCheckVoidAnswerSchema, PosCheckVoidBatchSchema } from '../../src/schemas/pos-check-voids.js';
import { access } from '../http/access.js';
import { writeScopeOf } from '../http/scope.js';
import type { PosCheckVoidsService } from '../services/pos-check-voids.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 413: ApiErrorSchema };

/** Voids from a POS connector: the same access as sending checks (admins and company tokens). */
export function posCheckVoidsRoutes(service: PosCheckVoidsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/pos/checks/void/',
      {
        config: access(null, 'admin'),
        schema: {
          tags: ['POS'],
          summary: 'Void POS checks (up to 1,000 per call; idempotent)',
          description:
            'Takes checks sent before away, named by location, check number and closing time, and sets every ' +
            "figure kept with the checks (the guests' visits and spend, the daily figures) right again. A check " +
            'not stored is listed in `not_found` by its index; voiding it again changes nothing.',
          body: PosCheckVoidBatchSchema,
          response: { 200: PosCheckVoidAnswerSchema, ...errors },
        },
      },
      async (request) => service.void(writeScopeOf(request), request.body.checks),
    );
  };
}
