import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CohortBenchmarkSchema, CohortListSchema, CohortQuerySchema } from '../../src/schemas/cohorts.js';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { CohortsService } from '../services/cohorts.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

/** The cohort calls of spec section 7: monthly first-visit cohorts, raw and beside the company's baseline. */
export function cohortsRoutes(service: CohortsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/bigdata/cohort/',
      {
        // The big-data calls' rule (bigdata.routes.ts): analysts of companies with Subscribers.
        config: access('Subscribers', 'analyst'),
        schema: {
          tags: ['Big data'],
          summary: 'Monthly first-visit cohorts: size, then guests active, revenue and checks by month since',
          querystring: CohortQuerySchema,
          response: { 200: CohortListSchema, ...errors },
        },
      },
      async (request) => service.list(companyOf(request), request.query),
    );

    app.get(
      '/benchmark/cohort/',
      {
        config: access('Benchmark Analytics', 'analyst'),
        schema: {
          tags: ['Benchmark'],
          summary: "The filter's monthly cohorts beside the company's size-weighted baseline per month since",
          querystring: CohortQuerySchema,
          response: { 200: CohortBenchmarkSchema, ...errors },
        },
      },
      async (request) => service.benchmark(companyOf(request), request.query),
    );
  };
}
