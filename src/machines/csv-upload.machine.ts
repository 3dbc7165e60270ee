import {
  assign,
  cancel,
  type DoneActorEvent,
  emit,
  type EventObject,
  type ErrorActorEvent,
  fromCallback,
  raise,
  setup,
  spawnChild,
  stopChild,
} from 'xstate';
import { LIMITS } from '../schemas/constants.js';
import type { ImportJob, ImportKind } from '../schemas/imports.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

// The poll pause is a delayed raise cancelled on exit: what `after` does, in the form createTestModel accepts
// (docs/client.md).

/**
 * The file the user chose: its name and size (which the event log keeps, so replay validates the same way;
 * `file_name`, not `name`, which the log would fingerprint as a person's) and the browser's File itself as
 * `blob` (which serializes to nothing in the log).
 */
export interface ChosenFile {
  readonly file_name: string;
  readonly size: number;
  readonly blob?: Blob;
}

/** What the upload actor is given: the kind of records and the file to send. */
export interface UploadRequest {
  kind: ImportKind;
  file: ChosenFile;
}

/** Why a chosen file is refused before anything is sent. */
export type FileProblem = 'notCsv' | 'empty' | 'tooLarge';

/** What the upload dialog's view sends. */
export type CsvUploadCommand =
  | { type: 'dialog.open' }
  | { type: 'dialog.close' }
  | { type: 'upload.fileChosen'; file: ChosenFile }
  | { type: 'upload.start' }
  | { type: 'upload.cancel' }
  | { type: 'upload.again' }
  | { type: 'rejected.download' };

/** What the upload actor (a callback actor wired to the upload service) sends back while it works. */
export type CsvUploadReport =
  | { type: 'upload.progress'; loaded: number; total: number }
  | { type: 'upload.answered'; job: ImportJob }
  | { type: 'upload.failed'; error: unknown };

/** Everything the upload handles. */
export type CsvUploadEvent =
  | CsvUploadCommand
  | CsvUploadReport
  /** Raised by the machine itself once the poll pause is over. */
  | { type: 'poll.due' }
  | DoneActorEvent<ImportJob, 'fetchJob'>
  | ErrorActorEvent<unknown, 'fetchJob'>
  | DoneActorEvent<unknown, 'downloadRejected'>
  | ErrorActorEvent<unknown, 'downloadRejected'>;

/** What the upload emits: an import finished (the screen refreshes its list 3 seconds later). */
export interface CsvUploadFinished {
  type: 'upload.completed';
  job: ImportJob;
}

/** What the upload knows. */
export interface CsvUploadContext {
  kind: ImportKind;
  file: ChosenFile | null;
  fileProblem: FileProblem | null;
  /** Bytes sent and to send while the file streams up. */
  sent: number;
  total: number;
  /** The import job as last answered. */
  job: ImportJob | null;
  problem: ApiProblem | null;
  /** The rejected-rows download failed. */
  downloadProblem: ApiProblem | null;
}

/** The refusal of a chosen file, or null when it may be sent. */
export function fileProblemOf(file: ChosenFile): FileProblem | null {
  if (!/\.csv$/i.test(file.file_name)) return 'notCsv';
  if (file.size <= 0) return 'empty';
  if (file.size > LIMITS.uploadMaxBytes) return 'tooLarge';
  return null;
}

/** The share of the file sent, 0–100 (the server's row count is not known until it has read the file). */
export function uploadPercent(context: Pick<CsvUploadContext, 'sent' | 'total'>): number {
  return context.total > 0 ? Math.min(100, Math.round((context.sent / context.total) * 100)) : 0;
}

const INITIAL: Omit<CsvUploadContext, 'kind'> = {
  file: null,
  fileProblem: null,
  sent: 0,
  total: 0,
  job: null,
  problem: null,
  downloadProblem: null,
};

