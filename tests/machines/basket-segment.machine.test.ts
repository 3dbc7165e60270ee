import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { basketSegmentMachine } from '../../src/machines/basket-segment.machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const BURGER = { name: 'Ordered Burger', itemId: 4, locationIds: [3], windowDays: 30 };
const PIE = { name: 'Ordered Pie', itemId: 9, locationIds: null, windowDays: 7 };
const FAILURE = { status: 400, code: 'invalid', message: 'name is required', fields: {} };
const SAMPLES: EventFromLogic<typeof basketSegmentMachine>[] = [
  { type: 'segment.make', request: BURGER },
  { type: 'segment.make', request: PIE },
  { type: 'problem.dismiss' },
  { type: 'xstate.done.actor.saveSegment', actorId: 'saveSegment', output: { id: 12 } },
  { type: 'xstate.error.actor.saveSegment', actorId: 'saveSegment', error: FAILURE },
];

const start = (recording: Recording) =>
  basketSegmentMachine.provide({ actors: { saveSegment: pendingActor('saveSegment', recording) } });

const checks: StateChecks = {
  idle: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.request).toBeNull();
  },
  saving: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The item asked first is the one being saved, with its rules' figures as the view gave them.
    expect(recording.invoked.at(-1)).toEqual({ src: 'saveSegment', input: snapshot.context.request });
    expect(snapshot.context.problem).toBeNull();
  },
};

const model = createTestModel(basketSegmentMachine, {
  events: SAMPLES,
  serializeState: (snapshot) =>
    JSON.stringify({
      value: snapshot.value,
      request: snapshot.context.request,
      problem: !!snapshot.context.problem,
    }),
});
const { transitions: paths } = everyTransition(basketSegmentMachine, model);

describe('basket segment machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['idle', 'saving']);
  });

  it('announces the new segment once saved, and keeps why a save failed until dismissed', () => {
    for (const path of paths) {
      const before = path.steps.at(-2)?.state;
      const last = path.steps.at(-1)!;
      if (!before?.matches('saving')) continue;
      const recording = replayPath(path, start, checks);
      if (last.event.type === 'xstate.done.actor.saveSegment') {
        expect(recording.emitted.at(-1)).toEqual({ type: 'segment.saved', id: 12 });
      }
      if (last.event.type === 'xstate.error.actor.saveSegment') {
        expect(last.state.context.problem).toMatchObject({ status: 400, code: 'invalid' });
        expect(recording.emitted.filter((event) => event.type === 'segment.saved')).toEqual([]);
      }
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
