import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import type { DayPart } from '../schemas/segment-catalogue.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/**
 * "Guests who ordered X" (docs/dashboards.md, "Basket analytics"): the picked item's distinct guests in the
 * dashboard's range, locations and day part, counted one item at a time (`GET /analytics/basket/item-guests/`),
 * and that audience saved as a segment: the rules `location` in the dashboard's locations (when it has a picker)
 * and `ordered_item` any X over the window from the range's first day to today, so the segment holds the guests
 * counted.
 */
export interface BasketSegmentRequest {
  /** The segment's name (the item's name in the user's language). */
  name: string;
  itemId: number;
  /** The dashboard's locations; null: every location. */
  locationIds: number[] | null;
  windowDays: number;
}

/** What the dashboard answered for: its range, resolved locations (null: every location) and day part. */
export interface BasketItemQuery {
  from: string;
  to: string;
  locationIds: number[] | null;
  dayPart: DayPart | null;
}

/** What a count asks: the dashboard's answer's query and the item. */
export interface BasketItemCountRequest extends BasketItemQuery {
  itemId: number;
}

/**
 * A count's answer: the guests, and when they were counted (ISO instant; kept for the company's day), or null when
 * counted at the ask (a range reaching today).
 */
export interface CountedGuests {
  guests: number;
  countedAt: string | null;
}

/** What the screen and view send. */
export type BasketSegmentCommand =
  | { type: 'figures.loaded'; query: BasketItemQuery; itemIds: number[] }
  | { type: 'item.pick'; itemId: number }
  | { type: 'count.retry' }
  | { type: 'segment.make'; request: BasketSegmentRequest }
  | { type: 'problem.dismiss' };

/** Everything the machine handles. */
export type BasketSegmentEvent =
  | BasketSegmentCommand
  | DoneActorEvent<CountedGuests, 'countGuests'>
  | ErrorActorEvent<unknown, 'countGuests'>
  | DoneActorEvent<{ id: number }, 'saveSegment'>
  | ErrorActorEvent<unknown, 'saveSegment'>;

/** What it announces: the new segment (the screen opens it). */
export type BasketSegmentEmitted = { type: 'segment.saved'; id: number };

/**
 * What it knows: the dashboard's answer's query and items, the picked item, its guests and when they were
 * counted (null until counted), why the count failed, the item being saved and why the last save failed.
 */
