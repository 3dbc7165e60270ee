import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import { LogParseError } from '../replay/replay.js';
import { ReplayTimeline, visibleIndices } from '../replay/steps.js';
import type { SupportEventLog } from '../schemas/support.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

// Reading and replaying a log happens in the `loadReplay` actor (src/app/wiring), never here.

/** Where a log to replay comes from: a local file, the page's own event log, or a log captured on the server. */
export type ReplaySource =
  | { kind: 'file'; name: string; file: Blob }
  | { kind: 'page' }
  | { kind: 'captured'; id: number; company: string };

/** Why a log could not be replayed: a line that could not be read, or a failed call. */
export type ReplayProblem = { kind: 'parse'; line: number; message: string } | ({ kind: 'api' } & ApiProblem);

/** What the replay screen sends. */
export type SupportReplayCommand =
  | { type: 'source.load'; source: ReplaySource }
  | { type: 'source.choose' }
  | { type: 'logs.retry' }
  | { type: 'step.first' }
  | { type: 'step.previous' }
  | { type: 'step.next' }
  | { type: 'step.last' }
  | { type: 'step.select'; index: number }
  | { type: 'filter.actor'; actor: string | null };

/** Everything the replay screen handles: the view's commands and its actors' results. */
export type SupportReplayEvent =
  | SupportReplayCommand
  | DoneActorEvent<SupportEventLog[], 'listLogs'>
  | ErrorActorEvent<unknown, 'listLogs'>
  | DoneActorEvent<ReplayTimeline, 'loadReplay'>
  | ErrorActorEvent<unknown, 'loadReplay'>;

/** What the replay screen knows. */
export interface SupportReplayContext {
  /** The captured logs on the server (newest first), once listed. */
  logs: SupportEventLog[] | null;
  listProblem: ApiProblem | null;
  /** The log being (or last) loaded. */
  source: ReplaySource | null;
  timeline: ReplayTimeline | null;
  /** The selected step's index in the timeline. */
  index: number;
  /** The actor whose steps alone are shown, or null for every actor. */
  actor: string | null;
  problem: ReplayProblem | null;
}

/** The indices of the steps shown under the current filter. */
function visible(context: SupportReplayContext): number[] {
  return context.timeline ? visibleIndices(context.timeline, context.actor) : [];
}

/** The shown step `offset` places from the selected one (clamped to the shown steps). */
function moved(context: SupportReplayContext, offset: number): number {
  const shown = visible(context);
  if (shown.length === 0) return context.index;
  const at = shown.indexOf(context.index);
  const from = at === -1 ? 0 : at;
  return shown[Math.min(shown.length - 1, Math.max(0, from + offset))]!;
}

/** A failed load as a problem: the parse error's line, or the call's problem. */
function replayProblemOf(error: unknown): ReplayProblem {
  if (error instanceof LogParseError) {
    return { kind: 'parse', line: error.line, message: error.message.replace(/^line \d+: /, '') };
  }
  return { kind: 'api', ...problemOf(error) };
}

// The replay screen's types, actors, guards and actions.
const supportReplaySetup = setup({
  types: {
    context: {} as SupportReplayContext,
    events: {} as SupportReplayEvent,
  },
  actors: {
    /** `GET /api/support/event-logs/`: the captured logs, newest first. */
    listLogs: placeholder<SupportEventLog[], void>(),
    /** Reads the source's JSON Lines and replays them (src/replay): every step with its snapshot. */
    loadReplay: placeholder<ReplayTimeline, ReplaySource>(),
  },
  guards: {
    // A replayed log of this screen holds `[object]` where the timeline was (the event log does not copy it).
    hasSteps: (_, timeline: ReplayTimeline) =>
      timeline instanceof ReplayTimeline && timeline.steps.length > 0,
    isShown: ({ context }, index: number) => visible(context).includes(index),
  },
  actions: {
    keepLogs: assign((_, logs: SupportEventLog[]) => ({ logs, listProblem: null })),
    keepListProblem: assign((_, failure: { error: unknown }) => ({ listProblem: problemOf(failure.error) })),
    keepSource: assign((_, source: ReplaySource) => ({
      source,
      timeline: null,
      index: 0,
      actor: null,
      problem: null,
    })),
    keepTimeline: assign((_, timeline: ReplayTimeline) => ({ timeline, index: 0, actor: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: replayProblemOf(failure.error) })),
    select: assign((_, index: number) => ({ index })),
    move: assign(({ context }, offset: number) => ({ index: moved(context, offset) })),
    filter: assign(({ context }, actor: string | null) => {
      const next = { ...context, actor };
      const shown = visible(next);
      return { actor, index: shown.includes(context.index) ? context.index : (shown[0] ?? context.index) };
    }),
  },
});
const request = requestIn(supportReplaySetup);

/**
 * The replay screen (`/support/replay`, platform staff): lists captured logs, loads a log (a local file, the
 * page's own log or a captured one) through `loading` to `viewing` (or `empty` for a log without entries, or
 * `failed` with the line that could not be read), then steps and scrubs through it, optionally one actor's
 * steps only.
 */
export const supportReplayMachine = supportReplaySetup.createMachine({
  id: 'supportReplay',
  context: {
    logs: null,
    listProblem: null,
    source: null,
    timeline: null,
    index: 0,
    actor: null,
    problem: null,
  },
  initial: 'choosing',
  on: {
    'source.load': {
      target: '.loading',
      actions: { type: 'keepSource', params: ({ event }) => event.source },
    },
  },
  states: {
    choosing: {
      initial: 'listing',
      states: {
        listing: {
          tags: ['busy'],
          ...request('listLogs', {
            done: {
              target: 'listed',
              actions: { type: 'keepLogs', params: ({ event }) => event.output },
            },
            error: {
              target: 'listFailed',
              actions: { type: 'keepListProblem', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
        listed: {},
        listFailed: {
          on: { 'logs.retry': 'listing' },
        },
      },
    },
    loading: {
      tags: ['busy'],
      ...request('loadReplay', {
        input: ({ context }) => context.source!,
        done: [
          {
            guard: { type: 'hasSteps', params: ({ event }) => event.output },
            target: 'viewing',
            actions: { type: 'keepTimeline', params: ({ event }) => event.output },
          },
          { target: 'empty', actions: { type: 'keepTimeline', params: ({ event }) => event.output } },
        ],
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
        on: { 'source.choose': 'choosing' },
      }),
    },
    viewing: {
      on: {
        'source.choose': 'choosing',
        'step.first': { actions: { type: 'move', params: -Infinity } },
        'step.previous': { actions: { type: 'move', params: -1 } },
        'step.next': { actions: { type: 'move', params: 1 } },
        'step.last': { actions: { type: 'move', params: Infinity } },
        'step.select': {
          guard: { type: 'isShown', params: ({ event }) => event.index },
          actions: { type: 'select', params: ({ event }) => event.index },
        },
        'filter.actor': { actions: { type: 'filter', params: ({ event }) => event.actor } },
      },
    },
    empty: {
      on: { 'source.choose': 'choosing' },
    },
    failed: {
      on: { 'source.choose': 'choosing' },
    },
  },
});
