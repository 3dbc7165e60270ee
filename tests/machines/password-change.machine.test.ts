import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { EMPTY_PASSWORD_DRAFT, passwordChangeMachine } from '../../src/machines/password-change.machine.js';
import type { SettingsFormMachineEvent } from '../../src/machines/support/settings-form.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const NEW_TOKEN = { access_token: 'fresh-token', token_type: 'Bearer' as const, expires_in: 3600 };
const WRONG_CURRENT = {
  status: 400,
  code: 'validation_failed',
  message: 'The request has invalid fields',
  fields: { current_password: 'Current password is not valid' },
  fieldProblems: { current_password: { code: 'not_valid' } },
};

// Enough values to make the form valid, too short, and mismatched.
const SAMPLES: SettingsFormMachineEvent[] = [
  { type: 'field.change', field: 'current_password', value: 'old-secret' },
  { type: 'field.change', field: 'new_password', value: 'short' },
  { type: 'field.change', field: 'new_password', value: 'long-enough-1' },
  { type: 'field.change', field: 'confirm_password', value: 'long-enough-1' },
  { type: 'password.submit' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.save', actorId: 'save', output: NEW_TOKEN },
  { type: 'xstate.error.actor.save', actorId: 'save', error: WRONG_CURRENT },
];

const start = (recording: Recording) =>
  passwordChangeMachine.provide({ actors: { save: pendingActor('save', recording) } });

const checks: StateChecks = {
  editing: (snapshot, recording) => {
    const { context } = snapshot;
    expect(snapshot.hasTag('busy')).toBe(false);
    const { fieldErrors } = context;
    if ('new_password' in fieldErrors) {
      expect(['New password is required', 'New password minimum length is 8']).toContain(
        fieldErrors.new_password?.message,
      );
      expect(context.draft.new_password.length).toBeLessThan(8);
    }
    if ('confirm_password' in fieldErrors) {
      expect(fieldErrors.confirm_password).toMatchObject({
        code: 'not_valid',
        message: 'Confirm password is not valid',
      });
      expect(context.draft.confirm_password).not.toBe(context.draft.new_password);
    }
    if ('current_password' in fieldErrors) {
      expect(['Current password is required', 'Current password is not valid']).toContain(
        fieldErrors.current_password?.message,
      );
    }
    // After a change the form is empty and the new token went to whoever holds the machine.
    if (context.notice === 'saved') {
      expect(context.draft).toEqual(EMPTY_PASSWORD_DRAFT);
      expect(recording.emitted.length).toBeGreaterThan(0);
    }
    for (const emitted of recording.emitted) {
      expect(emitted).toEqual({ type: 'form.saved', output: NEW_TOKEN });
    }
  },
  saving: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    const { draft } = snapshot.context;
    expect(draft.new_password.length).toBeGreaterThanOrEqual(8);
    expect(draft.confirm_password).toBe(draft.new_password);
    expect(recording.invoked.at(-1)).toEqual({ src: 'save', input: draft });
  },
};

const model = createTestModel(passwordChangeMachine, { events: SAMPLES });
// Every reachable (state, context) and, from each, every event the samples offer there.
const { transitions: paths } = everyTransition(passwordChangeMachine, model);

describe('password change machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['editing', 'saving']);
  });

  it('shows the spec messages for a short or mismatched password', () => {
    const messages = new Set(
      paths.flatMap((path) =>
        path.steps.flatMap((step) =>
          Object.values(step.state.context.fieldErrors).map((failure) => failure.message),
        ),
      ),
    );
    expect([...messages].sort()).toEqual([
      'Confirm password is not valid',
      'Current password is not valid',
      'Current password is required',
      'New password is required',
      'New password minimum length is 8',
    ]);
  });

  it('announces the new token once per change the server confirmed, and never otherwise', () => {
    for (const path of paths) {
      const confirmed = path.steps.filter((step) => step.event.type === 'xstate.done.actor.save');
      expect(replayPath(path, start, checks).emitted).toHaveLength(confirmed.length);
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
