import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { FlowNodeCountsResultSchema, SubscriberFlowPathsSchema } from '../../src/schemas/flows.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { FlowEngineService } from '../services/flow-engine.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

/** The flow engine's figures: per-node counts of a flow, and a subscriber's paths through flows. */
export function flowEngineRoutes(service: FlowEngineService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/campaigns/flows/:id/node-counts/',
      {
        config: access('Campaign Flows', 'analyst'),
        schema: {
          tags: ['Flows'],
          summary: 'People per node of a flow over every version: entered, waiting, completed, exited',
          params: IdParamSchema,
          response: { 200: FlowNodeCountsResultSchema, ...errors },
        },
      },
      async (request) => service.nodeCounts(companyOf(request), request.params.id),
    );

    app.get(
      '/customers/subscribers/:id/flows/',
      {
        config: access('Subscribers', 'analyst'),
        schema: {
          tags: ['Subscribers'],
          summary: "A subscriber's enrolments in flows, newest first, each with the steps they passed",
          params: IdParamSchema,
          response: { 200: SubscriberFlowPathsSchema, ...errors },
        },
      },
      async (request) => service.subscriberFlows(companyOf(request), request.params.id),
    );
  };
}
