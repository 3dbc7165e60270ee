import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import {
  SegmentDashboardQuerySchema,
  SegmentDashboardV2Schema,
} from '../../src/schemas/segment-dashboard.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { SegmentDashboardService } from '../services/segment-dashboard.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

/** `GET /benchmark/segment-dashboardv2/{id}/`: one segment's figures and its members' distributions. */
export function segmentDashboardRoutes(service: SegmentDashboardService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/benchmark/segment-dashboardv2/:id/',
      {
        config: access('Segments List', 'analyst'),
        schema: {
          tags: ['Segments'],
          summary: "One segment's cached figures and its members by visits, spend and location",
          description:
            'The figures are the cache (zeroed defaults and `computing: true` until worked out). The ' +
            'distributions are worked out now over the members who visited the segment’s own locations and ' +
            'the picked ones (repeated `location_id` / `location_group_id`; none: every location).',
          params: IdParamSchema,
          querystring: SegmentDashboardQuerySchema,
          response: { 200: SegmentDashboardV2Schema, ...errors },
        },
      },
      async (request) =>
        service.dashboard(companyOf(request), request.params.id, {
          location_id: request.query.location_id,
          location_group_id: request.query.location_group_id,
        }),
    );
  };
}
