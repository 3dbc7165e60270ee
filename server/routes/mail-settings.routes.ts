import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import {
  PostalAddressAnswerSchema,
  PostalAddressSchema,
  SentMailListQuerySchema,
  SentMailPageSchema,
  SentMailSchema,
} from '../../src/schemas/sending.js';
import { access } from '../http/access.js';
import { pageWindow, toPage } from '../http/paging.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { MailRunsService } from '../services/mail-runs.service.js';
import type { SentMailService } from '../services/sent-mail.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

/**
 * The company's sending set-up and captured mail (docs/sending.md): the postal address every marketing footer
 * shows (required before the first send; account administration) and the "Sent mail" viewer.
 */
export function mailSettingsRoutes(runs: MailRunsService, sentMail: SentMailService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/accounts/postal-address/',
      {
        config: access('Campaigns', 'analyst'),
        schema: {
          tags: ['Sending'],
          summary: "The company's postal address shown in every marketing email ('' until set)",
          response: { 200: PostalAddressAnswerSchema, ...errors },
        },
      },
      async (request) => ({ postal_address: await runs.postalAddress(companyOf(request)) }),
    );

    app.put(
      '/accounts/postal-address/',
      {
        config: access('Campaigns', 'admin'),
        schema: {
          tags: ['Sending'],
          summary: "Set the company's postal address (required before the first send)",
          body: PostalAddressSchema,
          response: { 200: PostalAddressAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await runs.setPostalAddress(writeScopeOf(request), request.body.postal_address);
        return { postal_address: request.body.postal_address };
      },
    );

    app.get(
      '/campaigns/sent-mail/',
      {
        config: access('Campaigns', 'marketer'),
        schema: {
          tags: ['Sending'],
          summary:
            'Mail kept in the app because no mail server is set, newest first, searched by subject (q)',
          querystring: SentMailListQuerySchema,
          response: { 200: SentMailPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { count, results } = await sentMail.list(companyOf(request), {
          q: query.q,
          ...pageWindow(query),
        });
        return toPage(request, query, count, results);
      },
    );

    app.get(
      '/campaigns/sent-mail/:id/',
      {
        config: access('Campaigns', 'marketer'),
        schema: {
          tags: ['Sending'],
          summary: 'One kept message: HTML, text and headers',
          params: IdParamSchema,
          response: { 200: SentMailSchema, ...errors },
        },
      },
      async (request) => sentMail.get(companyOf(request), request.params.id),
    );
  };
}
