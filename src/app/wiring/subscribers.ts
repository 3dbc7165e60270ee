import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { csvUploadMachine, type UploadRequest } from '../../machines/csv-upload.machine.js';
import {
  subscribersListMachine,
  type SubscriberListQuery,
  type SubscriberUpdateRequest,
} from '../../machines/subscribers-list.machine.js';
import type { Page } from '../../schemas/common.js';
import { ImportJobSchema, type ImportJob } from '../../schemas/imports.js';
import {
  SubscriberPageSchema,
  SubscriberSchema,
  type Subscriber,
  type SubscriberCreate,
} from '../../schemas/subscribers.js';
import { apiRequest } from '../../services/api-client.js';
import { downloadCsv } from '../../services/download.js';
import { STORAGE_KEYS, writeText } from '../../services/storage.js';
import { uploadCsv } from '../../services/upload.js';
import { answerOf } from './answer.js';

/** Today as YYYY-MM-DD, for export file names. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** /subscribers' list machine with `/api/subscriptions/subscribers/`, local storage and history. */
export const subscribersListLogic = subscribersListMachine.provide({
  actors: {
    listSubscribers: fromPromise<Page<Subscriber>, SubscriberListQuery>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'GET',
          path: '/subscriptions/subscribers/',
          query: { ...input },
          schema: SubscriberPageSchema,
        }),
        signal,
      ),
    ),
    createSubscriber: fromPromise<Subscriber, SubscriberCreate>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'POST',
          path: '/subscriptions/subscribers/',
          body: input,
          schema: SubscriberSchema,
        }),
        signal,
      ),
    ),
    updateSubscriber: fromPromise<Subscriber, SubscriberUpdateRequest>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'PUT',
          path: `/subscriptions/subscribers/${input.id}/profile/`,
          body: input.profile,
          schema: SubscriberSchema,
        }),
        signal,
      ),
    ),
    exportSubscribers: fromPromise<unknown, Omit<SubscriberListQuery, 'page' | 'page_size'>>(
      ({ input, signal }) =>
        downloadCsv('/subscriptions/subscribers/export/', `subscribers-${today()}.csv`, signal, { ...input }),
    ),
  },
  actions: {
    storeProfileKind: (_, kind) => writeText('local', STORAGE_KEYS.profileKind, kind),
  },
});

/** Where each kind of record is uploaded. */
const UPLOAD_PATHS = {
  subscriber: '/subscriptions/subscribers/upload/',
  guest: '/pos/guests/upload/',
} as const;

/**
 * The CSV upload machine with the upload service (byte progress over XMLHttpRequest), `GET
 * /api/imports/{id}/` and the rejected-rows download. Usable for subscribers and guests (input `kind`).
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
