import {
  assign,
  cancel,
  type DoneActorEvent,
  type ErrorActorEvent,
  raise,
  setup,
  spawnChild,
  stopChild,
} from 'xstate';
import {
  DATE_RANGE_PRESETS,
  rangeOfPreset,
  type DateRange,
  type DateRangePreset,
} from '../../schemas/date-range.js';
import type { LocationFilter } from '../file-paging.machine.js';
import { problemOf, type ApiProblem } from '../support/api-problem.js';
import { placeholder } from '../support/placeholder.js';

// One statechart for every dashboard (docs/dashboards.md): the header's locations, the shared date range and
// the comparison are its filters, one call loads the figures, and the view only renders what it knows.

export { DATE_RANGE_PRESETS, rangeOfPreset, type DateRange, type DateRangePreset };

/** The extra filters of a dashboard that has none. */
export type NoExtra = Record<string, never>;

/** What the figures call is asked: the locations, the range, whether to compare, the dashboard's own filters. */
export interface DashboardRequest<Extra> {
  filter: LocationFilter;
  range: DateRange;
  compare: boolean;
  extra: Extra;
}

/** What a dashboard's screen and view send. */
export type DashboardCommand<Extra> =
  | { type: 'filter.change'; filter: LocationFilter }
  | { type: 'range.change'; range: DateRange }
  | { type: 'compare.change'; compare: boolean }
  | { type: 'extra.change'; extra: Partial<Extra> }
  | { type: 'dashboard.retry' };

/** The pause's end while some figures are still being counted on the server: ask again. */
export interface CountingDue {
  type: 'counting.due';
}

/** How long a dashboard waits before asking again for figures still being counted. */
export const COUNTING_POLL_MS = 1000;

/** Everything a dashboard machine handles: the commands and the figures call's outcome. */
export type DashboardEvent<Figures, Extra> =
  | DashboardCommand<Extra>
  | CountingDue
  | DoneActorEvent<Figures, 'loadFigures'>
  | ErrorActorEvent<unknown, 'loadFigures'>;

/** What a dashboard machine knows. */
export interface DashboardContext<Figures, Extra> {
  filter: LocationFilter;
  range: DateRange;
  compare: boolean;
  extra: Extra;
  /** The last answer: kept on screen while the next loads; null until the first. */
  figures: Figures | null;
  /** Why the last load failed; null after an answer. */
  problem: ApiProblem | null;
}

/** What a dashboard machine starts from: the header's locations and the session's range and comparison. */
export interface DashboardInput {
  filter: LocationFilter;
  range: DateRange;
  compare?: boolean;
}

/** What makes one dashboard's machine. */
export interface DashboardDefinition<Figures, Extra> {
  /** The machine's id: how the event log, replay and the visualiser name it. */
  id: string;
  /** True when an answer has nothing to show (no checks in the range): the `empty` state. */
  isEmpty: (figures: Figures) => boolean;
  /** The dashboard's own filters as they start (a day part, a minimum support). */
  extra: Extra;
  /**
   * True when an answer says some of its figures are still being counted on the server (the recommendations'
   * audiences): the `counting` state asks again after `COUNTING_POLL_MS`. None: never.
   */
  isCounting?: (figures: Figures) => boolean;
}

/**
 * A dashboard's machine. `loading` (tag `busy`; the last answer's figures stay in context, so the view keeps them
 * on screen) asks `loadFigures` (a placeholder the wiring provides) for `{ filter, range, compare, extra }`, and
 * goes to `ready`, `empty` (`isEmpty` says the answer has nothing), `counting` (`isCounting`: shown as ready, it
 * asks again quietly after `COUNTING_POLL_MS` in `recounting`, until an answer is whole) or `failed`
 * (`dashboard.retry` loads again).
 * Any filter change, from any state, loads again: the older request is stopped, so only the newest answer lands.
 */
