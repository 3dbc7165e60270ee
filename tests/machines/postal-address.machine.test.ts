import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { postalAddressMachine } from '../../src/machines/postal-address.machine.js';
import type { SettingsFormMachineEvent } from '../../src/machines/support/settings-form.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const SAVED = { postal_address: '12 Quay Street, Portland' };
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const TOO_LONG = {
  status: 400,
  code: 'validation_failed',
  message: 'The request has invalid fields',
  fields: { postal_address: 'postal_address must be at most 500 characters' },
  fieldProblems: { postal_address: { code: 'too_long', max: 500 } },
};

const SAMPLES: SettingsFormMachineEvent[] = [
  { type: 'field.change', field: 'postal_address', value: '1 Pier Road' },
  { type: 'field.change', field: 'postal_address', value: '   ' },
  { type: 'form.submit' },
  { type: 'load.retry' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.load', actorId: 'load', output: SAVED },
  { type: 'xstate.error.actor.load', actorId: 'load', error: SERVER_DOWN },
  {
    type: 'xstate.done.actor.save',
    actorId: 'save',
    output: { postal_address: '1 Pier Road' },
  },
  { type: 'xstate.error.actor.save', actorId: 'save', error: TOO_LONG },
];

const start = (recording: Recording) =>
  postalAddressMachine.provide({
    actors: { load: pendingActor('load', recording), save: pendingActor('save', recording) },
  });

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'load', input: undefined });
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  editing: (snapshot) => {
    const { context } = snapshot;
    expect(snapshot.hasTag('busy')).toBe(false);
    // A blank address is refused here, naming the field, before any call.
    if (context.fieldErrors.postal_address?.code === 'required') expect(context.draft.trim()).toBe('');
    if (context.notice === 'saved') expect(context.saved).toBe('1 Pier Road');
  },
  saving: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'save',
      input: { postal_address: snapshot.context.draft.trim() },
    });
    expect(snapshot.context.draft.trim()).not.toBe('');
  },
};

function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof postalAddressMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    draft: context.draft,
    saved: context.saved,
    errors: Object.keys(context.fieldErrors),
    problem: context.problem?.code ?? null,
    notice: context.notice,
  });
}

const model = createTestModel(postalAddressMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(postalAddressMachine, model);

describe('postal address machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['editing', 'failed', 'loading', 'saving']);
  });

  it('keeps the server’s message naming postal_address after a refused save', () => {
    const refused = paths.some((path) =>
      path.steps.some(
        (step) =>
          step.event.type === 'xstate.error.actor.save' &&
          step.state.context.fieldErrors.postal_address?.message ===
            'postal_address must be at most 500 characters',
      ),
    );
    expect(refused).toBe(true);
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
