import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import {
  EmailTemplateCreateSchema,
  EmailTemplateListQuerySchema,
  EmailTemplatePageSchema,
  EmailTemplateSchema,
  EmailTemplateUpdateSchema,
  GalleryAnswerSchema,
  GalleryQuerySchema,
} from '../../src/schemas/email-templates.js';
import { access } from '../http/access.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { EmailTemplatesService } from '../services/email-templates.service.js';
import { recordRoutes } from './support/record-routes.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Email templates'];
const READ = access('Templates', 'analyst');
const WRITE = access('Templates', 'marketer');
const BASE = '/campaigns/email-templates/';

/**
 * The preview's policy: no script, no form, no plug-in; images from anywhere (the template's own) and inline
 * styles (email HTML is styled inline); framed only by the app itself.
 */
export const PREVIEW_CSP =
  "default-src 'none'; img-src 'self' https: http: data:; style-src 'unsafe-inline'; " +
  // sandbox: the preview runs as an opaque origin, so a template's raw HTML can neither read the app's nor move its page.
  "script-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'; sandbox";

/** Sends preview HTML (untyped reply: a route's response schema describes JSON answers only). */
function sendPreview(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PREVIEW_CSP)
    .header('x-frame-options', 'SAMEORIGIN')
    .header('cache-control', 'no-store')
    .send(html);
}

/** Email templates (spec §7 `/campaigns/email-templates/`), their gallery, copies and previews. */
export function emailTemplatesRoutes(service: EmailTemplatesService): FastifyPluginAsyncZod {
  return async (app) => {
    recordRoutes(
      app,
      { base: BASE, tags, errors, read: READ, write: WRITE },
      {
        list: {
          summary: 'List email templates by name, searched by name (q)',
          query: EmailTemplateListQuerySchema,
          page: EmailTemplatePageSchema,
          rows: (companyId, query, window) => service.list(companyId, { q: query.q, ...window }),
        },
        // The gallery's path comes second in the OpenAPI document, as it always has.
        afterList: () => {
          app.get(
            `${BASE}gallery/`,
            {
              config: READ,
              schema: {
                tags,
                summary: "The six starter templates as MJML, in the caller's language (or ?language=)",
                querystring: GalleryQuerySchema,
                response: { 200: GalleryAnswerSchema, ...errors },
              },
            },
            async (request) => ({
              results: await service.gallery(writeScopeOf(request), request.query.language),
            }),
          );
        },
        create: {
          summary: 'Create a template from its MJML design (rendered to html_content and text_content)',
          body: EmailTemplateCreateSchema,
          record: EmailTemplateSchema,
          run: (scope, body) => service.create(scope, body),
        },
        get: {
          summary: 'One template with its design, HTML and text',
          record: EmailTemplateSchema,
          run: (companyId, id) => service.get(companyId, id),
        },
        update: {
          summary: 'Rename a template or change its design (rendered again)',
          body: EmailTemplateUpdateSchema,
          record: EmailTemplateSchema,
          run: (scope, id, body) => service.update(scope, id, body),
        },
        remove: {
          summary: 'Delete a template (campaigns that used it keep their own copy of the content)',
          run: (scope, id) => service.remove(scope, id),
        },
      },
    );

    app.post(
      `${BASE}:id/duplicate/`,
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Copy a template under "… (copy)" in the caller\'s language',
          params: IdParamSchema,
          response: { 201: EmailTemplateSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.duplicate(writeScopeOf(request), request.params.id)),
    );

    app.get(
      `${BASE}:id/preview/`,
      {
        config: READ,
        schema: {
          tags,
          summary: 'The rendered HTML with sample merge values, for a sandboxed preview (no scripts)',
          params: IdParamSchema,
          response: errors,
        },
      },
      async (request, reply) => {
        return sendPreview(reply, await service.preview(companyOf(request), request.params.id));
      },
    );
  };
}
