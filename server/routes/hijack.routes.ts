import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HijackCandidateSchema,
  HijackStartedSchema,
  HijackStartSchema,
  ImpersonationSchema,
  OkSchema,
} from '../../src/schemas/accounts.js';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { principalOf } from '../auth/principal.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { HijackService } from '../services/hijack.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Impersonation'];
// Staff are checked by the service (the role rule cannot express "platform staff"); tokens never qualify.
const STAFF = access(null, 'analyst', { userOnly: true });

/** /hijack: platform staff acting as a company user, and the company's view of those sessions. */
export function hijackRoutes(service: HijackService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/accounts/hijack/users/',
      {
        config: STAFF,
        schema: {
          tags,
          summary: 'Users staff may act as (staff only)',
          querystring: z.object({ q: z.string().trim().max(200).optional() }),
          response: { 200: z.array(HijackCandidateSchema), ...errors },
        },
      },
      async (request) => service.candidates(principalOf(request), request.query.q || undefined),
    );

    app.post(
      '/accounts/hijack/',
      {
        config: STAFF,
        schema: {
          tags,
          summary: 'Start acting as a user (staff only); answers a token for that user',
          body: HijackStartSchema,
          response: { 201: HijackStartedSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.start(principalOf(request), request.body.user_id)),
    );

    app.post(
      '/accounts/hijack/release/',
      {
        config: STAFF,
        schema: {
          tags,
          summary: 'End the impersonation this token belongs to',
          response: { 200: OkSchema, ...errors },
        },
      },
      async (request) => {
        await service.release(principalOf(request));
        return { ok: true as const };
      },
    );

    app.get(
      '/accounts/impersonations/',
      {
        config: access(null, 'admin', { userOnly: true }),
        schema: {
          tags,
          summary: 'When platform support acted for the company',
          response: { 200: z.array(ImpersonationSchema), ...errors },
        },
      },
      async (request) => service.list(companyOf(request)),
    );
  };
}
