import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { accountSettingsMachine } from '../../src/machines/account-settings.machine.js';
import type { SettingsFormMachineEvent } from '../../src/machines/support/settings-form.js';
import type { AccountSettings } from '../../src/schemas/accounts.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const SETTINGS: AccountSettings = {
  username: 'ana',
  email: 'ana@example.com',
  language: 'en',
  time_zone: 'America/Chicago',
  communication: { email: true, sms: false, phone: false },
};
const SETTINGS_IN_FRENCH: AccountSettings = { ...SETTINGS, language: 'fr' };

const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const EMAIL_TAKEN = {
  status: 409,
  code: 'email_taken',
  message: 'A user with this email already exists',
  fields: { email: 'A user with this email already exists' },
  fieldProblems: { email: { code: 'in_use' } },
};

const SAMPLES: SettingsFormMachineEvent[] = [
  { type: 'field.change', field: 'username', value: '' },
  { type: 'field.change', field: 'language', value: 'fr' },
  { type: 'field.change', field: 'communication', value: { email: true, sms: true, phone: false } },
  { type: 'settings.save' },
  { type: 'settings.reset' },
  { type: 'settings.retry' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.load', actorId: 'load', output: SETTINGS },
  { type: 'xstate.error.actor.load', actorId: 'load', error: SERVER_DOWN },
  { type: 'xstate.done.actor.save', actorId: 'save', output: SETTINGS },
  { type: 'xstate.done.actor.save', actorId: 'save', output: SETTINGS_IN_FRENCH },
  { type: 'xstate.error.actor.save', actorId: 'save', error: EMAIL_TAKEN },
  { type: 'xstate.done.actor.apply', actorId: 'apply', output: undefined },
  { type: 'xstate.error.actor.apply', actorId: 'apply', error: new Error('no such language bundle') },
];

const start = (recording: Recording) =>
  accountSettingsMachine.provide({
    actors: {
      load: pendingActor('load', recording),
      save: pendingActor('save', recording),
      apply: pendingActor('apply', recording),
    },
  });

const lastInvoked = (recording: Recording) => recording.invoked.at(-1);

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(lastInvoked(recording)?.src).toBe('load');
  },
  failed: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.problem).toMatchObject({ status: 500, code: 'internal' });
    expect(snapshot.context.saved).toBeNull();
  },
  editing: (snapshot) => {
    const { context } = snapshot;
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(context.saved).not.toBeNull();
    if (context.notice === 'saved') expect(context.fieldErrors).toEqual({});
    // Each channel is kept as switched; the others as saved.
    expect(Object.keys(context.draft.communication).sort()).toEqual(['email', 'phone', 'sms']);
    // The schema's message stands next to the username only while the username is blank.
    if ('username' in context.fieldErrors) {
      expect(context.fieldErrors.username).toMatchObject({
        code: 'required',
        message: 'Username is required',
      });
      expect(context.draft.username).toBe('');
    }
    if (context.problem?.code === 'email_taken') {
      expect(context.fieldErrors).toHaveProperty('email.message', 'A user with this email already exists');
    }
  },
  saving: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    const call = lastInvoked(recording);
    expect(call?.src).toBe('save');
    // What is sent is the draft as the schema accepted it.
    expect(call?.input).toEqual(snapshot.context.draft);
    expect(snapshot.context.notice).toBeNull();
  },
  applying: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The settings just saved, whose language differs from the one saved before.
    expect(lastInvoked(recording)).toEqual({ src: 'apply', input: snapshot.context.saved });
    expect(snapshot.context.notice).toBe('saved');
  },
};

const model = createTestModel(accountSettingsMachine, { events: SAMPLES });
// Every reachable (state, context) and, from each, every event the samples offer there.
const { transitions: paths } = everyTransition(accountSettingsMachine, model);

describe('account settings machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['applying', 'editing', 'failed', 'loading', 'saving']);
  });

  it('never sends a draft the schema refuses', () => {
    const refused = paths.filter((path) =>
      path.steps.some(
        (step, index) =>
          step.event.type === 'settings.save' &&
          (path.steps[index - 1]?.state.context as { draft: { username: string } }).draft.username === '' &&
          step.state.matches('saving'),
      ),
    );
    expect(refused).toEqual([]);
  });

  it('applies the language only when the saved language changed', () => {
    let applied = 0;
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        if (!step.state.matches('applying')) return;
        applied += 1;
        const before = path.steps[index - 1]?.state.context as { saved: AccountSettings };
        const output = (step.event as unknown as { output: AccountSettings }).output;
        expect(output.language).not.toBe(before.saved.language);
      });
    }
    expect(applied).toBeGreaterThan(0);
  });

  it('announces each save the server confirmed, with the stored settings', () => {
    for (const path of paths) {
      const saved = path.steps
        .filter((step) => step.event.type === 'xstate.done.actor.save')
        .map((step) => ({ type: 'form.saved', output: (step.event as { output: AccountSettings }).output }));
      expect(replayPath(path, start, checks).emitted).toEqual(saved);
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
