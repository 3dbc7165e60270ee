import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { segmentExportMachine } from '../../src/machines/segment-export.machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';
import { REGULARS } from './support/segment-fixtures.js';

const OTHER = { ...REGULARS, id: 9, name: 'Lapsed' };
const SAMPLES: EventFromLogic<typeof segmentExportMachine>[] = [
  { type: 'export.start', segment: REGULARS },
  { type: 'export.start', segment: OTHER },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.exportSegment', actorId: 'exportSegment', output: undefined },
  { type: 'xstate.error.actor.exportSegment', actorId: 'exportSegment', error: new Error('offline') },
];

const start = (recording: Recording) =>
  segmentExportMachine.provide({ actors: { exportSegment: pendingActor('exportSegment', recording) } });

const checks: StateChecks = {
  idle: (snapshot) => {
    expect([null, 'exported', 'exportFailed']).toContain(snapshot.context.notice);
  },
  exporting: (snapshot, recording) => {
    // One export at a time: the segment asked first is the one downloading.
    expect(recording.invoked.at(-1)).toEqual({ src: 'exportSegment', input: snapshot.context.segment });
    expect(recording.invoked.filter((call) => call.src === 'exportSegment').length).toBeGreaterThan(0);
    expect(snapshot.context.notice).toBeNull();
  },
};

const model = createTestModel(segmentExportMachine, {
  events: SAMPLES,
  serializeState: (snapshot) => JSON.stringify({ value: snapshot.value, notice: snapshot.context.notice }),
});
const { transitions: paths } = everyTransition(segmentExportMachine, model);

describe('segment export machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['exporting', 'idle']);
  });

  it('tells how each export ended', () => {
    for (const path of paths) {
      const last = path.steps.at(-1)!;
      if (
        last.event.type === 'xstate.done.actor.exportSegment' &&
        path.steps.at(-2)!.state.matches('exporting')
      )
        expect(last.state.context.notice).toBe('exported');
      if (
        last.event.type === 'xstate.error.actor.exportSegment' &&
        path.steps.at(-2)!.state.matches('exporting')
      )
        expect(last.state.context.notice).toBe('exportFailed');
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
