import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AnalyticsSummarySchema } from '../../src/schemas/analytics-summary.js';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { dashboardQuerySchema } from '../../src/schemas/dashboard-query.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { AnalyticsSummaryService } from '../services/analytics-summary.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

/**
 * `GET /api/analytics/summary/` (the Summary dashboard, /analytics) and `GET /api/analytics/overview/` (the Overview
 * dashboard, /aben-overview): the same figures from the rollups, each path behind its own page's feature.
 */
export function analyticsSummaryRoutes(service: AnalyticsSummaryService): FastifyPluginAsyncZod {
  return async (app) => {
    // One path per dashboard, each behind its page's feature; both answer the same figures, drawn differently.
    for (const [path, feature] of [
      ['/analytics/summary/', 'Summary'],
      ['/analytics/overview/', 'Overview'],
    ] as const) {
      app.get(
        path,
        {
          config: access(feature, 'analyst'),
          schema: {
            tags: ['Dashboards'],
            summary: `${feature}: headline figures against the previous period, revenue and checks over time, each location with its trend`,
            querystring: dashboardQuerySchema,
            response: { 200: AnalyticsSummarySchema, ...errors },
          },
        },
        async (request) => service.summary(companyOf(request), request.query),
      );
    }
  };
}
