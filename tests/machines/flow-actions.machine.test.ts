import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { flowActionsMachine } from '../../src/machines/flow-actions.machine.js';
import { failure, FLOW_SUMMARY, flowWith } from './support/flow-fixtures.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const PAUSED = flowWith('paused', 5);
const LIVE = { ...FLOW_SUMMARY, status: 'live' as const };

const SAMPLES: EventFromLogic<typeof flowActionsMachine>[] = [
  { type: 'flow.act', action: 'duplicate', flow: FLOW_SUMMARY, name: 'Copy of Welcome' },
  { type: 'flow.act', action: 'pause', flow: LIVE },
  { type: 'problem.dismiss' },
  { type: 'xstate.done.actor.actOnFlow', actorId: 'actOnFlow', output: PAUSED },
  { type: 'xstate.error.actor.actOnFlow', actorId: 'actOnFlow', error: failure(500, 'internal') },
];

const start = (recording: Recording) =>
  flowActionsMachine.provide({ actors: { actOnFlow: pendingActor('actOnFlow', recording) } });

const checks: StateChecks = {
  idle: (snapshot) => {
    // A failed action keeps what it tried, for its message; a done one leaves nothing behind.
    if (snapshot.context.problem) {
      expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
      expect(snapshot.context.request).not.toBeNull();
    } else expect(snapshot.context.request).toBeNull();
  },
  acting: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'actOnFlow', input: snapshot.context.request });
  },
};

const model = createTestModel(flowActionsMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(flowActionsMachine, model);

describe('flow actions machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['acting', 'idle']);
  });

  it('announces each action done with what it was, and nothing when it failed', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const announced = recording.emitted.filter((event) => event.type === 'flow.acted');
      const done = path.steps.flatMap((step, index) =>
        step.event.type === 'xstate.done.actor.actOnFlow' && path.steps[index - 1]?.state.matches('acting')
          ? [path.steps[index - 1]!.state.context.request!.action]
          : [],
      );
      expect(announced).toEqual(done.map((action) => ({ type: 'flow.acted', action, flow: PAUSED })));
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
