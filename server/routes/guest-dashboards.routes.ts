import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { DemographicsQuerySchema, DemographicsSchema } from '../../src/schemas/demographics-dashboard.js';
import {
  GuestAnalyticsQuerySchema,
  GuestAnalyticsSchema,
} from '../../src/schemas/guest-analytics-dashboard.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { DemographicsDashboardService } from '../services/demographics-dashboard.service.js';
import type { GuestAnalyticsDashboardService } from '../services/guest-analytics-dashboard.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Dashboards'];

/** The guest dashboards' calls: `/guest/analytics` and `/demographics` (docs/dashboards.md). */
export function guestDashboardsRoutes(services: {
  guests: GuestAnalyticsDashboardService;
  demographics: DemographicsDashboardService;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/analytics/guests/',
      {
        // The screen's own rule (src/app/routes.ts): the guest list's feature, analysts may read.
        config: access('Subscribers', 'analyst'),
        schema: {
          tags,
          summary: 'New and returning guests over time, visit frequency and monthly first-visit cohorts',
          querystring: GuestAnalyticsQuerySchema,
          response: { 200: GuestAnalyticsSchema, ...errors },
        },
      },
      async (request) => services.guests.figures(companyOf(request), request.query),
    );

    app.get(
      '/analytics/demographics/',
      {
        config: access('Demographics', 'analyst'),
        schema: {
          tags,
          summary: "The range's guests and new subscribers by age band, home zip code and kind",
          querystring: DemographicsQuerySchema,
          response: { 200: DemographicsSchema, ...errors },
        },
      },
      async (request) => services.demographics.figures(companyOf(request), request.query),
    );
  };
}
