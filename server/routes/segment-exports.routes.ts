import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import {
  SegmentExportListQuerySchema,
  SegmentExportPageSchema,
  SegmentExportSchema,
} from '../../src/schemas/segment-exports.js';
import { access } from '../http/access.js';
import { pageWindow, toPage } from '../http/paging.js';
import { companyOf } from '../http/scope.js';
import type { SegmentExportsService } from '../services/segment-exports.service.js';
import { sendCsv } from './csv-download.js';

const errors = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
};
const tags = ['Segments'];
const READ = access('Segments List', 'analyst');
// The file holds guests' personal data: a signed-in person of the company only, never an integration token.
const DOWNLOAD = access('Segments List', 'analyst', { userOnly: true });

/** Background segment exports (started by `…/segments/{id}/export/?trigger=1`): list, status and download. */
export function segmentExportsRoutes(service: SegmentExportsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/campaigns/segment-exports/',
      {
        config: READ,
        schema: {
          tags,
          summary: "The company's background segment exports, newest first (expired ones are removed)",
          querystring: SegmentExportListQuerySchema,
          response: { 200: SegmentExportPageSchema, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await service.list(companyOf(request), pageWindow(request.query));
        return toPage(request, request.query, count, results);
      },
    );

    app.get(
      '/campaigns/segment-exports/:id/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'One background export: its status, progress and, once done, its download URL',
          params: IdParamSchema,
          response: { 200: SegmentExportSchema, ...errors },
        },
      },
      async (request) => service.get(companyOf(request), request.params.id),
    );

    app.get(
      '/campaigns/segment-exports/:id/download/',
      {
        config: DOWNLOAD,
        schema: {
          tags,
          summary: "A finished export's CSV (409 `export_not_ready` before); signed-in users only",
          params: IdParamSchema,
          response: errors,
        },
      },
      async (request, reply) => {
        const file = await service.download(companyOf(request), request.params.id);
        return sendCsv(reply, file.fileName, file.body);
      },
    );
  };
}
