import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/**
 * "Guests who ordered X" as a segment (docs/dashboards-basket.md): the rules `location` in the dashboard's
 * locations (when it has a picker) and `ordered_item` any X over the window from the range's first day to today,
 * so the segment holds the guests the dashboard counted.
 */
export interface BasketSegmentRequest {
  /** The segment's name (the item's name in the user's language). */
  name: string;
  itemId: number;
  /** The dashboard's locations; null: every location. */
  locationIds: number[] | null;
  windowDays: number;
}

/** What the view sends. */
export type BasketSegmentCommand =
  { type: 'segment.make'; request: BasketSegmentRequest } | { type: 'problem.dismiss' };

/** Everything the machine handles. */
export type BasketSegmentEvent =
  | BasketSegmentCommand
  | DoneActorEvent<{ id: number }, 'saveSegment'>
  | ErrorActorEvent<unknown, 'saveSegment'>;

/** What it announces: the new segment (the screen opens it). */
export type BasketSegmentEmitted = { type: 'segment.saved'; id: number };

/** What it knows: the item being saved and why the last save failed. */
export interface BasketSegmentContext {
  request: BasketSegmentRequest | null;
  problem: ApiProblem | null;
}

const basketSegmentSetup = setup({
  types: {
    context: {} as BasketSegmentContext,
    events: {} as BasketSegmentEvent,
    emitted: {} as BasketSegmentEmitted,
  },
  actors: {
    /** `POST /api/campaigns/segments/` with the two rules. */
    saveSegment: placeholder<{ id: number }, BasketSegmentRequest>(),
  },
  actions: {
    keepRequest: assign((_, request: BasketSegmentRequest) => ({ request, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    forget: assign({ request: null }),
    dismiss: assign({ problem: null }),
    announceSaved: emit((_, saved: { id: number }) => ({ type: 'segment.saved' as const, id: saved.id })),
  },
});
const request = requestIn(basketSegmentSetup);

/**
 * /basket-analytics' "make a segment" action: `segment.make` saves one (one at a time: a second click while
 * saving is ignored), `segment.saved` announces it, a failure stays in `problem` until dismissed or the next try.
 */
export const basketSegmentMachine = basketSegmentSetup.createMachine({
  id: 'basketSegment',
  context: { request: null, problem: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'segment.make': {
          target: 'saving',
          actions: { type: 'keepRequest', params: ({ event }) => event.request },
        },
        'problem.dismiss': { actions: 'dismiss' },
      },
    },
    saving: {
      tags: ['busy'],
      ...request('saveSegment', {
        input: ({ context }) => context.request!,
        done: {
          target: 'idle',
          actions: [{ type: 'announceSaved', params: ({ event }) => event.output }, 'forget'],
        },
        error: {
          target: 'idle',
          actions: [{ type: 'keepProblem', params: ({ event }) => ({ error: event.error }) }, 'forget'],
        },
      }),
    },
  },
});
