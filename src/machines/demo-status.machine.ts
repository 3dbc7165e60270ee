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
import type { DemoStatus } from '../schemas/demo.js';
import { placeholder } from './support/placeholder.js';

// The status call starts with spawnChild on entry and stops on exit, and the pause is a delayed raise
// cancelled on exit: what `invoke` and `after` do, in the form createTestModel accepts (docs/client.md).

/** Everything the demo-status machine handles: the status call's answer or failure, and the pause's end. */
export type DemoStatusEvent =
  | DoneActorEvent<DemoStatus, 'fetchDemoStatus'>
  | ErrorActorEvent<unknown, 'fetchDemoStatus'>
  | { type: 'poll.due' };

/** How far the demo's history has loaded, while it loads. */
export interface DemoStatusContext {
  percent: number;
}

/** Milliseconds between two status calls while the history loads (the load takes about a minute). */
export const DEMO_STATUS_POLL_MS = 3_000;

/**
 * The "demo data is still loading" banner. Asks `GET /api/demo/status/` (`checking`); while the demo's POS
 * history loads it shows the progress (`loading`, tagged `banner`) and asks again after each pause
 * (`loading.pausing` → `loading.asking`, the banner staying up); once loaded,
 * or on an installation without a demo, it stops (`done`). A failed call stops it too: the banner is only a
 * courtesy, and the pages themselves report an unreachable server.
 */
export const demoStatusMachine = setup({
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
}).createMachine({
  id: 'demoStatus',
  context: { percent: 0 },
  initial: 'checking',
  states: {
    checking: {
      entry: spawnChild('fetchDemoStatus', { id: 'fetchDemoStatus' }),
      exit: stopChild('fetchDemoStatus'),
      on: {
        'xstate.done.actor.fetchDemoStatus': [
          {
            guard: { type: 'stillLoading', params: ({ event }) => event.output },
            target: 'loading',
            actions: { type: 'keepPercent', params: ({ event }) => event.output },
          },
          { target: 'done' },
        ],
        'xstate.error.actor.fetchDemoStatus': 'done',
      },
    },
    // The banner stays up while the next answer is awaited, so it does not flicker at every poll.
    loading: {
      tags: ['banner'],
      initial: 'pausing',
      states: {
        pausing: {
          entry: raise({ type: 'poll.due' }, { delay: 'pollDelay', id: 'pollPause' }),
          exit: cancel('pollPause'),
          on: { 'poll.due': 'asking' },
        },
        asking: {
          entry: spawnChild('fetchDemoStatus', { id: 'fetchDemoStatus' }),
          exit: stopChild('fetchDemoStatus'),
          on: {
            'xstate.done.actor.fetchDemoStatus': [
              {
                guard: { type: 'stillLoading', params: ({ event }) => event.output },
                target: 'pausing',
                actions: { type: 'keepPercent', params: ({ event }) => event.output },
              },
              { target: '#demoStatus.done' },
            ],
            'xstate.error.actor.fetchDemoStatus': '#demoStatus.done',
          },
        },
      },
    },
    done: { type: 'final' },
  },
});