export function dashboardMachine<Figures, Extra = NoExtra>(definition: DashboardDefinition<Figures, Extra>) {
  const { id, isEmpty, extra, isCounting = () => false } = definition;
  const answered = (event: unknown) => (event as DoneActorEvent<Figures, 'loadFigures'>).output;
  // Where an answer leads, from `loading` and from `recounting` alike.
  // Still counting comes first: an answer whose figures are not all counted yet is not "nothing to show".
  const onAnswer = [
    { guard: 'stillCounting', target: 'counting', actions: 'keepFigures' },
    { guard: 'nothingToShow', target: 'empty', actions: 'keepFigures' },
    { target: 'ready', actions: 'keepFigures' },
  ] as const;
  // A state that asks for the figures (`loading`, `recounting`): the call while in it, and where its answer leads.
  const askForFigures = {
    entry: 'askForFigures',
    exit: 'stopAsking',
    on: {
      'xstate.done.actor.loadFigures': [...onAnswer],
      'xstate.error.actor.loadFigures': { target: 'failed', actions: 'keepProblem' },
    },
  } as const;

  return setup({
    types: {
      context: {} as DashboardContext<Figures, Extra>,
      events: {} as DashboardEvent<Figures, Extra>,
      input: {} as DashboardInput,
    },
    actors: {
      /** The dashboard's call under `/api/analytics/…` (docs/dashboards.md). */
      loadFigures: placeholder<Figures, DashboardRequest<Extra>>(),
    },
    guards: {
      nothingToShow: ({ event }) => isEmpty(answered(event)),
      stillCounting: ({ event }) => isCounting(answered(event)),
    },
    delays: { countingPause: COUNTING_POLL_MS },
    actions: {
      // Spawned rather than invoked (see kit/request.ts: @xstate/graph's createTestModel refuses `invoke`); its
      // events are those of an invoked actor, and leaving the state stops it.
      askForFigures: spawnChild('loadFigures', {
        id: 'loadFigures',
        input: ({ context }) => ({
          filter: context.filter,
          range: context.range,
          compare: context.compare,
          extra: context.extra,
        }),
      }),
      stopAsking: stopChild('loadFigures'),
      keepFigures: assign(({ event }) => ({
        figures: (event as DoneActorEvent<Figures, 'loadFigures'>).output,
        problem: null,
      })),
      keepProblem: assign(({ event }) => ({
        problem: problemOf((event as ErrorActorEvent<unknown, 'loadFigures'>).error),
      })),
    },
  }).createMachine({
    id,
    context: ({ input }) => ({
      filter: input.filter,
      range: input.range,
      compare: input.compare ?? true,
      extra,
      figures: null,
      problem: null,
    }),
    initial: 'loading',
    on: {
      'filter.change': {
        target: '.loading',
        reenter: true,
        actions: assign(({ event }) => ({ filter: event.filter })),
      },
      'range.change': {
        target: '.loading',
        reenter: true,
        actions: assign(({ event }) => ({ range: event.range })),
      },
      'compare.change': {
        target: '.loading',
        reenter: true,
        actions: assign(({ event }) => ({ compare: event.compare })),
      },
      'extra.change': {
        target: '.loading',
        reenter: true,
        actions: assign(({ context, event }) => ({ extra: { ...context.extra, ...event.extra } })),
      },
    },
    states: {
      loading: {
        tags: ['busy'],
        ...askForFigures,
      },
      ready: {},
      // Shown as ready; some figures are still being counted, so it asks again after a pause (a delayed raise
      // cancelled on exit: what `after` does, in the form createTestModel accepts).
      counting: {
        tags: ['counting'],
        entry: raise({ type: 'counting.due' }, { delay: 'countingPause', id: 'countingPause' }),
        exit: cancel('countingPause'),
        on: { 'counting.due': 'recounting' },
      },
      // Asks again quietly (not busy: the figures on screen stay as they are until the answer lands).
      recounting: {
        tags: ['counting'],
        ...askForFigures,
      },
      empty: {},
      failed: {
        on: { 'dashboard.retry': 'loading' },
      },
    },
  });
}

/** A dashboard machine of some figures and filters. */
export type DashboardMachine<Figures, Extra = NoExtra> = ReturnType<typeof dashboardMachine<Figures, Extra>>;
