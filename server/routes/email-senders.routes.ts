import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EmailProviderSchema,
  EmailSenderInputSchema,
  EmailSenderSchema,
} from '../../src/schemas/accounts.js';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { access } from '../http/access.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { EmailSendersService } from '../services/email-senders.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Email senders'];
// Anyone who may see campaigns sees the From choices; changing them is account administration.
const READ_SENDERS = access('Campaigns', 'analyst');
const MANAGE_SENDERS = access('Campaigns', 'admin');

/** Email senders and the email provider set-up (spec section 7, Account). */
export function emailSendersRoutes(service: EmailSendersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/campaigns/email-sender/',
      {
        config: READ_SENDERS,
        schema: {
          tags,
          summary: 'Sender addresses of campaign email',
          response: { 200: z.array(EmailSenderSchema), ...errors },
        },
      },
      async (request) => service.list(companyOf(request)),
    );

    app.post(
      '/campaigns/email-sender/',
      {
        config: MANAGE_SENDERS,
        schema: {
          tags,
          summary: 'Add a sender address',
          body: EmailSenderInputSchema,
          response: { 201: EmailSenderSchema, 409: ApiErrorSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(writeScopeOf(request), request.body)),
    );

    app.put(
      '/campaigns/email-sender/:id/',
      {
        config: MANAGE_SENDERS,
        schema: {
          tags,
          summary: 'Change a sender address',
          params: IdParamSchema,
          body: EmailSenderInputSchema,
          response: { 200: EmailSenderSchema, 409: ApiErrorSchema, ...errors },
        },
      },
      async (request) => service.update(writeScopeOf(request), request.params.id, request.body),
    );

    app.delete(
      '/campaigns/email-sender/:id/',
      {
        config: MANAGE_SENDERS,
        schema: {
          tags,
          summary: 'Delete a sender address',
          params: IdParamSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.remove(writeScopeOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/customers/email-provider/',
      {
        // Provider set-up is account administration, even with its secrets masked.
        config: access('Campaigns', 'admin'),
        schema: {
          tags,
          summary: "The company's email provider set-up, without secrets",
          response: { 200: z.array(EmailProviderSchema), ...errors },
        },
      },
      async (request) => service.providers(companyOf(request)),
    );
  };
}
