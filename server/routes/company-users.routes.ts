import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CompanyUserCreateSchema,
  CompanyUserListQuerySchema,
  CompanyUserPageSchema,
  CompanyUserSchema,
  CompanyUserUpdateSchema,
} from '../../src/schemas/accounts.js';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { principalOf } from '../auth/principal.js';
import { access } from '../http/access.js';
import { pageWindow, toPage } from '../http/paging.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { CompanyUsersService } from '../services/company-users.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Company users'];
// Admins manage the people of the company (owners only by owners: the service checks that).
const MANAGE_USERS = access(null, 'admin', { userOnly: true });

/** Company user management: list, create, update, delete (spec section 6). */
export function companyUsersRoutes(service: CompanyUsersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/accounts/user/',
      {
        config: MANAGE_USERS,
        schema: {
          tags,
          summary: "The company's users",
          querystring: CompanyUserListQuerySchema,
          response: { 200: CompanyUserPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { count, results } = await service.list(companyOf(request), {
          q: query.q,
          ...pageWindow(query),
        });
        return toPage(request, query, count, results);
      },
    );

    app.post(
      '/accounts/user/',
      {
        config: MANAGE_USERS,
        schema: {
          tags,
          summary: 'Add a user to the company',
          body: CompanyUserCreateSchema,
          response: { 201: CompanyUserSchema, 409: ApiErrorSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await service.create(principalOf(request), writeScopeOf(request), request.body)),
    );

    app.put(
      '/accounts/user/:id/',
      {
        config: MANAGE_USERS,
        schema: {
          tags,
          summary: "Change a user's names, role or active flag",
          params: IdParamSchema,
          body: CompanyUserUpdateSchema,
          response: { 200: CompanyUserSchema, 409: ApiErrorSchema, ...errors },
        },
      },
      async (request) =>
        service.update(principalOf(request), writeScopeOf(request), request.params.id, request.body),
    );

    app.delete(
      '/accounts/user/:id/',
      {
        config: MANAGE_USERS,
        schema: {
          tags,
          summary: 'Delete a user',
          params: IdParamSchema,
          response: { 204: z.null(), 409: ApiErrorSchema, ...errors },
        },
      },
      async (request, reply) => {
        await service.remove(principalOf(request), writeScopeOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
