import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { emailSendersMachine, NEW_SENDER_FORM } from '../../src/machines/email-senders.machine.js';
import type { EventFromLogic } from 'xstate';
import type { ListQuery, NoFilters } from '../../src/machines/kit/list-machine.js';
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
  fieldProblems: { email: { code: 'not_valid' } },
};

const SAMPLES: EventFromLogic<typeof emailSendersMachine>[] = [
  { type: 'item.edit', item: SENDER },
  { type: 'item.delete', item: SENDER },
  { type: 'field.change', field: 'name', value: 'Harbour Grill' },
  { type: 'field.change', field: 'email', value: 'hello@harbourgrill.example' },
  { type: 'field.change', field: 'reply_to', value: 'not an address' },
  { type: 'field.change', field: 'is_default', value: true },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: LIST },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createItem', actorId: 'createItem', output: { ...SENDER, id: 5 } },
  { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: BAD_EMAIL },
  { type: 'xstate.done.actor.updateItem', actorId: 'updateItem', output: SENDER },
  { type: 'xstate.error.actor.updateItem', actorId: 'updateItem', error: BAD_EMAIL },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  emailSendersMachine.provide({
    actors: {
      loadList: pendingActor<EmailSender[], ListQuery<NoFilters>>('loadList', recording),
      createItem: pendingActor('createItem', recording),
      updateItem: pendingActor('updateItem', recording),
      deleteItem: pendingActor('deleteItem', recording),
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
  if ('reply_to' in fieldErrors)
    expect(fieldErrors.reply_to).toMatchObject({ code: 'not_valid', message: 'Reply-to is not valid' });
  if ('email' in fieldErrors) {
    expect(['Email is required', 'Email is not valid']).toContain(fieldErrors.email?.message);
  }
};

const checks: StateChecks = {
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)?.src).toBe('loadList');
    expect(snapshot.context.selected).toBeNull();
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual(LIST);
    expect(snapshot.context.selected).toBeNull();
    expect(snapshot.context.form).toEqual(NEW_SENDER_FORM);
  },
  'creating.open': (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    formChecks(snapshot);
  },
  'creating.saving': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'createItem', input: sent(snapshot.context.form) });
  },
  'editing.open': (snapshot) => {
    expect(snapshot.context.selected).toEqual(SENDER);
    formChecks(snapshot);
  },
  'editing.saving': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateItem',
      input: { item: SENDER, changes: sent(snapshot.context.form) },
    });
  },
  'deleting.confirming': (snapshot) => {
    expect(snapshot.context.selected).toEqual(SENDER);
    if (snapshot.context.problem) expect(snapshot.context.problem.code).toBe('internal');
  },
  'deleting.removing': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: SENDER });
  },
};

const model = createTestModel(emailSendersMachine, { events: SAMPLES });
// Every reachable (state, context) and, from each, every event the samples offer there.
const { transitions: paths } = everyTransition(emailSendersMachine, model);

describe('email senders machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'creating.open',
      'creating.saving',
      'deleting.confirming',
      'deleting.removing',
      'editing.open',
      'editing.saving',
      'listing.browsing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('refreshes the list with a notice after every change', () => {
    for (const path of paths) {
      for (const step of path.steps) {
        const done = /^xstate\.done\.actor\.(create|update|delete)Item$/.exec(step.event.type);
        if (!done) continue;
        expect(step.state.matches({ listing: 'loading' })).toBe(true);
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
