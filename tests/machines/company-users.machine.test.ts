import { createTestModel } from '@xstate/graph';
import { createActor, SimulatedClock, type EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { companyUsersMachine, NEW_USER_FORM } from '../../src/machines/company-users.machine.js';
import type { ListQuery, NoFilters } from '../../src/machines/kit/list-machine.js';
import type { CompanyUser, CompanyUserCreate, CompanyUserUpdate } from '../../src/schemas/accounts.js';
import type { Page } from '../../src/schemas/common.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

function user(id: number, role: CompanyUser['role'], email: string): CompanyUser {
  return {
    id,
    email,
    username: email.split('@')[0]!,
    first_name: 'Ana',
    last_name: 'Lee',
    role,
    is_active: true,
    last_login_at: null,
    created_at: '2024-05-01T10:00:00.000Z',
  };
}

const OWNER = user(1, 'owner', 'owner@example.com');
const MARKETER = user(2, 'marketer', 'marketer@example.com');
// The second page holds one user: deleting them steps back to the first page.
const PAGE_TWO = { count: 26, next: null, previous: '/api/accounts/user/?page=1', results: [MARKETER] };

const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const EMAIL_TAKEN = {
  status: 409,
  code: 'email_taken',
  message: 'A user with this email already exists',
  fields: { email: 'Email is already in use' },
  fieldProblems: { email: { code: 'in_use' } },
};
const LAST_OWNER = { status: 409, code: 'last_owner', message: 'A company needs at least one active owner' };

const SAMPLES: EventFromLogic<typeof companyUsersMachine>[] = [
  { type: 'search.change', query: 'ann' },
  { type: 'page.change', page: 2 },
  { type: 'item.edit', item: OWNER },
  { type: 'item.delete', item: MARKETER },
  // Create: an email and a password make the form valid; edit: a blank username makes it invalid.
  { type: 'field.change', field: 'email', value: 'new@example.com' },
  { type: 'field.change', field: 'password', value: 'long-enough-1' },
  { type: 'field.change', field: 'username', value: '' },
  { type: 'field.change', field: 'is_active', value: false },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: PAGE_TWO },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  {
    type: 'xstate.done.actor.createItem',
    actorId: 'createItem',
    output: user(3, 'marketer', 'new@example.com'),
  },
  { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: EMAIL_TAKEN },
  { type: 'xstate.done.actor.updateItem', actorId: 'updateItem', output: OWNER },
  { type: 'xstate.error.actor.updateItem', actorId: 'updateItem', error: LAST_OWNER },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: LAST_OWNER },
];

// Stand-ins for the four calls, recording what the machine asks.
const calls = (recording: Recording) => ({
  loadList: pendingActor<Page<CompanyUser>, ListQuery<NoFilters>>('loadList', recording),
  createItem: pendingActor<CompanyUser, CompanyUserCreate>('createItem', recording),
  updateItem: pendingActor<CompanyUser, { item: CompanyUser; changes: CompanyUserUpdate }>(
    'updateItem',
    recording,
  ),
  deleteItem: pendingActor<unknown, CompanyUser>('deleteItem', recording),
});

const start = (recording: Recording) =>
  companyUsersMachine.provide({
    actors: calls(recording),
    // The path sends the delay's event itself.
    delays: { searchDelay: 2 ** 30 },
  });

