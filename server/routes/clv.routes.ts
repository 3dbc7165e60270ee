import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClvSettingsUpdateSchema, ClvStatusSchema } from '../../src/schemas/clv.js';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { access } from '../http/access.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { ClvSettingsService } from '../services/clv-settings.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Customer lifetime value'];
// CLV is read where guests are (profiles, lists): the guests' feature; its settings are the company's, for admins.
const READ = access('Subscribers', 'analyst');
const MANAGE = access('Subscribers', 'admin');

/** The company's predictive CLV: its settings, latest fit and refresh (docs/clv.md). */
export function clvRoutes(service: ClvSettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/customers/clv/',
      {
        config: READ,
        schema: {
          tags,
          summary: "The company's CLV settings, its latest fit and whether a refresh waits or runs",
          response: { 200: ClvStatusSchema, ...errors },
        },
      },
      async (request) => service.status(companyOf(request)),
    );

    app.put(
      '/customers/clv/',
      {
        config: MANAGE,
        schema: {
          tags,
          summary: 'Change the CLV horizon (years) and yearly discount rate; the CLV is refitted with them',
          body: ClvSettingsUpdateSchema,
          response: { 200: ClvStatusSchema, ...errors },
        },
      },
      async (request) => service.update(writeScopeOf(request), request.body),
    );
  };
}
