import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import { LIMITS } from '../schemas/constants.js';
import type { CustomerKind } from '../schemas/customers.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { type FileRow, type FileRows, rowKey } from './support/csv-rows.js';
import { placeholder } from './support/placeholder.js';

/** Which locations the rows come from: the app's selection as the API's repeated filters. */
export interface LocationFilter {
  location_id: number[];
  location_group_id: number[];
}

/** Every location: no filter. */
export const NO_LOCATION_FILTER: LocationFilter = { location_id: [], location_group_id: [] };

/** `GET /api/bigdata/file-urls/`: which page of a kind's files for the filter. */
export interface FileUrlsRequest extends LocationFilter {
  kind: CustomerKind;
  page: number;
}

/** The file-URLs answer; `count` and `max_count` may be missing (then the spec's fallbacks apply). */
export interface FileUrlsAnswer {
  count?: number | null;
  max_count?: number | null;
  urls: string[];
}

/** `GET /api/bigdata/existing-records/?kind=&pos_id=…`: which POS ids already have a record of a kind. */
export interface ExistingRecordsRequest {
  kind: CustomerKind;
  pos_ids: string[];
}

/** Spec section 9: where file paging starts. */
export const FILE_PAGING_DEFAULTS = { pageFile: 1, fileEndCount: 100, totalRowsCount: 100 } as const;

/** Spec section 9: the totals assumed when the server gives no count. */
export const FILE_PAGING_FALLBACKS: Readonly<
  Record<CustomerKind, { totalRowsCount: number; fileEndCount: number }>
> = {
  subscriber: { totalRowsCount: 8200, fileEndCount: 456 },
  guest: { totalRowsCount: 9200, fileEndCount: 656 },
};

/** Which step failed, so a retry repeats it. */
export type FilePagingStep = 'urls' | 'file' | 'existing';

/** What the panel's view sends, and what the screen sends when the location selection changes. */
export type FilePagingCommand =
  { type: 'page.loadMore' } | { type: 'page.retry' } | { type: 'filter.change'; filter: LocationFilter };

/** Everything the machine handles. */
export type FilePagingEvent =
  | FilePagingCommand
  | DoneActorEvent<FileUrlsAnswer, 'loadFileUrls'>
  | ErrorActorEvent<unknown, 'loadFileUrls'>
  | DoneActorEvent<FileRows, 'loadFile'>
  | ErrorActorEvent<unknown, 'loadFile'>
  | DoneActorEvent<string[], 'findExisting'>
  | ErrorActorEvent<unknown, 'findExisting'>;

/** What the machine knows. */
export interface FilePagingContext {
  kind: CustomerKind;
  filter: LocationFilter;
  /** The page of file URLs being read (spec: pageFile). */
  pageFile: number;
  /** How far into all rows the files read so far reach (spec: fileEndCount). */
  fileEndCount: number;
  /** How many rows the files hold in all (spec: totalRowsCount). */
  totalRowsCount: number;
  /** False until the server gave a count; the totals are then the spec's fallbacks or defaults. */
  countKnown: boolean;
  /** Rows per file, from the server's `max_count`. */
  rowsPerFile: number;
  /** The URLs of the current page and how many of them were read. */
  urls: string[];
  urlIndex: number;
  /** True once the last page of files was read. */
  exhausted: boolean;
  /** The rows kept so far, in file order, without repeats or people who already have a record. */
  rows: FileRow[];
  /** The rows of the file just read, waiting for the existing-records check. */
  pending: FileRow[];
  /** Rows read from files (before discarding and removal), and rows discarded or removed. */
  rowsRead: number;
  rowsDiscarded: number;
  rowsRemoved: number;
  problem: ApiProblem | null;
  failedStep: FilePagingStep | null;
}

/** What the machine starts from: the kind of rows and the locations. */
export interface FilePagingInput {
  kind: CustomerKind;
  filter: LocationFilter;
}

/** The kind of record that makes a row "already present": a guest who is already a subscriber. */
export function existingKindFor(kind: CustomerKind): CustomerKind | null {
  return kind === 'guest' ? 'subscriber' : null;
}