const checks: StateChecks = {
  listing: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    expect(snapshot.context.fieldErrors).toEqual({});
  },
  'listing.loading': (snapshot, recording) => {
    const { context } = snapshot;
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadList',
      input: { page: context.page, page_size: 25, ...(context.search ? { q: context.search } : {}) },
    });
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.items).toEqual([MARKETER]);
    expect(snapshot.context.total).toBe(26);
    expect(snapshot.context.problem).toBeNull();
  },
  'listing.debouncing': (snapshot) => {
    expect(snapshot.context.search).toBe('ann');
  },
  creating: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    expect(snapshot.context.notice).toBeNull();
  },
  'creating.open': (snapshot) => {
    const { context } = snapshot;
    // Next to the email: the schema's message while it is blank, or the server's when it is taken.
    if ('email' in context.fieldErrors) {
      if (context.form.email === '')
        expect(context.fieldErrors.email).toMatchObject({ code: 'required', message: 'Email is required' });
      else expect(context.problem).toMatchObject({ code: 'email_taken' });
    }
    if ('password' in context.fieldErrors) expect(context.form.password).toBe('');
  },
  'creating.saving': (snapshot, recording) => {
    const { form } = snapshot.context;
    expect(recording.invoked.at(-1)).toEqual({
      src: 'createItem',
      input: {
        email: form.email,
        first_name: form.first_name,
        last_name: form.last_name,
        role: form.role,
        password: form.password,
      },
    });
  },
  editing: (snapshot) => {
    expect(snapshot.context.selected).toEqual(OWNER);
  },
  'editing.open': (snapshot) => {
    const { context } = snapshot;
    if ('username' in context.fieldErrors) {
      expect(context.fieldErrors.username).toMatchObject({
        code: 'required',
        message: 'Username is required',
      });
      expect(context.form.username).toBe('');
    }
    // A rule of the server (the last owner) is shown in the dialog, which stays open.
    if (context.problem) expect(context.problem).toMatchObject({ status: 409, code: 'last_owner' });
  },
  'editing.saving': (snapshot, recording) => {
    const { form } = snapshot.context;
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateItem',
      input: {
        item: OWNER,
        changes: {
          username: form.username,
          first_name: form.first_name,
          last_name: form.last_name,
          role: form.role,
          is_active: form.is_active,
        },
      },
    });
  },
  deleting: (snapshot) => {
    expect(snapshot.context.selected).toEqual(MARKETER);
  },
  'deleting.confirming': (snapshot) => {
    const { problem } = snapshot.context;
    if (problem) expect(problem.message).toBe('A company needs at least one active owner');
  },
  'deleting.removing': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: MARKETER });
  },
};

const model = createTestModel(companyUsersMachine, { events: SAMPLES });
// Every reachable (state, context) and, from each, every event the samples offer there.
const { transitions: paths } = everyTransition(companyUsersMachine, model);

describe('company users machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'creating.open',
      'creating.saving',
      'deleting.confirming',
      'deleting.removing',
      'editing.open',
      'editing.saving',
      'listing.browsing',
      'listing.debouncing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('refreshes the list with a notice after every change', () => {
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        const done = /^xstate\.done\.actor\.(create|update|delete)Item$/.exec(step.event.type);
        if (!done) return;
        expect(step.state.matches({ listing: 'loading' })).toBe(true);
        expect(step.state.context.notice).toBe(`${done[1]}d`);
        expect(step.state.context.form).toEqual(NEW_USER_FORM);
        if (done[1] === 'delete') {
          const before = path.steps[index - 1]!.state.context as { page: number };
          expect(step.state.context.page).toBe(Math.max(1, before.page - 1));
        }
      });
    }
  });

  it('searches from the first page once typing pauses for 300 ms (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = createActor(companyUsersMachine.provide({ actors: calls(recording) }), {
      clock,
      input: {},
    }).start();
    actor.send({ type: 'xstate.done.actor.loadList', actorId: 'loadList', output: PAGE_TWO });
    actor.send({ type: 'page.change', page: 2 });
    actor.send({ type: 'xstate.done.actor.loadList', actorId: 'loadList', output: PAGE_TWO });
    actor.send({ type: 'search.change', query: 'an' });
    clock.increment(299);
    actor.send({ type: 'search.change', query: 'ann ' });
    clock.increment(299);
    expect(recording.invoked.map((call) => call.input)).toEqual([
      { page: 1, page_size: 25 },
      { page: 2, page_size: 25 },
    ]);
    clock.increment(1);
    expect(recording.invoked.at(-1)?.input).toEqual({ page: 1, page_size: 25, q: 'ann' });
    actor.stop();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
