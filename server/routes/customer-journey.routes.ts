import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { CustomerJourneyQuerySchema, CustomerJourneySchema } from '../../src/schemas/customer-journey.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { CustomerJourneyService } from '../services/customer-journey.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

/** The customer journey dashboard's call: `/heatmap` (docs/dashboards.md "Customer journey"). */
export function customerJourneyRoutes(service: CustomerJourneyService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/analytics/customer-journey/',
      {
        // The screen's own rule (src/app/routes.ts): the Customer Journey feature, analysts may read.
        config: access('Customer Journey', 'analyst'),
        schema: {
          tags: ['Dashboards'],
          summary:
            'Where new guests went next (first × next location), days until the next visit by visit number, guests at several locations',
          querystring: CustomerJourneyQuerySchema,
          response: { 200: CustomerJourneySchema, ...errors },
        },
      },
      async (request) => service.figures(companyOf(request), request.query),
    );
  };
}