export interface BasketSegmentContext {
  query: BasketItemQuery | null;
  itemIds: number[];
  itemId: number | null;
  guests: number | null;
  countedAt: string | null;
  countProblem: ApiProblem | null;
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
    /** `GET /api/analytics/basket/item-guests/` for the item. */
    countGuests: placeholder<CountedGuests, BasketItemCountRequest>(),
    /** `POST /api/campaigns/segments/` with the two rules. */
    saveSegment: placeholder<{ id: number }, BasketSegmentRequest>(),
  },
  actions: {
    // A new answer keeps the picked item while it is still listed, else picks its first item.
    keepFigures: assign(({ context }, loaded: { query: BasketItemQuery; itemIds: number[] }) => ({
      query: loaded.query,
      itemIds: loaded.itemIds,
      itemId:
        context.itemId !== null && loaded.itemIds.includes(context.itemId)
          ? context.itemId
          : (loaded.itemIds[0] ?? null),
      guests: null,
      countedAt: null,
      countProblem: null,
    })),
    keepItem: assign((_, itemId: number) => ({ itemId, guests: null, countedAt: null, countProblem: null })),
    keepItemIds: assign((_, itemIds: number[]) => ({ itemIds })),
    keepGuests: assign((_, counted: CountedGuests) => ({
      guests: counted.guests,
      countedAt: counted.countedAt,
    })),
    keepCountProblem: assign((_, failure: { error: unknown }) => ({
      countProblem: problemOf(failure.error),
    })),
    keepRequest: assign((_, request: BasketSegmentRequest) => ({ request, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    forget: assign({ request: null }),
    dismiss: assign({ problem: null }),
    announceSaved: emit((_, saved: { id: number }) => ({ type: 'segment.saved' as const, id: saved.id })),
  },
  guards: {
    // Something to count: items, at some location (an empty group's answer has none, and no location_id would
    // mean every location).
    hasItems: (_, loaded: { query: BasketItemQuery; itemIds: number[] }) =>
      loaded.itemIds.length > 0 && loaded.query.locationIds?.length !== 0,
    // A new answer that changes nothing counted (another minimum support, focus item or comparison): the same
    // range, locations and day part, and the picked item still listed. The count (seconds at a million guests for
    // locations no rollup covers) is not asked again.
    sameCount: ({ context }, loaded: { query: BasketItemQuery; itemIds: number[] }) =>
      context.query !== null &&
      JSON.stringify(context.query) === JSON.stringify(loaded.query) &&
      context.itemId !== null &&
      loaded.itemIds.includes(context.itemId),
    // Only an item of the answer can be counted.
    isListed: ({ context }, itemId: number) => context.itemIds.includes(itemId),
  },
});
const request = requestIn(basketSegmentSetup);

// While counting or counted: an answer that changes nothing counted keeps the count (else the `count` part's
// own transitions count again).
const keepCount = {
  guard: {
    type: 'sameCount',
    params: ({ event }: { event: { query: BasketItemQuery; itemIds: number[] } }) => event,
  },
  actions: { type: 'keepItemIds', params: ({ event }: { event: { itemIds: number[] } }) => event.itemIds },
} as const;

/**
 * /basket-analytics' "guests who ordered X" card, in two parallel parts. `count`: a dashboard answer
 * (`figures.loaded`) that changes the range, locations, day part or the picked item, or a pick (`item.pick`),
 * counts the picked item's guests again, a newer ask dropping the one under way; a failure waits for
 * `count.retry`. `save`: `segment.make` saves one segment (a second click while
 * saving is ignored), `segment.saved` announces it, a failure stays in `problem` until dismissed or the next try.
 */
export const basketSegmentMachine = basketSegmentSetup.createMachine({
  id: 'basketSegment',
  context: {
    query: null,
    itemIds: [],
    itemId: null,
    guests: null,
    countedAt: null,
    countProblem: null,
    request: null,
    problem: null,
  },
  type: 'parallel',
  states: {
    // Its transitions target a child without re-entering `count` itself: that would leave the whole parallel
    // state and drop a save under way. Entering `counting` again still starts a new count.
    count: {
      initial: 'waiting',
      on: {
        'figures.loaded': [
          {
            guard: { type: 'hasItems', params: ({ event }) => event },
            target: '.counting',
            actions: { type: 'keepFigures', params: ({ event }) => event },
          },
          { target: '.waiting', actions: { type: 'keepFigures', params: ({ event }) => event } },
        ],
        'item.pick': {
          guard: { type: 'isListed', params: ({ event }) => event.itemId },
          target: '.counting',
          actions: { type: 'keepItem', params: ({ event }) => event.itemId },
        },
      },
      states: {
        // No answer with items yet.
        waiting: {},
        counting: {
          tags: ['counting'],
          ...request('countGuests', {
            on: { 'figures.loaded': keepCount },
            input: ({ context }) => ({ ...context.query!, itemId: context.itemId! }),
            done: {
              target: 'counted',
              actions: { type: 'keepGuests', params: ({ event }) => event.output },
            },
            error: {
              target: 'failed',
              actions: { type: 'keepCountProblem', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
        counted: { on: { 'figures.loaded': keepCount } },
        failed: {
          on: {
            'count.retry': {
              target: 'counting',
              actions: { type: 'keepItem', params: ({ context }) => context.itemId! },
            },
          },
        },
      },
    },
    save: {
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
    },
  },
});
