import { assign, cancel, type DoneActorEvent, type ErrorActorEvent, raise, setup } from 'xstate';
import type { SegmentExport, SegmentExportPage } from '../schemas/segment-exports.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

// The poll pause is a delayed raise cancelled on exit: what `after` does, in the form createTestModel accepts
// (docs/client.md).

/** What downloading a finished export asks: its id and the file name to save it as. */
export interface ExportDownloadRequest {
  id: number;
  fileName: string;
}

/** What the /segments screen, its rows, the dashboard panel and the exports drawer send. */
export type SegmentExportsCommand =
  | { type: 'exports.refresh' }
  | { type: 'export.start'; segmentId: number }
  | { type: 'export.download'; item: SegmentExport }
  | { type: 'notice.dismiss' };

/** Everything the exports machine handles. */
export type SegmentExportsEvent =
  | SegmentExportsCommand
  | { type: 'poll.due' }
  | DoneActorEvent<SegmentExportPage, 'loadExports'>
  | ErrorActorEvent<unknown, 'loadExports'>
  | DoneActorEvent<SegmentExport, 'startExport'>
  | ErrorActorEvent<unknown, 'startExport'>
  | DoneActorEvent<unknown, 'downloadExport'>
  | ErrorActorEvent<unknown, 'downloadExport'>;

/** A note for the user about the last start or download. */
export type SegmentExportsNotice = 'started' | 'startFailed' | 'downloadFailed';

/** What the exports machine knows. */
export interface SegmentExportsContext {
  /** The company's recent exports, newest first, as last loaded. */
  exports: SegmentExport[];
  /** Whether a list was ever loaded (the drawer shows skeletons before). */
  loaded: boolean;
  problem: ApiProblem | null;
  /** The segment whose background export is being asked for. */
  startingSegment: number | null;
  /** The export being downloaded, and the file it is saved as. */
  downloading: ExportDownloadRequest | null;
  notice: SegmentExportsNotice | null;
  noticeProblem: ApiProblem | null;
}

/** Milliseconds between two looks at the list while an export is queued or running. */
export const SEGMENT_EXPORTS_POLL_MS = 2_000;

/** Whether an export still changes: queued or running. */
export function exportActive(item: SegmentExport): boolean {
  return item.status === 'queued' || item.status === 'running';
}

/** How far an export is, in percent of its segment's size; null without a size to compare with. */
export function exportShare(item: SegmentExport): number | null {
  if (item.status === 'done') return 100;
  if (item.total === null || item.total === 0) return null;
  return Math.min(100, Math.round((item.rows_written / item.total) * 100));
}

/** The file name of an export: its segment's name in letters, digits and dashes. */
export function exportFileName(item: SegmentExport): string {
  const base = item.segment_name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'segment';
  return `${base}-${item.id}.csv`;
}

