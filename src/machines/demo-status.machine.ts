import {
  assign,
  cancel,
  type DoneActorEvent,
  type ErrorActorEvent,
  type SnapshotFrom,
  raise,
  setup,
} from 'xstate';
import type { DemoStatus } from '../schemas/demo.js';
import { requestIn } from './kit/request.js';
import { placeholder } from './support/placeholder.js';

// The pause is a delayed raise cancelled on exit: what `after` does, in the form createTestModel accepts
// (docs/client.md).

/** Everything the demo-status machine handles: the status call's answer or failure, and the pause's end. */
export type DemoStatusEvent =
  | DoneActorEvent<DemoStatus, 'fetchDemoStatus'>
  | ErrorActorEvent<unknown, 'fetchDemoStatus'>
  | { type: 'poll.due' };

/** How far the demo's history has loaded: null until an answer said it is loading. */
export interface DemoStatusContext {
  percent: number | null;
}

/** Milliseconds between two status calls while the history loads (the load takes about a minute). */
export const DEMO_STATUS_POLL_MS = 3_000;

// The banner's types, actors, actions, guards and delays.
const demoStatusSetup = setup({
  types: {
    context: {} as DemoStatusContext,
    events: {} as DemoStatusEvent,
  },
  actors: {
    /** `GET /api/demo/status/`. */
    fetchDemoStatus: placeholder<DemoStatus, void>(),
  },
  actions: {
    keepPercent: assign((_, status: DemoStatus) => ({ percent: status.percent })),
  },
  guards: {
    stillLoading: (_, status: DemoStatus) => status.loading,
  },
  delays: {
    pollDelay: DEMO_STATUS_POLL_MS,
  },
});
const request = requestIn(demoStatusSetup);

/**
 * The "demo data is still loading" banner. Asks `GET /api/demo/status/` (`asking`); while the demo's POS
 * history loads it keeps the progress and asks again after a pause (`pausing`); once loaded, on an
 * installation without a demo, or when a call fails it stops (`done`: the banner is only a courtesy, and the
 * pages themselves report an unreachable server). The banner shows while the machine runs and knows a
 * percentage, so it stays up between two answers.
 */
export const demoStatusMachine = demoStatusSetup.createMachine({
  id: 'demoStatus',
  context: { percent: null },
  initial: 'asking',
  states: {
    asking: {
      ...request('fetchDemoStatus', {
        done: [
          {
            guard: { type: 'stillLoading', params: ({ event }) => event.output },
            target: 'pausing',
            actions: { type: 'keepPercent', params: ({ event }) => event.output },
          },
          { target: 'done' },
        ],
        error: 'done',
      }),
    },
    pausing: {
      entry: raise({ type: 'poll.due' }, { delay: 'pollDelay', id: 'pollPause' }),
      exit: cancel('pollPause'),
      on: { 'poll.due': 'asking' },
    },
    done: { type: 'final' },
  },
});

/** Whether the banner shows: the machine still runs and an answer said the history is loading. */
export function demoBannerShown(snapshot: SnapshotFrom<typeof demoStatusMachine>): boolean {
  return snapshot.status === 'active' && snapshot.context.percent !== null;
}
