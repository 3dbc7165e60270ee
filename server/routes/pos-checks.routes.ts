import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { PosChecksBatchAnswerSchema, PosChecksBatchSchema } from '../../src/schemas/pos-checks.js';
import { access } from '../http/access.js';
import { writeScopeOf } from '../http/scope.js';
import type { PosChecksService } from '../services/pos-checks.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 413: ApiErrorSchema };
/** A full batch (1,000 checks with their lines) is a few megabytes of JSON. */
export const POS_CHECKS_BODY_LIMIT = 16 * 1024 * 1024;

/** Checks from a POS connector: every company loads its own sales, so no feature gates it; admins and tokens may. */
export function posChecksRoutes(service: PosChecksService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/pos/checks/',
      {
        config: access(null, 'admin'),
        bodyLimit: POS_CHECKS_BODY_LIMIT,
        schema: {
          tags: ['POS'],
          summary: 'Send POS checks (up to 1,000 per call; idempotent)',
          description:
            'For a POS connector with a company API token (`Authorization: Token …`). Amounts in dollars. A check ' +
            'is identified by its location, check number and closing time: sent again, it changes nothing. Menu ' +
            'items, categories and revenue centers are created by name; guests are matched by POS id, else by ' +
            'name and card digits, else created. A bad check is rejected with its index, field and reason; the ' +
            'others are stored.',
          body: PosChecksBatchSchema,
          response: { 200: PosChecksBatchAnswerSchema, ...errors },
        },
      },
      async (request) => service.ingest(writeScopeOf(request), request.body.checks),
    );
  };
}