const exportsSetup = setup({
  types: { context: {} as SegmentExportsContext, events: {} as SegmentExportsEvent },
  actors: {
    /** `GET /api/campaigns/segment-exports/` (the newest page). */
    loadExports: placeholder<SegmentExportPage, void>(),
    /** `GET /api/campaigns/segments/{id}/export/?trigger=1`. */
    startExport: placeholder<SegmentExport, number>(),
    /** `GET /api/campaigns/segment-exports/{id}/download/`, saved as a CSV file. */
    downloadExport: placeholder<unknown, ExportDownloadRequest>(),
  },
  actions: {
    keepExports: assign((_, page: SegmentExportPage) => ({
      exports: page.results,
      loaded: true,
      problem: null,
    })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    beginStart: assign((_, segmentId: number) => ({
      startingSegment: segmentId,
      notice: null,
      noticeProblem: null,
    })),
    beginDownload: assign((_, item: SegmentExport) => ({
      downloading: { id: item.id, fileName: exportFileName(item) },
      notice: null,
      noticeProblem: null,
    })),
    finish: assign((_, notice: SegmentExportsNotice | null) => ({
      notice,
      startingSegment: null,
      downloading: null,
    })),
    failWith: assign((_, failure: { notice: SegmentExportsNotice; error: unknown }) => ({
      notice: failure.notice,
      noticeProblem: problemOf(failure.error),
      startingSegment: null,
      downloading: null,
    })),
    dismiss: assign({ notice: null, noticeProblem: null }),
    /** A started export shows at once, before the next look at the list. */
    addStarted: assign(({ context }, item: SegmentExport) => ({
      exports: [item, ...context.exports.filter((known) => known.id !== item.id)],
    })),
  },
  guards: {
    anyActive: (_, page: SegmentExportPage) => page.results.some(exportActive),
  },
  delays: { pollDelay: SEGMENT_EXPORTS_POLL_MS },
});
const request = requestIn(exportsSetup);

/**
 * The background exports of /segments (docs/segments.md, "Background exports"), in two parallel regions. The
 * list: loaded on start and on `exports.refresh`; while any export is queued or running it looks again after a
 * pause (`list.waiting`), and stops looking once none is; a failed look waits for a refresh. The actions: start
 * a background export of a segment (its record joins the list at once, and the list region, hearing the same
 * answer, looks again) or
 * download a finished one, one at a time, each ending with a notice.
 */
export const segmentExportsMachine = exportsSetup.createMachine({
  id: 'segmentExports',
  type: 'parallel',
  context: {
    exports: [],
    loaded: false,
    problem: null,
    startingSegment: null,
    downloading: null,
    notice: null,
    noticeProblem: null,
  },
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          ...request('loadExports', {
            // A look under way may predate the export just started: look again.
            on: { 'xstate.done.actor.startExport': { target: 'loading', reenter: true } },
            done: [
              {
                guard: { type: 'anyActive', params: ({ event }) => event.output },
                target: 'waiting',
                actions: { type: 'keepExports', params: ({ event }) => event.output },
              },
              { target: 'idle', actions: { type: 'keepExports', params: ({ event }) => event.output } },
            ],
            error: {
              target: 'failed',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
        waiting: {
          tags: ['polling'],
          entry: raise({ type: 'poll.due' }, { delay: 'pollDelay', id: 'pollPause' }),
          exit: cancel('pollPause'),
          on: {
            'poll.due': 'loading',
            'exports.refresh': 'loading',
            'xstate.done.actor.startExport': 'loading',
          },
        },
        // A started export (the other region) makes the list look again, and so poll while it runs.
        idle: { on: { 'exports.refresh': 'loading', 'xstate.done.actor.startExport': 'loading' } },
        failed: { on: { 'exports.refresh': 'loading', 'xstate.done.actor.startExport': 'loading' } },
      },
    },
    actions: {
      initial: 'ready',
      states: {
        ready: {
          on: {
            'export.start': {
              target: 'starting',
              actions: { type: 'beginStart', params: ({ event }) => event.segmentId },
            },
            'export.download': {
              guard: ({ event }) => event.item.status === 'done',
              target: 'downloading',
              actions: { type: 'beginDownload', params: ({ event }) => event.item },
            },
            'notice.dismiss': { actions: 'dismiss' },
          },
        },
        starting: {
          tags: ['starting'],
          ...request('startExport', {
            input: ({ context }) => context.startingSegment!,
            done: {
              target: 'ready',
              actions: [
                { type: 'addStarted', params: ({ event }) => event.output },
                { type: 'finish', params: 'started' },
              ],
            },
            error: {
              target: 'ready',
              actions: {
                type: 'failWith',
                params: ({ event }) => ({ notice: 'startFailed', error: event.error }),
              },
            },
          }),
        },
        downloading: {
          tags: ['downloading'],
          ...request('downloadExport', {
            input: ({ context }) => context.downloading!,
            done: { target: 'ready', actions: { type: 'finish', params: null } },
            error: {
              target: 'ready',
              actions: {
                type: 'failWith',
                params: ({ event }) => ({ notice: 'downloadFailed', error: event.error }),
              },
            },
          }),
        },
      },
    },
  },
});
