import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { csvUploadMachine, type UploadRequest } from '../../machines/csv-upload.machine.js';
import type { UpdateRequest } from '../../machines/kit/list-machine.js';
import { subscribersListMachine, type SubscriberListQuery } from '../../machines/subscribers-list.machine.js';
import { ImportJobSchema, type ImportJob } from '../../schemas/imports.js';
import {
  SubscriberPageSchema,
  SubscriberSchema,
  type Subscriber,
  type SubscriberCreate,
  type SubscriberProfileUpdate,
} from '../../schemas/subscribers.js';
import { apiRequest } from '../../services/api-client.js';
import { downloadCsv } from '../../services/download.js';
import { uploadCsv } from '../../services/upload.js';
import { answerOf, apiCall } from './answer.js';

/** Today as YYYY-MM-DD, for export file names. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** /subscribers' list machine with `/api/subscriptions/subscribers/` and its export. */
export const subscribersListLogic = subscribersListMachine.provide({
  actors: {
    loadList: apiCall((query: SubscriberListQuery) =>
      apiRequest({
        method: 'GET',
        path: '/subscriptions/subscribers/',
        query: { ...query },
        schema: SubscriberPageSchema,
      }),
    ),
    createItem: apiCall((subscriber: SubscriberCreate) =>
      apiRequest({
        method: 'POST',
        path: '/subscriptions/subscribers/',
        body: subscriber,
        schema: SubscriberSchema,
      }),
    ),
    updateItem: apiCall(({ item, changes }: UpdateRequest<Subscriber, SubscriberProfileUpdate>) =>
      apiRequest({
        method: 'PUT',
        path: `/subscriptions/subscribers/${item.id}/profile/`,
        body: changes,
        schema: SubscriberSchema,
      }),
    ),
    exportList: fromPromise<unknown, SubscriberListQuery>(({ input, signal }) => {
      // Every page of the filtered list: the export ignores paging.
      const { page: _page, page_size: _size, ...filters } = input;
      return downloadCsv('/subscriptions/subscribers/export/', `subscribers-${today()}.csv`, signal, {
        ...filters,
      });
    }),
  },
});

/** Where each kind of record is uploaded. */
const UPLOAD_PATHS = {
  subscriber: '/subscriptions/subscribers/upload/',
  guest: '/pos/guests/upload/',
  checks: '/pos/checks/upload/',
} as const;

/**
 * The CSV upload machine with the upload service (byte progress over XMLHttpRequest), `GET
 * /api/imports/{id}/` and the rejected-rows download. Usable for subscribers, guests and POS checks (input `kind`).
 */
export const csvUploadLogic = csvUploadMachine.provide({
  actors: {
    uploadFile: fromCallback<EventObject, UploadRequest>(({ input, sendBack }) => {
      const { blob, file_name: name } = input.file;
      // A replayed or restored event carries no file: nothing can be sent.
      if (!(blob instanceof Blob)) {
        sendBack({ type: 'upload.failed', error: new Error('No file to send') });
        return undefined;
      }
      const subscription = uploadCsv(UPLOAD_PATHS[input.kind], blob, name).subscribe({
        next: (report) =>
          sendBack(
            report.type === 'progress'
              ? { type: 'upload.progress', loaded: report.loaded, total: report.total }
              : { type: 'upload.answered', job: report.job },
          ),
        error: (error: unknown) => sendBack({ type: 'upload.failed', error }),
      });
      return () => subscription.unsubscribe();
    }),
    fetchJob: fromPromise<ImportJob, number>(({ input, signal }) =>
      answerOf(apiRequest({ method: 'GET', path: `/imports/${input}/`, schema: ImportJobSchema }), signal),
    ),
    downloadRejected: fromPromise<unknown, { url: string; fileName: string }>(({ input, signal }) =>
      downloadCsv(input.url, input.fileName, signal),
    ),
  },
});
