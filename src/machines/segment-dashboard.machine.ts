import {
  assign,
  type DoneActorEvent,
  type ErrorActorEvent,
  type EventObject,
  fromCallback,
  setup,
  spawnChild,
  stopChild,
} from 'xstate';
import type { SegmentDashboardV2 } from '../schemas/segment-dashboard.js';
import type { LocationFilter } from './file-paging.machine.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** What loading the dashboard asks: the segment and the picked locations. */
export interface DashboardRequest {
  segmentId: number;
  filter: LocationFilter;
}

/** What the export actor is given: the segment and the file to save. */
export interface SegmentExportRequest {
  segmentId: number;
  fileName: string;
}

/** What the panel's view sends. */
export type SegmentDashboardCommand =
  | { type: 'dashboard.retry' }
  | { type: 'dashboard.reload' }
  | { type: 'filter.change'; filter: LocationFilter }
  | { type: 'export.start' }
  | { type: 'export.cancel' }
  | { type: 'export.dismiss' };

/** What the export actor (a callback actor wired to the export service) sends back while it works. */
export type SegmentExportReport =
  | { type: 'export.progress'; rows: number }
  | { type: 'export.saved'; rows: number }
  | { type: 'export.failed'; error: unknown };

/** Everything the panel handles. */
export type SegmentDashboardEvent =
  | SegmentDashboardCommand
  | SegmentExportReport
  | DoneActorEvent<SegmentDashboardV2, 'loadDashboard'>
  | ErrorActorEvent<unknown, 'loadDashboard'>;

/** What the panel knows. */
export interface SegmentDashboardContext {
  segmentId: number;
  filter: LocationFilter;
  dashboard: SegmentDashboardV2 | null;
  problem: ApiProblem | null;
  /** Rows received so far by the running (or last) export. */
  exportRows: number;
  exportProblem: ApiProblem | null;
}

/**
 * The rows an export is expected to hold: the segment's cached size, or null while the figures are being
 * computed (the progress then shows rows received without a share).
 */
export function exportTotal(context: Pick<SegmentDashboardContext, 'dashboard'>): number | null {
  const dashboard = context.dashboard;
  if (!dashboard || dashboard.computing) return null;
  return dashboard.segmentcache.all_customers;
}

/** The share of the export received, 0–100, or null when the total is not known. */
export function exportPercent(context: SegmentDashboardContext): number | null {
  const total = exportTotal(context);
  if (total === null) return null;
  if (total === 0) return 100;
  return Math.min(100, Math.round((context.exportRows / total) * 100));
}

// The panel's types, actors, guards and actions.
const segmentDashboardSetup = setup({
  types: {
    context: {} as SegmentDashboardContext,
    events: {} as SegmentDashboardEvent,
    input: {} as { segmentId: number; filter: LocationFilter },
  },
  actors: {
    /** `GET /api/benchmark/segment-dashboardv2/{id}/` with the picked locations. */
    loadDashboard: placeholder<SegmentDashboardV2, DashboardRequest>(),
    /** Streams `GET /api/campaigns/segments/{id}/export/`, reports rows received, saves the file. */
    exportCsv: fromCallback<EventObject, SegmentExportRequest>(() => {
      throw new Error('provided by src/app');
    }),
  },
  guards: {
    hasDashboard: ({ context }) => context.dashboard !== null,
  },
  actions: {
    keepDashboard: assign((_, dashboard: SegmentDashboardV2) => ({ dashboard, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepFilter: assign((_, filter: LocationFilter) => ({ filter })),
    startExport: assign({ exportRows: 0, exportProblem: null }),
    keepRows: assign((_, rows: number) => ({ exportRows: rows })),
    keepExportProblem: assign((_, failure: { error: unknown }) => ({
      exportProblem: problemOf(failure.error),
    })),
    forgetExport: assign({ exportRows: 0, exportProblem: null }),
  },
});
const request = requestIn(segmentDashboardSetup);

/**
 * One segment's dashboard (v2): its cached figures and its members by visits, spend and location, loaded for
 * the picked locations (`filter.change` loads again; `dashboard.reload` too, e.g. while the figures are
 * computing) with a retry after a failure. Beside it, independently, the CSV export of its members: started
 * once the dashboard is known (its size is the progress's total), rows received as they stream, cancelled
 * by `export.cancel` (stopping the actor aborts the download), saved or failed, then dismissed.
 */
export const segmentDashboardMachine = segmentDashboardSetup.createMachine({
  id: 'segmentDashboard',
  type: 'parallel',
  context: ({ input }) => ({
    segmentId: input.segmentId,
    filter: input.filter,
    dashboard: null,
    problem: null,
    exportRows: 0,
    exportProblem: null,
  }),
  states: {
    figures: {
      initial: 'loading',
      // Each state loads again for a new filter (a transition on `figures` itself would re-enter the export too).
      states: {
        loading: {
          tags: ['busy'],
          ...request('loadDashboard', {
            on: {
              'filter.change': {
                target: 'loading',
                reenter: true,
                actions: { type: 'keepFilter', params: ({ event }) => event.filter },
              },
            },
            input: ({ context }) => ({ segmentId: context.segmentId, filter: context.filter }),
            done: {
              target: 'ready',
              actions: { type: 'keepDashboard', params: ({ event }) => event.output },
            },
            error: {
              target: 'failed',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
        ready: {
          on: {
            'dashboard.reload': { target: 'loading' },
            'filter.change': {
              target: 'loading',
              actions: { type: 'keepFilter', params: ({ event }) => event.filter },
            },
          },
        },
        failed: {
          on: {
            'dashboard.retry': { target: 'loading' },
            'filter.change': {
              target: 'loading',
              actions: { type: 'keepFilter', params: ({ event }) => event.filter },
            },
          },
        },
      },
    },
    export: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'export.start': { guard: 'hasDashboard', target: 'exporting' } },
        },
        exporting: {
          tags: ['exporting'],
          // Not a `request`: the export reports rows as they arrive, then saved or failed, as its own events.
          entry: [
            'startExport',
            spawnChild('exportCsv', {
              id: 'exportCsv',
              input: ({ context }) => ({
                segmentId: context.segmentId,
                fileName: `segment-${context.segmentId}.csv`,
              }),
            }),
          ],
          exit: stopChild('exportCsv'),
          on: {
            'export.progress': { actions: { type: 'keepRows', params: ({ event }) => event.rows } },
            'export.saved': {
              target: 'saved',
              actions: { type: 'keepRows', params: ({ event }) => event.rows },
            },
            'export.failed': {
              target: 'failed',
              actions: { type: 'keepExportProblem', params: ({ event }) => ({ error: event.error }) },
            },
            // Stopping the actor aborts the download: nothing is saved.
            'export.cancel': { target: 'idle', actions: 'forgetExport' },
          },
        },
        saved: {
          on: {
            'export.start': { target: 'exporting' },
            'export.dismiss': { target: 'idle', actions: 'forgetExport' },
          },
        },
        failed: {
          on: {
            'export.start': { target: 'exporting' },
            'export.dismiss': { target: 'idle', actions: 'forgetExport' },
          },
        },
      },
    },
  },
});
