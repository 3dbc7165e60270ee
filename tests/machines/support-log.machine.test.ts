import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { supportLogMachine, type SupportLogEvent } from '../../src/machines/support-log.machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const UNAVAILABLE = { status: 503, code: 'unavailable', message: 'Try again later' };

const SAMPLES: SupportLogEvent[] = [
  { type: 'log.export' },
  { type: 'log.send' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.sendLog', actorId: 'sendLog', output: { id: 7 } },
  { type: 'xstate.error.actor.sendLog', actorId: 'sendLog', error: UNAVAILABLE },
];

/** The machine with a pending upload and a download that records each export. */
const start = (recording: Recording) =>
  supportLogMachine.provide({
    actors: { sendLog: pendingActor('sendLog', recording) },
    actions: { downloadLog: () => void recording.emitted.push({ type: 'downloaded' }) },
  });

const checks: StateChecks = {
  idle: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.problem).toBeNull();
  },
  sending: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.problem).toBeNull();
    expect(recording.invoked.at(-1)?.src).toBe('sendLog');
  },
  sent: (snapshot) => {
    expect(snapshot.context.sentId).toBe(7);
    expect(snapshot.context.problem).toBeNull();
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ status: 503, code: 'unavailable' });
  },
};

const model = createTestModel(supportLogMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(supportLogMachine, model);

describe('support log machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['failed', 'idle', 'sending', 'sent']);
  });

  it('downloads once per export, in every state, and uploads once per send', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const exports = path.steps.filter((step) => step.event.type === 'log.export').length;
      expect(recording.emitted).toHaveLength(exports);
      const sends = path.steps.filter(
        (step, index) =>
          index > 0 && step.state.matches('sending') && !path.steps[index - 1]!.state.matches('sending'),
      ).length;
      expect(recording.invoked).toHaveLength(sends);
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
