import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import {
  RfmDashboardQuerySchema,
  RfmDashboardSchema,
  RfmGuestsPageSchema,
  RfmGuestsQuerySchema,
} from '../../src/schemas/rfm.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { RfmService } from '../services/rfm.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Segments'];
const READ = access('Segments Dashboard', 'analyst');

/** The RFM dashboard's calls (`/rfm-dashboard`, spec section 6 "Segments Dashboard"; docs/segments.md, "RFM"). */
export function rfmRoutes(service: RfmService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/benchmark/rfm-dashboard/',
      {
        config: READ,
        schema: {
          tags,
          summary:
            'RFM scores of the picked locations’ guests: the recency × frequency grid and the named cells',
          description:
            'Stored scores (worked out with the CLV refresh, `computed_at`) of the guests who visited one of the ' +
            'picked locations (repeated `location_id` / `location_group_id`; none: every guest with a check).',
          querystring: RfmDashboardQuerySchema,
          response: { 200: RfmDashboardSchema, ...errors },
        },
      },
      async (request) => service.dashboard(companyOf(request), request.query),
    );

    app.get(
      '/benchmark/rfm-dashboard/guests/',
      {
        config: READ,
        schema: {
          tags,
          summary:
            "A named RFM cell's guests, oldest first, a page after a guest id (`after`, from the `next` link)",
          querystring: RfmGuestsQuerySchema,
          response: { 200: RfmGuestsPageSchema, ...errors },
        },
      },
      async (request) => {
        const { cell, after, page_size, location_id, location_group_id } = request.query;
        const page = await service.guests(
          companyOf(request),
          cell,
          { location_id, location_group_id },
          { after, limit: page_size },
        );
        const next = new URL(request.url, 'http://local');
        next.searchParams.set('after', String(page.lastId));
        return {
          count: page.count,
          next: page.lastId === null ? null : `${next.pathname}${next.search}`,
          previous: null,
          results: page.guests,
        };
      },
    );
  };
}
