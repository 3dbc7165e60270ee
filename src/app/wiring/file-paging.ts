import { fromPromise } from 'xstate';
import { z } from 'zod';
import {
  filePagingMachine,
  type ExistingRecordsRequest,
  type FileUrlsAnswer,
  type FileUrlsRequest,
} from '../../machines/file-paging.machine.js';
import { fileRowsOf, type FileRows } from '../../machines/support/csv-rows.js';
import type { CustomerKind } from '../../schemas/customers.js';
import { ExistingRecordsSchema, FileUrlsSchema } from '../../schemas/customers.js';
import { apiRequest, apiRequestText } from '../../services/api-client.js';
import { splitApiUrl } from '../../services/download.js';
import { answerOf } from './answer.js';

// Spec section 9: without a server count the machine falls back to fixed totals, so a missing count is
// accepted here rather than failing the call.
const LenientFileUrlsSchema = FileUrlsSchema.extend({
  count: z.number().int().nullable().optional(),
  max_count: z.number().int().nullable().optional(),
});

/** Failures are only logged (spec section 8); the event log records the machine's error event too. */
function logged<T>(what: string, call: Promise<T>): Promise<T> {
  return call.catch((error: unknown) => {
    console.warn(`File paging: ${what} failed`, error instanceof Error ? error.message : error);
    throw error;
  });
}

/** File paging with `/api/bigdata/file-urls/`, the file downloads and `/api/bigdata/existing-records/`. */
export const filePagingLogic = filePagingMachine.provide({
  actors: {
    loadFileUrls: fromPromise<FileUrlsAnswer, FileUrlsRequest>(({ input, signal }) =>
      logged(
        'file-URLs call',
        answerOf(
          apiRequest({
            method: 'GET',
            path: '/bigdata/file-urls/',
            query: {
              location_id: input.location_id,
              location_group_id: input.location_group_id,
              is_subscriber: input.kind === 'subscriber' ? 'true' : 'false',
              page: input.page,
            },
            schema: LenientFileUrlsSchema,
          }),
          signal,
        ),
      ),
    ),
    loadFile: fromPromise<FileRows, { kind: CustomerKind; url: string }>(async ({ input, signal }) => {
      // The server gives `/api/bigdata/files/…?location_id=…`: the client adds /api itself.
      const { path, search: query } = splitApiUrl(input.url);
      const text = await logged(
        'file download',
        answerOf(apiRequestText({ method: 'GET', path, query }, 'text/csv'), signal),
      );
      return fileRowsOf(input.kind, text);
    }),
    findExisting: fromPromise<string[], ExistingRecordsRequest>(({ input, signal }) =>
      logged(
        'existing-records call',
        answerOf(
          apiRequest({
            method: 'GET',
            path: '/bigdata/existing-records/',
            query: { kind: input.kind, pos_id: input.pos_ids },
            schema: ExistingRecordsSchema,
          }),
          signal,
        ),
      ).then((answer) => answer.pos_ids),
    ),
  },
});
