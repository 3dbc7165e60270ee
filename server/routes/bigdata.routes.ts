import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { urlWholeNumber } from '../../src/schemas/numbers.js';
import {
  CustomerKindSchema,
  DeletedCustomerPageSchema,
  DeletedCustomersQuerySchema,
  ExistingRecordsQuerySchema,
  ExistingRecordsSchema,
  FileUrlsQuerySchema,
  FileUrlsSchema,
} from '../../src/schemas/customers.js';
import { GuestsBigdataPageSchema, GuestsBigdataQuerySchema } from '../../src/schemas/guests.js';
import { access } from '../http/access.js';
import { pageWindow, toPage } from '../http/paging.js';
import { companyOf } from '../http/scope.js';
import type { BigdataService } from '../services/bigdata.service.js';
import { sendCsv } from './csv-download.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Big data'];
const READ = access('Subscribers', 'analyst');

/** `/bigdata/files/{kind}/{fileNumber}/`. */
const FileParamSchema = z.object({
  kind: CustomerKindSchema,
  fileNumber: urlWholeNumber('fileNumber must be 1 or more'),
});

/** The location filters a file URL carries. */
const FileQuerySchema = FileUrlsQuerySchema.pick({ location_id: true, location_group_id: true });

/** The big-data calls of spec section 7: lean guest pages, deleted customers, files, existing records. */
export function bigdataRoutes(service: BigdataService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/pos/guests-bigdata/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'A stable (oldest first) page of guests, by subscription and location',
          querystring: GuestsBigdataQuerySchema,
          response: { 200: GuestsBigdataPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { count, results } = await service.guests(companyOf(request), query, pageWindow(query));
        return toPage(request, query, count, results);
      },
    );

    app.get(
      '/bigdata/get-deleted-customers/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'Deleted guests and subscribers, newest first (no personal data)',
          querystring: DeletedCustomersQuerySchema,
          response: { 200: DeletedCustomerPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { count, results } = await service.deletedCustomers(
          companyOf(request),
          query,
          pageWindow(query),
        );
        return toPage(request, query, count, results);
      },
    );

    app.get(
      '/bigdata/file-urls/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'How many rows, rows per file, and the URLs of one page of files',
          querystring: FileUrlsQuerySchema,
          response: { 200: FileUrlsSchema, ...errors },
        },
      },
      async (request) => service.fileUrls(companyOf(request), request.query),
    );

    app.get(
      '/bigdata/files/:kind/:fileNumber/',
      {
        config: READ,
        schema: {
          tags,
          summary:
            'One file of guest (customer_name,last_four_digits,pos_id) or subscriber (email,pos_id) rows',
          params: FileParamSchema,
          querystring: FileQuerySchema,
          response: errors,
        },
      },
      async (request, reply) => {
        const { kind, fileNumber } = request.params;
        const text = await service.file(companyOf(request), kind, fileNumber, request.query);
        return sendCsv(reply, `${kind}s-${fileNumber}.csv`, text);
      },
    );

    app.get(
      '/bigdata/existing-records/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'Which of the given POS ids already have a guest or subscriber',
          querystring: ExistingRecordsQuerySchema,
          response: { 200: ExistingRecordsSchema, ...errors },
        },
      },
      async (request) =>
        service.existingRecords(companyOf(request), request.query.kind, request.query.pos_id),
    );
  };
}
