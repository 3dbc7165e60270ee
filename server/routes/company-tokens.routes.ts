import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CompanyTokenCreateSchema,
  CompanyTokenCreatedSchema,
  CompanyTokenSchema,
} from '../../src/schemas/accounts.js';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import { principalOf } from '../auth/principal.js';
import type { CompanyTokensService } from '../services/company-tokens.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Company tokens'];
// A token could otherwise mint or revoke tokens: only signed-in admins manage them.
const MANAGE_TOKENS = access(null, 'admin', { userOnly: true });

/** Company API tokens for integrations (spec section 7, Account). */
export function companyTokensRoutes(service: CompanyTokensService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/accounts/company-tokens/',
      {
        config: MANAGE_TOKENS,
        schema: {
          tags,
          summary: "The company's API tokens (never their keys)",
          response: { 200: z.array(CompanyTokenSchema), ...errors },
        },
      },
      async (request) => service.list(companyOf(request)),
    );

    app.post(
      '/accounts/company-tokens/',
      {
        config: MANAGE_TOKENS,
        schema: {
          tags,
          summary: 'Issue an API token; the key is in this answer only',
          body: CompanyTokenCreateSchema,
          response: { 201: CompanyTokenCreatedSchema, ...errors },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const created = await service.create({
          companyId: principal.companyId,
          userId: principal.userId,
          name: request.body.name,
        });
        return reply.status(201).send(created);
      },
    );

    app.delete(
      '/accounts/delete-company-token/:id/',
      {
        config: MANAGE_TOKENS,
        schema: {
          tags,
          summary: 'Revoke an API token',
          params: IdParamSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.revoke(companyOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
