import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  demoBannerShown,
  demoStatusMachine,
  type DemoStatusEvent,
} from '../../src/machines/demo-status.machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const SAMPLES: DemoStatusEvent[] = [
  {
    type: 'xstate.done.actor.fetchDemoStatus',
    actorId: 'fetchDemoStatus',
    output: { loading: true, percent: 42 },
  },
  {
    type: 'xstate.done.actor.fetchDemoStatus',
    actorId: 'fetchDemoStatus',
    output: { loading: false, percent: 100 },
  },
  { type: 'xstate.error.actor.fetchDemoStatus', actorId: 'fetchDemoStatus', error: new Error('offline') },
  { type: 'poll.due' },
];

/** The machine with a status call that records each ask and never settles (the path sends its answer). */
const start = (recording: Recording) =>
  demoStatusMachine.provide({ actors: { fetchDemoStatus: pendingActor('fetchDemoStatus', recording) } });

const checks: StateChecks = {
  asking: (snapshot, recording) => {
    expect(recording.invoked.at(-1)?.src).toBe('fetchDemoStatus');
    // Before the first answer nothing shows; after one that said "loading" the banner stays up.
    expect(demoBannerShown(snapshot)).toBe(snapshot.context.percent !== null);
  },
  pausing: (snapshot) => {
    expect(demoBannerShown(snapshot)).toBe(true);
    expect(snapshot.context.percent).toBe(42);
  },
  done: (snapshot) => {
    expect(demoBannerShown(snapshot)).toBe(false);
    expect(snapshot.status).toBe('done');
  },
};

const model = createTestModel(demoStatusMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(demoStatusMachine, model);

describe('demo status machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['asking', 'done', 'pausing']);
  });

  it('asks the server once on start, and again only after each pause while loading', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const asks = path.steps.filter((step) => step.state.matches('asking')).length;
      expect(recording.invoked).toHaveLength(asks);
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`takes each of the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