function freshContext(input: FilePagingInput): FilePagingContext {
  return {
    kind: input.kind,
    filter: input.filter,
    ...FILE_PAGING_DEFAULTS,
    countKnown: false,
    rowsPerFile: LIMITS.fileRowsPerFile,
    urls: [],
    urlIndex: 0,
    exhausted: false,
    rows: [],
    pending: [],
    rowsRead: 0,
    rowsDiscarded: 0,
    rowsRemoved: 0,
    problem: null,
    failedStep: null,
  };
}

/** The pending rows without those already kept (same person twice) or already present on the server. */
function mergeRows(context: FilePagingContext, present: readonly string[]): Partial<FilePagingContext> {
  const presentIds = new Set(present);
  const keys = new Set(context.rows.map(rowKey));
  const added: FileRow[] = [];
  for (const row of context.pending) {
    const key = rowKey(row);
    if (keys.has(key) || (row.pos_id !== '' && presentIds.has(row.pos_id))) continue;
    keys.add(key);
    added.push(row);
  }
  return {
    rows: [...context.rows, ...added],
    rowsRemoved: context.rowsRemoved + context.pending.length - added.length,
    pending: [],
    problem: null,
    failedStep: null,
  };
}

// File paging's types, actors, guards and actions.
const filePagingSetup = setup({
  types: {
    context: {} as FilePagingContext,
    events: {} as FilePagingEvent,
    input: {} as FilePagingInput,
  },
  actors: {
    /** `GET /api/bigdata/file-urls/`. */
    loadFileUrls: placeholder<FileUrlsAnswer, FileUrlsRequest>(),
    /** Downloads one file (CSV with a header) and parses it with `fileRowsOf`. */
    loadFile: placeholder<FileRows, { kind: CustomerKind; url: string }>(),
    /** `GET /api/bigdata/existing-records/`: the POS ids among those asked that have a record. */
    findExisting: placeholder<string[], ExistingRecordsRequest>(),
  },
  guards: {
    hasUnreadFile: ({ context }) => context.urlIndex < context.urls.length,
    needsExistingCheck: ({ context }) => needsCheck(context),
    failedOnUrls: ({ context }) => context.failedStep === 'urls',
    failedOnFile: ({ context }) => context.failedStep === 'file',
    // Every URL of a short page was read, or the files read reach the server's count.
    hasNoMore: ({ context }) =>
      (context.urlIndex >= context.urls.length && context.urls.length < LIMITS.fileUrlsPerPage) ||
      (context.countKnown && context.fileEndCount >= context.totalRowsCount),
  },
  actions: {
    keepUrls: assign(({ context }, answer: FileUrlsAnswer) => {
      const fallback = FILE_PAGING_FALLBACKS[context.kind];
      const known = typeof answer.count === 'number';
      const rowsPerFile =
        typeof answer.max_count === 'number' && answer.max_count > 0 ? answer.max_count : context.rowsPerFile;
      return {
        urls: answer.urls,
        urlIndex: 0,
        // An empty page means every file was read.
        exhausted: answer.urls.length === 0,
        rowsPerFile,
        countKnown: known || context.countKnown,
        totalRowsCount: known
          ? answer.count!
          : context.countKnown
            ? context.totalRowsCount
            : fallback.totalRowsCount,
        fileEndCount:
          known || context.countKnown
            ? context.fileEndCount
            : Math.max(context.fileEndCount, fallback.fileEndCount),
        problem: null,
        failedStep: null,
      };
    }),
    keepFileRows: assign(({ context }, file: FileRows) => {
      const filesRead = (context.pageFile - 1) * LIMITS.fileUrlsPerPage + context.urlIndex + 1;
      return {
        pending: file.rows,
        urlIndex: context.urlIndex + 1,
        rowsRead: context.rowsRead + file.rows.length + file.discarded,
        rowsDiscarded: context.rowsDiscarded + file.discarded,
        fileEndCount: context.countKnown
          ? Math.min(context.totalRowsCount, filesRead * context.rowsPerFile)
          : Math.max(context.fileEndCount, filesRead * context.rowsPerFile),
        problem: null,
        failedStep: null,
      };
    }),
    mergePending: assign(({ context }) => mergeRows(context, [])),
    mergeWithoutExisting: assign(({ context }, present: string[]) => mergeRows(context, present)),
    nextPage: assign(({ context }) => ({ pageFile: context.pageFile + 1 })),
    markExhausted: assign({ exhausted: true }),
    keepProblem: assign((_, failure: { error: unknown; step: FilePagingStep }) => ({
      problem: problemOf(failure.error),
      failedStep: failure.step,
    })),
  },
});
const request = requestIn(filePagingSetup);

