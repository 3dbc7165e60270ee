import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { segmentCloneMachine } from '../../src/machines/segment-clone.machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';
import { REGULARS } from './support/segment-fixtures.js';

const COPY = { ...REGULARS, id: 5, name: 'Regulars (copy)' };
const NAME_TAKEN = {
  status: 400,
  code: 'validation_failed',
  message: 'Please correct the highlighted fields.',
  fields: { name: 'name is too long' },
};
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: EventFromLogic<typeof segmentCloneMachine>[] = [
  { type: 'clone.open', segment: REGULARS, name: 'Regulars (copy)' },
  { type: 'name.change', value: 'Brunch regulars' },
  { type: 'name.change', value: '   ' },
  { type: 'dialog.submit' },
  { type: 'dialog.close' },
  { type: 'xstate.done.actor.cloneSegment', actorId: 'cloneSegment', output: COPY },
  { type: 'xstate.error.actor.cloneSegment', actorId: 'cloneSegment', error: NAME_TAKEN },
  { type: 'xstate.error.actor.cloneSegment', actorId: 'cloneSegment', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  segmentCloneMachine.provide({ actors: { cloneSegment: pendingActor('cloneSegment', recording) } });

const checks: StateChecks = {
  closed: (snapshot) => {
    expect(snapshot.context).toMatchObject({ segment: null, name: '', fieldErrors: {}, problem: null });
  },
  open: (snapshot) => {
    const { name, fieldErrors, segment } = snapshot.context as {
      name: string;
      fieldErrors: Record<string, { code: string }>;
      segment: unknown;
    };
    expect(segment).toEqual(REGULARS);
    // An empty name is refused before any call; the server's refusal comes back on the name.
    if (fieldErrors.name) expect(fieldErrors.name.code).toBe(name.trim() === '' ? 'required' : 'not_valid');
  },
  saving: (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'cloneSegment',
      input: { segment: REGULARS, name: (snapshot.context as { name: string }).name.trim() },
    });
    expect((snapshot.context as { name: string }).name.trim()).not.toBe('');
  },
};

function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof segmentCloneMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    name: context.name,
    errors: Object.keys(context.fieldErrors),
    problem: context.problem?.code ?? null,
  });
}

const model = createTestModel(segmentCloneMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(segmentCloneMachine, model);

describe('segment clone machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['closed', 'open', 'saving']);
  });

  it('offers "… (copy)" and announces the copy once saved', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const cloned = recording.emitted.filter((event) => event.type === 'segment.cloned');
      const saved = path.steps.filter(
        (step) => step.event.type === 'xstate.done.actor.cloneSegment' && step.state.matches('closed'),
      );
      expect(cloned).toHaveLength(saved.length);
      for (const event of cloned) expect(event).toEqual({ type: 'segment.cloned', segment: COPY });
      const opened = path.steps.find((step) => step.event.type === 'clone.open');
      if (opened) expect(opened.state.context.name).toBe('Regulars (copy)');
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
