import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EmailProviderSchema,
  EmailSenderInputSchema,
  EmailSenderSchema,
} from '../../src/schemas/accounts.js';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { SenderVerifyInputSchema, VerificationSentSchema } from '../../src/schemas/sender-verification.js';
import { EmailProviderInputSchema } from '../../src/schemas/sending.js';
import { access } from '../http/access.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { EmailSendersService } from '../services/email-senders.service.js';
import type { SenderVerificationService } from '../services/sender-verification.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Email senders'];
// Anyone who may see campaigns sees the From choices; changing them is account administration.
const READ_SENDERS = access('Campaigns', 'analyst');
const MANAGE_SENDERS = access('Campaigns', 'admin');

/** Email senders and the email provider set-up (spec section 7, Account). */
export function emailSendersRoutes(
  service: EmailSendersService,
  verification: SenderVerificationService,
): FastifyPluginAsyncZod {
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

    app.post(
      '/campaigns/email-sender/:id/verification/',
      {
        config: MANAGE_SENDERS,
        schema: {
          tags,
          summary: 'Send a verification email to a sender address',
          description:
            'Emails a single-use link (24 hours) to the address. With no SMTP server set up, the message is kept ' +
            'in the app and returned here as `message`.',
          params: IdParamSchema,
          response: { 200: VerificationSentSchema, 409: ApiErrorSchema, 502: ApiErrorSchema, ...errors },
        },
      },
      async (request) => verification.send(writeScopeOf(request), request.params.id),
    );

    app.post(
      '/campaigns/email-sender/verify/',
      {
        // The token proves the mailbox is read; whoever follows it inside the company may finish the check.
        config: READ_SENDERS,
        schema: {
          tags,
          summary: 'Verify a sender address with the token from its link',
          description:
            'Answers the verified sender; 400 with code verification_link_unknown, verification_link_used, ' +
            'verification_link_expired or verification_link_replaced otherwise.',
          body: SenderVerifyInputSchema,
          response: { 200: EmailSenderSchema, ...errors },
        },
      },
      async (request) => verification.verify(writeScopeOf(request), request.body.token),
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

    app.put(
      '/customers/email-provider/',
      {
        config: access('Campaigns', 'admin'),
        schema: {
          tags,
          summary: 'Set the email provider the company sends through (replaces any other)',
          description:
            'provider is sendgrid, mailgun (settings.smtp_login, optional region us|eu), ses (settings.region, ' +
            'settings.smtp_username), postmark, or smtp (settings.host, port, optional user, secure). api_key is ' +
            'the SMTP password (the API key, or the server token for Postmark); omitted, the saved one is kept. ' +
            'The answer masks it. An entry sends only with a non-empty key.',
          body: EmailProviderInputSchema,
          response: { 200: EmailProviderSchema, ...errors },
        },
      },
      async (request) => service.saveProvider(writeScopeOf(request), request.body),
    );

    app.delete(
      '/customers/email-provider/:id/',
      {
        config: access('Campaigns', 'admin'),
        schema: {
          tags,
          summary: 'Remove the email provider (mail then goes through the installation)',
          params: IdParamSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.removeProvider(writeScopeOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
