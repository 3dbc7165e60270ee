import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  emailSendersMachine,
  NEW_SENDER_FORM,
  type EmailSendersEvent,
} from '../../src/machines/email-senders.machine.js';
import type { EmailSender } from '../../src/schemas/accounts.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const SENDER: EmailSender = {
  id: 4,
  name: 'Harbour Grill',
  email: 'news@harbourgrill.example',
  reply_to: '',
  is_default: true,
  verified_at: null,
  created_at: '2024-05-01T10:00:00.000Z',
};
const LIST = [SENDER, { ...SENDER, id: 5, email: 'events@harbourgrill.example', is_default: false }];
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const BAD_EMAIL = {
  status: 400,
  code: 'validation_failed',
  message: 'The request has invalid fields',
  fields: { email: 'Email is not valid' },
};

const SAMPLES: EmailSendersEvent[] = [
  { type: 'sender.edit', sender: SENDER },
  { type: 'sender.delete', sender: SENDER },
  { type: 'field.change', field: 'name', value: 'Harbour Grill' },
  { type: 'field.change', field: 'email', value: 'hello@harbourgrill.example' },
  { type: 'field.change', field: 'reply_to', value: 'not an address' },
  { type: 'default.change', value: true },
  { type: 'xstate.done.actor.listSenders', actorId: 'listSenders', output: LIST },
  { type: 'xstate.error.actor.listSenders', actorId: 'listSenders', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createSender', actorId: 'createSender', output: { ...SENDER, id: 5 } },
  { type: 'xstate.error.actor.createSender', actorId: 'createSender', error: BAD_EMAIL },
  { type: 'xstate.done.actor.updateSender', actorId: 'updateSender', output: SENDER },
  { type: 'xstate.error.actor.updateSender', actorId: 'updateSender', error: BAD_EMAIL },
  { type: 'xstate.done.actor.deleteSender', actorId: 'deleteSender', output: null },
  { type: 'xstate.error.actor.deleteSender', actorId: 'deleteSender', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  emailSendersMachine.provide({
    actors: {
      listSenders: pendingActor('listSenders', recording),
      createSender: pendingActor('createSender', recording),
      updateSender: pendingActor('updateSender', recording),
      deleteSender: pendingActor('deleteSender', recording),
    },
  });

/** What the dialog sends for the form as typed. */
function sent(form: typeof NEW_SENDER_FORM) {
  return { ...form, name: form.name.trim(), email: form.email.trim(), reply_to: form.reply_to.trim() };
}

const formChecks = (snapshot: Parameters<StateChecks[string]>[0]) => {
  const { context } = snapshot;
  const { fieldErrors, form } = context;
  if ('name' in fieldErrors) expect(form.name).toBe('');
  if ('reply_to' in fieldErrors) expect(fieldErrors.reply_to).toBe('Reply-to is not valid');
  if ('email' in fieldErrors) {
    expect(['Email is required', 'Email is not valid']).toContain(fieldErrors.email);
  }
};

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)?.src).toBe('listSenders');
    expect(snapshot.context.selected).toBeNull();
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  browsing: (snapshot) => {
    expect(snapshot.context.list).toEqual(LIST);
    expect(snapshot.context.selected).toBeNull();
    expect(snapshot.context.form).toEqual(NEW_SENDER_FORM);
  },
  'creating.open': (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    formChecks(snapshot);
  },
  'creating.saving': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'createSender', input: sent(snapshot.context.form) });
  },
  'editing.open': (snapshot) => {
    expect(snapshot.context.selected).toEqual(SENDER);
    formChecks(snapshot);
  },
  'editing.saving': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateSender',
      input: { id: SENDER.id, sender: sent(snapshot.context.form) },
    });
  },
  'deleting.confirming': (snapshot) => {
    expect(snapshot.context.selected).toEqual(SENDER);
    if (snapshot.context.problem) expect(snapshot.context.problem.code).toBe('internal');
  },
  'deleting.removing': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteSender', input: SENDER.id });
  },
};

const model = createTestModel(emailSendersMachine, { events: SAMPLES });
// Every reachable (state, context) and, from each, every event the samples offer there.
const { transitions: paths } = everyTransition(emailSendersMachine, model);

describe('email senders machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'browsing',
      'creating.open',
      'creating.saving',
      'deleting.confirming',
      'deleting.removing',
      'editing.open',
      'editing.saving',
      'failed',
      'loading',
    ]);
  });

  it('refreshes the list with a notice after every change', () => {
    for (const path of paths) {
      for (const step of path.steps) {
        const done = /^xstate\.done\.actor\.(create|update|delete)Sender$/.exec(step.event.type);
        if (!done) continue;
        expect(step.state.matches('loading')).toBe(true);
        expect(step.state.context.notice).toBe(`${done[1]}d`);
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