// The CSV upload's types, actors, delays, guards and actions.
const csvUploadSetup = setup({
  types: {
    context: {} as CsvUploadContext,
    events: {} as CsvUploadEvent,
    input: {} as { kind: ImportKind },
    emitted: {} as CsvUploadFinished,
  },
  actors: {
    /** `POST /api/{subscriptions/subscribers|pos/guests|pos/checks}/upload/`: reports progress, then the job. */
    uploadFile: fromCallback<EventObject, UploadRequest>(() => {
      throw new Error('provided by src/app');
    }),
    /** `GET /api/imports/{id}/`. */
    fetchJob: placeholder<ImportJob, number>(),
    /** Saves the job's rejected rows (`rejected_url`) as a file. */
    downloadRejected: placeholder<unknown, { url: string; fileName: string }>(),
  },
  delays: {
    /** How long to wait between two looks at the import job. */
    pollDelay: 1000,
  },
  guards: {
    fileIsAcceptable: (_, file: ChosenFile) => fileProblemOf(file) === null,
    hasFile: ({ context }) => context.file !== null && context.fileProblem === null,
    jobIsDone: (_, job: ImportJob) => job.status === 'done',
    jobFailed: (_, job: ImportJob) => job.status === 'failed',
  },
  actions: {
    reset: assign(INITIAL),
    keepFile: assign((_, file: ChosenFile) => ({
      file,
      fileProblem: fileProblemOf(file),
      problem: null,
    })),
    startProgress: assign(({ context }) => ({
      sent: 0,
      total: context.file?.size ?? 0,
      job: null,
      problem: null,
      downloadProblem: null,
    })),
    keepProgress: assign((_, progress: { loaded: number; total: number }) => ({
      sent: progress.loaded,
      total: progress.total,
    })),
    keepJob: assign((_, job: ImportJob) => ({ job })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepDownloadProblem: assign((_, failure: { error: unknown }) => ({
      downloadProblem: problemOf(failure.error),
    })),
    clearDownloadProblem: assign({ downloadProblem: null }),
    forgetJob: assign({ sent: 0, total: 0, job: null, problem: null }),
    announceCompleted: emit(({ context }) => ({
      type: 'upload.completed' as const,
      // The report state is only entered with a job.
      job: context.job!,
    })),
  },
});
const request = requestIn(csvUploadSetup);

/**
 * A CSV upload of subscribers or guests (input `kind`): choose a file (a .csv of at most
 * `LIMITS.uploadMaxBytes`), send it with byte progress, follow the import job (`GET /api/imports/{id}/`
 * about every second) until it is done or failed, then show the report: rows read, imported, updated,
 * duplicates and invalid, the first row errors, and a download of the rejected rows. Cancel stops the
 * upload (or stops following a job the server keeps importing). A finished import emits
 * `upload.completed`.
 */
export const csvUploadMachine = csvUploadSetup.createMachine({
  id: 'csvUpload',
  context: ({ input }) => ({ kind: input.kind, ...INITIAL }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'dialog.open': { target: 'choosing', actions: 'reset' } },
    },
    choosing: {
      on: {
        'upload.fileChosen': { actions: { type: 'keepFile', params: ({ event }) => event.file } },
        'upload.start': { guard: 'hasFile', target: 'uploading' },
        'dialog.close': { target: 'closed', actions: 'reset' },
      },
    },
    uploading: {
      tags: ['busy'],
      // Not a `request`: the upload reports progress and its answer as its own events, not done/error.
      entry: [
        'startProgress',
        spawnChild('uploadFile', {
          id: 'uploadFile',
          input: ({ context }) => ({ kind: context.kind, file: context.file! }),
        }),
      ],
      exit: stopChild('uploadFile'),
      on: {
        'upload.progress': { actions: { type: 'keepProgress', params: ({ event }) => event } },
        'upload.answered': [
          {
            guard: { type: 'jobIsDone', params: ({ event }) => event.job },
            target: 'reporting',
            actions: { type: 'keepJob', params: ({ event }) => event.job },
          },
          {
            guard: { type: 'jobFailed', params: ({ event }) => event.job },
            target: 'failed',
            actions: { type: 'keepJob', params: ({ event }) => event.job },
          },
          { target: 'processing', actions: { type: 'keepJob', params: ({ event }) => event.job } },
        ],
        'upload.failed': {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
        // Unsubscribing aborts the request: nothing of the file is imported.
        'upload.cancel': { target: 'choosing', actions: 'forgetJob' },
      },
    },
    processing: {
      tags: ['busy'],
      initial: 'waiting',
      on: {
        // The server finishes the import anyway; the list shows it at the next refresh.
        'upload.cancel': { target: 'choosing', actions: 'forgetJob' },
      },
      states: {
        waiting: {
          entry: raise({ type: 'poll.due' }, { delay: 'pollDelay', id: 'pollPause' }),
          exit: cancel('pollPause'),
          on: { 'poll.due': { target: 'fetching' } },
        },
        fetching: {
          ...request('fetchJob', {
            input: ({ context }) => context.job!.id,
            done: [
              {
                guard: { type: 'jobIsDone', params: ({ event }) => event.output },
                target: '#csvUpload.reporting',
                actions: { type: 'keepJob', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'jobFailed', params: ({ event }) => event.output },
                target: '#csvUpload.failed',
                actions: { type: 'keepJob', params: ({ event }) => event.output },
              },
              { target: 'waiting', actions: { type: 'keepJob', params: ({ event }) => event.output } },
            ],
            error: {
              target: '#csvUpload.failed',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
      },
    },
    reporting: {
      entry: 'announceCompleted',
      initial: 'idle',
      on: {
        'upload.again': { target: 'choosing', actions: 'reset' },
        'dialog.close': { target: 'closed', actions: 'reset' },
      },
      states: {
        idle: {
          on: { 'rejected.download': { target: 'downloading', actions: 'clearDownloadProblem' } },
        },
        downloading: {
          ...request('downloadRejected', {
            input: ({ context }) => ({
              url: context.job!.rejected_url,
              fileName: `rejected-${context.job!.file_name}`,
            }),
            done: { target: 'idle' },
            error: {
              target: 'idle',
              actions: { type: 'keepDownloadProblem', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
      },
    },
    failed: {
      on: {
        'upload.again': { target: 'choosing', actions: 'reset' },
        'dialog.close': { target: 'closed', actions: 'reset' },
      },
    },
  },
});
