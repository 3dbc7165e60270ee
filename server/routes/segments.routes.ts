import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { SegmentTypesAnswerSchema } from '../../src/schemas/segment-catalogue.js';
import {
  SegmentCloneSchema,
  SegmentDashboardSchema,
  SegmentListQuerySchema,
  SegmentMembersPageSchema,
  SegmentMembersQuerySchema,
  SegmentPageSchema,
  SegmentPostQuerySchema,
  SegmentPreviewSchema,
  SegmentSchema,
  SegmentTypesQuerySchema,
  SegmentWriteSchema,
} from '../../src/schemas/segment-records.js';
import { SegmentExportQuerySchema, SegmentExportSchema } from '../../src/schemas/segment-exports.js';
import { pageLanguage } from '../auth/oidc/language.js';
import { access } from '../http/access.js';
import { fieldFailure, invalid } from '../http/errors.js';
import { pageWindow, toPage } from '../http/paging.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { SegmentExportsService } from '../services/segment-exports.service.js';
import type { SegmentsService } from '../services/segments.service.js';
import { sendCsv } from './csv-download.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Segments'];
const READ = access('Segments List', 'analyst');
const WRITE = access('Segments List', 'marketer');
// Every edit in the builder asks for a count: the preview's own rate limit (docs/security.md).
const WRITE_OR_PREVIEW = { ...WRITE, limit: 'preview' } as const;

/** The segment calls of spec section 7: rule types, segments, the live preview and clones. */
export function segmentsRoutes(
  service: SegmentsService,
  exports: SegmentExportsService,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/campaigns/segment-types/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'Every rule type of the builder with its operators, value kinds and options, labelled',
          querystring: SegmentTypesQuerySchema,
          response: { 200: SegmentTypesAnswerSchema, ...errors },
        },
      },
      async (request) =>
        service.types(request.query.language ?? pageLanguage(undefined, request.headers['accept-language'])),
    );

    app.get(
      '/campaigns/segments/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'List segments by name, each with its cached figures',
          querystring: SegmentListQuerySchema,
          response: { 200: SegmentPageSchema, ...errors },
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
      '/campaigns/segments/',
      {
        config: WRITE_OR_PREVIEW,
        schema: {
          tags,
          summary: 'Create a segment, or with ?preview=1 count its guests without saving',
          description:
            'A rule problem is a 400 naming the rule, e.g. `segment_groups[1].segment_rules[0].value`. With ' +
            '`preview=1` only `segment_groups` is read, and repeated `location_id` / `location_group_id` pick ' +
            'the locations counted.',
          querystring: SegmentPostQuerySchema,
          // Optional so a bad picker in the query is named even without a body.
          body: SegmentWriteSchema.partial().nullish(),
          response: { 200: SegmentPreviewSchema, 201: SegmentSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { preview, location_id, location_group_id } = request.query;
        if (preview === '1' || preview === 'true') {
          return reply.send(
            await service.preview(companyOf(request), request.body?.segment_groups, {
              location_id,
              location_group_id,
            }),
          );
        }
        // The body is partial for the preview; a save needs the whole of it.
        const body = SegmentWriteSchema.safeParse(request.body);
        if (!body.success) {
          throw invalid(
            Object.fromEntries(
              body.error.issues.map((issue) => [
                issue.path.join('.') || 'body',
                fieldFailure(issue.code === 'invalid_type' ? 'required' : 'not_valid', issue.message),
              ]),
            ),
          );
        }
        return reply.status(201).send(await service.create(writeScopeOf(request), body.data));
      },
    );

    app.get(
      '/benchmark/segment-dashboard/',
      {
        config: READ,
        schema: {
          tags,
          summary: "Every segment's cached figures side by side, by name",
          response: { 200: SegmentDashboardSchema, ...errors },
        },
      },
      async (request) => service.dashboard(companyOf(request)),
    );

    app.get(
      '/campaigns/segments/:id/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'One segment with its rule groups and cached figures',
          params: IdParamSchema,
          response: { 200: SegmentSchema, ...errors },
        },
      },
      async (request) => service.get(companyOf(request), request.params.id),
    );

    app.get(
      '/campaigns/segments/:id/subscribers/',
      {
        config: READ,
        schema: {
          tags,
          summary:
            "A segment's guests, oldest first, a page after a guest id (`after`, from the `next` link)",
          params: IdParamSchema,
          querystring: SegmentMembersQuerySchema,
          response: { 200: SegmentMembersPageSchema, ...errors },
        },
      },
      async (request) => {
        const { after, page_size } = request.query;
        const page = await service.members(companyOf(request), request.params.id, {
          after,
          limit: page_size,
        });
        const next = new URL(request.url, 'http://local');
        next.searchParams.set('after', String(page.lastId));
        return {
          count: page.count,
          next: page.lastId === null ? null : `${next.pathname}${next.search}`,
          previous: null,
          results: page.guests,
        };
      },
    );

    app.get(
      '/campaigns/segments/:id/export/',
      {
        config: READ,
        schema: {
          tags,
          summary: "A segment's guests as CSV (the guest export's columns), streamed; or a background export",
          description:
            '`trigger=1` queues a background export instead (202), downloaded from ' +
            '`/campaigns/segment-exports/{id}/download/` once done; `email=` (a user of the company) also ' +
            'queues one and mails that user a link when it is done.',
          params: IdParamSchema,
          querystring: SegmentExportQuerySchema,
          response: { 202: SegmentExportSchema, 409: ApiErrorSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { trigger, email } = request.query;
        if (trigger === '1' || trigger === 'true' || email !== undefined) {
          return reply
            .status(202)
            .send(await exports.trigger(writeScopeOf(request), request.params.id, email));
        }
        return sendCsv(
          reply,
          `segment-${request.params.id}.csv`,
          await service.exportCsv(companyOf(request), request.params.id),
        );
      },
    );

    app.put(
      '/campaigns/segments/:id/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Replace a segment (groups named by id keep their id) and work its figures out again',
          params: IdParamSchema,
          body: SegmentWriteSchema,
          response: { 200: SegmentSchema, ...errors },
        },
      },
      async (request) => service.update(writeScopeOf(request), request.params.id, request.body),
    );

    app.delete(
      '/campaigns/segments/:id/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Delete a segment with its groups and figures',
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
      '/campaigns/segments/:id/clone/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Copy a segment under a new name (default: its name with " (copy)")',
          params: IdParamSchema,
          body: SegmentCloneSchema.nullish(),
          response: { 201: SegmentSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await service.clone(writeScopeOf(request), request.params.id, request.body?.name)),
    );
  };
}