/**
 * File paging (spec sections 3, 5, 7 and 9): asks which files hold a kind's rows for the selected
 * locations, reads them one file per step ("load more"), discards rows with one field or fewer, drops
 * rows already kept and — for guests — POS ids that already have a subscriber, and keeps pageFile,
 * fileEndCount and totalRowsCount up to date. A failed call is kept as a problem: the rows read so far
 * stay on screen and a retry repeats the failed step.
 */
export const filePagingMachine = filePagingSetup.createMachine({
  id: 'filePaging',
  context: ({ input }) => freshContext(input),
  initial: 'loadingUrls',
  on: {
    // Another location: start again from the first page with the defaults.
    'filter.change': {
      target: '.loadingUrls',
      reenter: true,
      actions: assign(({ context, event }) => freshContext({ kind: context.kind, filter: event.filter })),
    },
  },
  states: {
    loadingUrls: {
      tags: ['busy'],
      ...request('loadFileUrls', {
        input: ({ context }) => ({ kind: context.kind, page: context.pageFile, ...context.filter }),
        done: [
          {
            guard: ({ event }) => event.output.urls.length === 0,
            target: 'complete',
            actions: { type: 'keepUrls', params: ({ event }) => event.output },
          },
          { target: 'loadingFile', actions: { type: 'keepUrls', params: ({ event }) => event.output } },
        ],
        error: {
          target: 'failed',
          actions: {
            type: 'keepProblem',
            params: ({ event }) => ({ error: event.error, step: 'urls' as const }),
          },
        },
      }),
    },
    loadingFile: {
      tags: ['busy'],
      ...request('loadFile', {
        input: ({ context }) => ({ kind: context.kind, url: context.urls[context.urlIndex] ?? '' }),
        done: {
          target: 'sorting',
          actions: { type: 'keepFileRows', params: ({ event }) => event.output },
        },
        error: {
          target: 'failed',
          actions: {
            type: 'keepProblem',
            params: ({ event }) => ({ error: event.error, step: 'file' as const }),
          },
        },
      }),
    },
    // The file's rows are in: check guests against subscribers, or keep them at once.
    sorting: {
      always: [
        { guard: 'needsExistingCheck', target: 'checkingExisting' },
        { target: 'settling', actions: 'mergePending' },
      ],
    },
    checkingExisting: {
      tags: ['busy'],
      ...request('findExisting', {
        input: ({ context }) => ({
          kind: existingKindFor(context.kind) ?? 'subscriber',
          pos_ids: [...new Set(context.pending.map((row) => row.pos_id).filter((id) => id !== ''))],
        }),
        done: {
          target: 'settling',
          actions: { type: 'mergeWithoutExisting', params: ({ event }) => event.output },
        },
        error: {
          target: 'failed',
          actions: {
            type: 'keepProblem',
            params: ({ event }) => ({ error: event.error, step: 'existing' as const }),
          },
        },
      }),
    },
    // Rows kept: wait for "load more", or stop when nothing is left.
    settling: {
      always: [{ guard: 'hasNoMore', target: 'complete', actions: 'markExhausted' }, { target: 'ready' }],
    },
    ready: {
      on: {
        'page.loadMore': [
          { guard: 'hasUnreadFile', target: 'loadingFile' },
          { target: 'loadingUrls', actions: 'nextPage' },
        ],
      },
    },
    complete: {},
    failed: {
      on: {
        'page.retry': [
          { guard: 'failedOnUrls', target: 'loadingUrls' },
          { guard: 'failedOnFile', target: 'loadingFile' },
          { target: 'checkingExisting' },
        ],
      },
    },
  },
});

/** True when the file just read has guest rows whose POS ids must be checked against subscribers. */
function needsCheck(context: FilePagingContext): boolean {
  return existingKindFor(context.kind) !== null && context.pending.some((row) => row.pos_id !== '');
}
