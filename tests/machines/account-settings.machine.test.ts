import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  accountSettingsMachine,
  type AccountSettingsEvent,
} from '../../src/machines/account-settings.machine.js';
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

const SAMPLES: AccountSettingsEvent[] = [
  { type: 'field.change', field: 'username', value: '' },
  { type: 'field.change', field: 'language', value: 'fr' },
  { type: 'communication.change', channel: 'sms', value: true },
  { type: 'xstate.done.actor.loadSettings', actorId: 'loadSettings', output: SETTINGS },
  { type: 'xstate.error.actor.loadSettings', actorId: 'loadSettings', error: SERVER_DOWN },
  { type: 'xstate.done.actor.saveSettings', actorId: 'saveSettings', output: SETTINGS },
  { type: 'xstate.done.actor.saveSettings', actorId: 'saveSettings', output: SETTINGS_IN_FRENCH },
  { type: 'xstate.error.actor.saveSettings', actorId: 'saveSettings', error: EMAIL_TAKEN },
  { type: 'xstate.done.actor.applyLanguage', actorId: 'applyLanguage', output: undefined },
  {
    type: 'xstate.error.actor.applyLanguage',
    actorId: 'applyLanguage',
    error: new Error('no such language bundle'),
  },
];

const start = (recording: Recording) =>
  accountSettingsMachine.provide({
    actors: {
      loadSettings: pendingActor('loadSettings', recording),
      saveSettings: pendingActor('saveSettings', recording),
      applyLanguage: pendingActor('applyLanguage', recording),
    },
  });

const lastInvoked = (recording: Recording) => recording.invoked.at(-1);

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(lastInvoked(recording)?.src).toBe('loadSettings');
    expect(snapshot.context.problem).toBeNull();
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
    expect(call?.src).toBe('saveSettings');
    // What is sent is the draft as the schema accepted it.
    expect(call?.input).toEqual(snapshot.context.draft);
    expect(snapshot.context.notice).toBeNull();
  },
  applyingLanguage: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The language just saved, which differs from the one saved before.
    expect(lastInvoked(recording)).toEqual({
      src: 'applyLanguage',
      input: snapshot.context.saved.language,
    });
  },
};

const model = createTestModel(accountSettingsMachine, { events: SAMPLES });
// Every reachable (state, context) and, from each, every event the samples offer there.
const { transitions: paths } = everyTransition(accountSettingsMachine, model);

describe('account settings machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['applyingLanguage', 'editing', 'failed', 'loading', 'saving']);
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
        if (!step.state.matches('applyingLanguage')) return;
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
        .filter((step) => step.event.type === 'xstate.done.actor.saveSettings')
        .map((step) => ({
          type: 'settings.saved',
          settings: (step.event as { output: AccountSettings }).output,
        }));
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
