import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import type { Guest } from '../schemas/guests.js';
import type { RfmDashboard, RfmGuestsPage } from '../schemas/rfm.js';
import type { RfmCell } from '../schemas/segment-catalogue.js';
import type { LocationFilter } from './file-paging.machine.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** A page of a cell's guests to ask for: the cell, the picked locations and the keyset cursor. */
export interface RfmGuestsRequest {
  cell: RfmCell;
  filter: LocationFilter;
  after: number | null;
}

/** A cell to save as a segment: its name, the cell and the picked locations (the segment's own). */
export interface RfmSegmentRequest {
  name: string;
  cell: RfmCell;
  filter: LocationFilter;
}

/** What the dashboard's view sends. */
export type RfmDashboardCommand =
  | { type: 'filter.change'; filter: LocationFilter }
  | { type: 'dashboard.retry' }
  /** `name`: the cell's label in the user's language, the segment's name to start from. */
  | { type: 'cell.open'; cell: RfmCell; name: string }
  | { type: 'cell.close' }
  | { type: 'guests.more' }
  | { type: 'guests.retry' }
  | { type: 'guest.open'; guest: Guest }
  | { type: 'segment.nameChange'; value: string }
  | { type: 'segment.save' };

/** Everything the dashboard handles: the view's commands and the calls' results. */
export type RfmDashboardEvent =
  | RfmDashboardCommand
  | DoneActorEvent<RfmDashboard, 'loadDashboard'>
  | ErrorActorEvent<unknown, 'loadDashboard'>
  | DoneActorEvent<RfmGuestsPage, 'loadGuests'>
  | ErrorActorEvent<unknown, 'loadGuests'>
  | DoneActorEvent<{ id: number }, 'saveSegment'>
  | ErrorActorEvent<unknown, 'saveSegment'>;

/** What the dashboard announces: a guest to open, a segment saved (the screen navigates to either). */
export type RfmDashboardEmitted =
  { type: 'guest.opened'; guest: Guest } | { type: 'segment.saved'; id: number };

/** What the dashboard knows. */
export interface RfmDashboardContext {
  filter: LocationFilter;
  dashboard: RfmDashboard | null;
  problem: ApiProblem | null;
  /** The open cell, its guests so far, its size and the cursor of the next page (null: no more). */
  cell: RfmCell | null;
  guests: Guest[];
  guestsCount: number;
  nextAfter: number | null;
  guestsProblem: ApiProblem | null;
  /** The name of the segment the open cell would be saved as, and the save's problem. */
  segmentName: string;
  saveProblem: ApiProblem | null;
}

/** The longest segment name the server takes. */
const NAME_LIMIT = 200;

/** The id of the last guest of a page's `next` link (`after=`), or null on the last page. */
export function afterOf(next: string | null): number | null {
  if (!next) return null;
  const after = new URL(next, 'http://local').searchParams.get('after');
  return after === null ? null : Number(after);
}

