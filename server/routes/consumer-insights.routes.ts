import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { ConsumerInsightsQuerySchema, ConsumerInsightsSchema } from '../../src/schemas/consumer-insights.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { ConsumerInsightsService } from '../services/consumer-insights.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

/** `/consumer/insights/analytics`'s call (docs/dashboards.md, "Consumer insights"). */
export function consumerInsightsRoutes(service: ConsumerInsightsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/analytics/consumer-insights/',
      {
        // The page's own gate (src/app/routes.ts): Consumer Insights Analytics, analysts may read.
        config: access('Consumer Insights Analytics', 'analyst'),
        schema: {
          tags: ['Dashboards'],
          summary:
            'When guests come (weekday × hour), party sizes, day parts, days between visits and a segment’s favourite categories',
          querystring: ConsumerInsightsQuerySchema,
          response: { 200: ConsumerInsightsSchema, ...errors },
        },
      },
      async (request) => service.figures(companyOf(request), request.query),
    );
  };
}
