import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import type { Segment } from '../schemas/segment-records.js';
import { requestIn } from './kit/request.js';
import { placeholder } from './support/placeholder.js';

/** What the segment list's export button sends. */
export type SegmentExportCommand = { type: 'export.start'; segment: Segment } | { type: 'notice.dismiss' };

/** Everything the export handles. */
export type SegmentExportEvent =
  SegmentExportCommand | DoneActorEvent<unknown, 'exportSegment'> | ErrorActorEvent<unknown, 'exportSegment'>;

/** What the export knows: the segment being (or last) exported and how it went. */
export interface SegmentExportContext {
  segment: Segment | null;
  notice: 'exported' | 'exportFailed' | null;
}

const exportSetup = setup({
  types: { context: {} as SegmentExportContext, events: {} as SegmentExportEvent },
  actors: {
    /** `GET /api/campaigns/segments/{id}/export/`, saved as a CSV file. */
    exportSegment: placeholder<unknown, Segment>(),
  },
  actions: {
    start: assign((_, segment: Segment) => ({ segment, notice: null })),
    finish: assign((_, notice: 'exported' | 'exportFailed') => ({ notice })),
    dismiss: assign({ notice: null }),
  },
});
const request = requestIn(exportSetup);

/**
 * One segment's members as a CSV download: `idle` → `exporting` (`exportSegment`; one export at a time) →
 * `idle` with the notice `exported` or `exportFailed`.
 */
export const segmentExportMachine = exportSetup.createMachine({
  id: 'segmentExport',
  context: { segment: null, notice: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'export.start': {
          target: 'exporting',
          actions: { type: 'start', params: ({ event }) => event.segment },
        },
        'notice.dismiss': { actions: 'dismiss' },
      },
    },
    exporting: {
      tags: ['busy'],
      ...request('exportSegment', {
        input: ({ context }) => context.segment as Segment,
        done: { target: 'idle', actions: { type: 'finish', params: 'exported' } },
        error: { target: 'idle', actions: { type: 'finish', params: 'exportFailed' } },
      }),
    },
  },
});