// The dashboard's types, actors and actions.
const rfmDashboardSetup = setup({
  types: {
    context: {} as RfmDashboardContext,
    events: {} as RfmDashboardEvent,
    emitted: {} as RfmDashboardEmitted,
    input: {} as { filter: LocationFilter },
  },
  actors: {
    /** `GET /api/benchmark/rfm-dashboard/` over the picked locations. */
    loadDashboard: placeholder<RfmDashboard, LocationFilter>(),
    /** `GET /api/benchmark/rfm-dashboard/guests/`: a page of a cell's guests. */
    loadGuests: placeholder<RfmGuestsPage, RfmGuestsRequest>(),
    /** `POST /api/campaigns/segments/` with the cell's rule and the picked locations. */
    saveSegment: placeholder<{ id: number }, RfmSegmentRequest>(),
  },
  guards: {
    hasMore: ({ context }) => context.nextAfter !== null,
    nameIsValid: ({ context }) => {
      const name = context.segmentName.trim();
      return name.length > 0 && name.length <= NAME_LIMIT;
    },
  },
  actions: {
    changeFilter: assign((_, filter: LocationFilter) => ({
      filter,
      cell: null,
      guests: [],
      nextAfter: null,
    })),
    keepDashboard: assign((_, dashboard: RfmDashboard) => ({ dashboard, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    openCell: assign((_, open: { cell: RfmCell; name: string }) => ({
      cell: open.cell,
      guests: [],
      guestsCount: 0,
      nextAfter: null,
      guestsProblem: null,
      segmentName: open.name,
      saveProblem: null,
    })),
    closeCell: assign({ cell: null, guests: [], guestsCount: 0, nextAfter: null, guestsProblem: null }),
    addGuests: assign(({ context }, page: RfmGuestsPage) => ({
      guests: [...context.guests, ...page.results],
      guestsCount: page.count,
      nextAfter: afterOf(page.next),
      guestsProblem: null,
    })),
    keepGuestsProblem: assign((_, failure: { error: unknown }) => ({
      guestsProblem: problemOf(failure.error),
    })),
    changeName: assign((_, value: string) => ({ segmentName: value, saveProblem: null })),
    nameRequired: assign({
      saveProblem: {
        status: null,
        code: 'name_required',
        message: 'name is required',
        fields: { name: { code: 'required', message: 'name is required' } },
      } satisfies ApiProblem,
    }),
    startSave: assign({ saveProblem: null }),
    keepSaveProblem: assign((_, failure: { error: unknown }) => ({ saveProblem: problemOf(failure.error) })),
    announceGuest: emit((_, guest: Guest) => ({ type: 'guest.opened' as const, guest })),
    announceSaved: emit((_, saved: { id: number }) => ({ type: 'segment.saved' as const, id: saved.id })),
  },
});
const request = requestIn(rfmDashboardSetup);

// The name is edited while the guests load or show, not while the save is on its way (it would not be sent).
const nameChange = {
  actions: {
    type: 'changeName',
    params: ({ event }: { event: Extract<RfmDashboardEvent, { type: 'segment.nameChange' }> }) => event.value,
  },
} as const;

/**
 * /rfm-dashboard (docs/segments.md, "RFM"): the RFM grid and named cells of the picked locations
 * (`filter.change` loads them again and closes the open cell); a cell opens its guests a page at a time
 * (`guests.more` follows the keyset), a guest opens its profile (`guest.opened`), and the cell saves as a segment
 * with the picked locations as its own (`segment.saved` with the new id).
 */
export const rfmDashboardMachine = rfmDashboardSetup.createMachine({
  id: 'rfmDashboard',
  context: ({ input }) => ({
    filter: input.filter,
    dashboard: null,
    problem: null,
    cell: null,
    guests: [],
    guestsCount: 0,
    nextAfter: null,
    guestsProblem: null,
    segmentName: '',
    saveProblem: null,
  }),
  initial: 'loading',
  on: {
    'filter.change': {
      target: '.loading',
      actions: { type: 'changeFilter', params: ({ event }) => event.filter },
    },
  },
  states: {
    loading: {
      tags: ['busy'],
      ...request('loadDashboard', {
        input: ({ context }) => context.filter,
        done: { target: 'ready', actions: { type: 'keepDashboard', params: ({ event }) => event.output } },
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    failed: {
      on: { 'dashboard.retry': 'loading' },
    },
    ready: {
      initial: 'overview',
      states: {
        overview: {
          on: {
            'cell.open': { target: 'cell', actions: { type: 'openCell', params: ({ event }) => event } },
          },
        },
        cell: {
          initial: 'loadingGuests',
          on: {
            'cell.open': {
              target: 'cell',
              reenter: true,
              actions: { type: 'openCell', params: ({ event }) => event },
            },
            'cell.close': { target: 'overview', actions: 'closeCell' },
            'guest.open': { actions: { type: 'announceGuest', params: ({ event }) => event.guest } },
          },
          states: {
            loadingGuests: {
              tags: ['busy'],
              ...request('loadGuests', {
                on: { 'segment.nameChange': nameChange },
                input: ({ context }) => ({
                  cell: context.cell!,
                  filter: context.filter,
                  after: context.nextAfter,
                }),
                done: {
                  target: 'showing',
                  actions: { type: 'addGuests', params: ({ event }) => event.output },
                },
                error: {
                  target: 'guestsFailed',
                  actions: { type: 'keepGuestsProblem', params: ({ event }) => ({ error: event.error }) },
                },
              }),
            },
            showing: {
              on: {
                'segment.nameChange': nameChange,
                'guests.more': { guard: 'hasMore', target: 'loadingGuests' },
                'segment.save': [
                  { guard: 'nameIsValid', target: 'saving', actions: 'startSave' },
                  { actions: 'nameRequired' },
                ],
              },
            },
            guestsFailed: {
              on: { 'guests.retry': 'loadingGuests', 'segment.nameChange': nameChange },
            },
            saving: {
              tags: ['busy'],
              ...request('saveSegment', {
                input: ({ context }) => ({
                  name: context.segmentName.trim(),
                  cell: context.cell!,
                  filter: context.filter,
                }),
                done: {
                  target: 'showing',
                  actions: { type: 'announceSaved', params: ({ event }) => event.output },
                },
                error: {
                  target: 'showing',
                  actions: { type: 'keepSaveProblem', params: ({ event }) => ({ error: event.error }) },
                },
              }),
            },
          },
        },
      },
    },
  },
});
