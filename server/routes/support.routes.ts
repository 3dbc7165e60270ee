import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema, IdParamSchema, PagingQuerySchema } from '../../src/schemas/common.js';
import {
  SUPPORT_LOG_LIMITS,
  SupportEventLogCreatedSchema,
  SupportEventLogCreateSchema,
  SupportEventLogPageSchema,
} from '../../src/schemas/support.js';
import { principalOf } from '../auth/principal.js';
import { access } from '../http/access.js';
import { pageWindow, toPage } from '../http/paging.js';
import type { SupportEventLogsService } from '../services/support-event-logs.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Support'];
// Any signed-in person may send their log; a company token has no browser session to send.
const SEND = access(null, 'analyst', { userOnly: true });
// Staff are checked by the service (the role rule cannot express "platform staff"); tokens never qualify.
const STAFF = access(null, 'analyst', { userOnly: true });
// JSON around 5 MB of JSON Lines is a little larger than the lines themselves; the service checks the 5 MB.
const BODY_LIMIT = SUPPORT_LOG_LIMITS.maxBytes + 1024 * 1024;

/** Event logs sent to support: any company user stores one; platform staff list and download them. */
export function supportRoutes(service: SupportEventLogsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/support/event-logs/',
      {
        config: SEND,
        bodyLimit: BODY_LIMIT,
        schema: {
          tags,
          summary: "Send the app's event log (redacted) to support",
          body: SupportEventLogCreateSchema,
          response: { 201: SupportEventLogCreatedSchema, 413: ApiErrorSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(principalOf(request), request.body)),
    );

    app.get(
      '/support/event-logs/',
      {
        config: STAFF,
        schema: {
          tags,
          summary: 'Captured event logs of every company, newest first (platform staff only)',
          querystring: PagingQuerySchema,
          response: { 200: SupportEventLogPageSchema, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await service.list(principalOf(request), pageWindow(request.query));
        return toPage(request, request.query, count, results);
      },
    );

    app.get(
      '/support/event-logs/:id/',
      {
        config: STAFF,
        schema: {
          tags,
          summary: 'Download a captured event log as JSON Lines (platform staff only)',
          params: IdParamSchema,
          response: { 200: z.string().describe('JSON Lines, one entry per line'), ...errors },
        },
      },
      async (request, reply) => {
        const { log, content } = await service.download(principalOf(request), request.params.id);
        return (
          reply
            .type('application/x-ndjson; charset=utf-8')
            .header('content-disposition', `attachment; filename="event-log-${log.id}.jsonl"`)
            .header('x-company-name', encodeURIComponent(log.company_name))
            // A Buffer goes out as it is: Fastify would JSON-encode a string under a type containing "json".
            .send(Buffer.from(content, 'utf8') as unknown as string)
        );
      },
    );
  };
}
