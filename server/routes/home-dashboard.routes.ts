import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { dashboardQuerySchema } from '../../src/schemas/dashboard-query.js';
import { ChartDataSchema, HomeDashboardSchema } from '../../src/schemas/home-dashboard.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { HomeDashboardService } from '../services/home-dashboard.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Analytics'];
// The Recommendations screen's feature; analysts read it (saving a recommendation's segment needs a marketer).
const READ = access('Recommendations', 'analyst');
const PICKER =
  'Days `from_date`–`to_date` (inclusive, company time zone, at most 731), `compare=previous` for the period ' +
  'just before, repeated `location_id` / `location_group_id` (none: every location).';

/** The home dashboard's calls (`/dashboard`, `/marketing-analytics`; docs/dashboards.md, "Recommendations"). */
export function homeDashboardRoutes(service: HomeDashboardService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/analytics/chart-data/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'Chart data: charts [{name, data}] (revenue and checks per day), emails sent, revenue',
          description: PICKER,
          querystring: dashboardQuerySchema,
          response: { 200: ChartDataSchema, ...errors },
        },
      },
      async (request) => service.chartData(companyOf(request), request.query),
    );

    app.get(
      '/analytics/recommendations/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'KPI cards against the previous period and recommendations ranked by expected revenue',
          description: `${PICKER} Each recommendation carries the segment its click saves and that segment's size, as counted earlier the same day (audiences_counted_at) until an import or the company's refresh. Audiences not counted yet today are counted in the background: the answer waits a moment for them, then leaves them out with audiences_counting true; ask again shortly for them.`,
          querystring: dashboardQuerySchema,
          response: { 200: HomeDashboardSchema, ...errors },
        },
      },
      async (request) => service.recommendations(companyOf(request), request.query),
    );
  };
}
