import { createTestModel } from '@xstate/graph';
import { createActor, SimulatedClock, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  subscriberListsMachine,
  type SubscriberListsEvent,
} from '../../src/machines/subscriber-lists.machine.js';
import type { Subscriber, SubscriberList } from '../../src/schemas/subscribers.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey, type MachinePath } from './support/walk.js';

function subscriber(id: number, email: string): Subscriber {
  return {
    id,
    hashid: `h${id}x`,
    pos_id: null,
    email,
    first_name: 'Ana',
    last_name: 'Lee',
    phone: '',
    zip: '',
    birthday: null,
    subscribed: true,
    SUBSCRIBED: 'True',
    guest_id: null,
    source_location_id: null,
    list_ids: [],
    unsubscribed_at: null,
    created_at: '2026-03-05T14:07:00.000Z',
    updated_at: '2026-03-05T14:07:00.000Z',
  };
}

const VIP: SubscriberList = {
  id: 5,
  name: 'VIP guests',
  member_count: 1,
  created: '2026-03-05T14:07:00.000Z',
  updated_at: '2026-03-05T14:07:00.000Z',
};
const ANA = subscriber(11, 'ana@example.com');
const BEN = subscriber(12, 'ben@example.com');
// Second pages holding one row: removing it steps back a page.
const LISTS = {
  count: 26,
  next: null,
  previous: '/api/subscriptions/subscribers/list/?page=1',
  results: [VIP],
};
const MEMBERS = { count: 9, next: null, previous: 'x', results: [ANA] };
const CANDIDATES = { count: 2, next: null, previous: null, results: [ANA, BEN] };

const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const NAME_TAKEN = {
  status: 400,
  code: 'validation_failed',
  message: 'Name already exists',
  fields: { name: 'Name already exists' },
};

const SAMPLES: SubscriberListsEvent[] = [
  { type: 'lists.retry' },
  { type: 'page.change', page: 2 },
  { type: 'list.create' },
  { type: 'list.rename', list: VIP },
  { type: 'list.delete', list: VIP },
  { type: 'list.open', list: VIP },
  { type: 'name.change', value: 'Brunch regulars' },
  { type: 'name.change', value: '   ' },
  { type: 'dialog.submit' },
  { type: 'dialog.close' },
  { type: 'delete.confirm' },
  { type: 'members.close' },
  { type: 'members.retry' },
  { type: 'members.page', page: 2 },
  { type: 'member.remove', subscriber: ANA },
  { type: 'picker.open' },
  { type: 'search.change', query: 'ben' },
  { type: 'search.settled' },
  { type: 'candidates.retry' },
  { type: 'candidates.page', page: 2 },
  { type: 'candidate.toggle', id: BEN.id },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.listLists', actorId: 'listLists', output: LISTS },
  { type: 'xstate.error.actor.listLists', actorId: 'listLists', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createList', actorId: 'createList', output: VIP },
  { type: 'xstate.error.actor.createList', actorId: 'createList', error: NAME_TAKEN },
  { type: 'xstate.done.actor.renameList', actorId: 'renameList', output: VIP },
  { type: 'xstate.error.actor.renameList', actorId: 'renameList', error: NAME_TAKEN },
  { type: 'xstate.done.actor.deleteList', actorId: 'deleteList', output: null },
  { type: 'xstate.error.actor.deleteList', actorId: 'deleteList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.listMembers', actorId: 'listMembers', output: MEMBERS },
  { type: 'xstate.error.actor.listMembers', actorId: 'listMembers', error: SERVER_DOWN },
  { type: 'xstate.done.actor.removeMembers', actorId: 'removeMembers', output: null },
  { type: 'xstate.error.actor.removeMembers', actorId: 'removeMembers', error: SERVER_DOWN },
  { type: 'xstate.done.actor.searchCandidates', actorId: 'searchCandidates', output: CANDIDATES },
  { type: 'xstate.error.actor.searchCandidates', actorId: 'searchCandidates', error: SERVER_DOWN },
  { type: 'xstate.done.actor.addMembers', actorId: 'addMembers', output: null },
  { type: 'xstate.error.actor.addMembers', actorId: 'addMembers', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  subscriberListsMachine.provide({
    actors: {
      listLists: pendingActor('listLists', recording),
      createList: pendingActor('createList', recording),
      renameList: pendingActor('renameList', recording),
      deleteList: pendingActor('deleteList', recording),
      listMembers: pendingActor('listMembers', recording),
      removeMembers: pendingActor('removeMembers', recording),
      searchCandidates: pendingActor('searchCandidates', recording),
      addMembers: pendingActor('addMembers', recording),
    },
    // The path sends the delay's event itself.
    delays: { searchDelay: 2 ** 30 },
  });

const checks: StateChecks = {
  lists: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    expect(snapshot.context.members).toBeNull();
    expect(snapshot.context.picked).toEqual([]);
  },
  'lists.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'listLists',
      input: { page: snapshot.context.page, page_size: 25 },
    });
  },
  'lists.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'lists.browsing': (snapshot) => {
    expect(snapshot.context.lists).toEqual(LISTS);
    expect(snapshot.context.problem).toBeNull();
  },
  creating: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
  },
  'creating.open': (snapshot) => {
    const { context } = snapshot;
    if (context.fieldErrors.name) {
      if (context.name.trim() === '') expect(context.fieldErrors.name).toBe('Name is required');
      else expect(context.fieldErrors.name).toBe('Name already exists');
    }
  },
  'creating.saving': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'createList', input: { name: 'Brunch regulars' } });
  },
  renaming: (snapshot) => {
    expect(snapshot.context.selected).toEqual(VIP);
  },
  'renaming.open': (snapshot) => {
    const { context } = snapshot;
    if (context.fieldErrors.name && context.name.trim() === '') {
      expect(context.fieldErrors.name).toBe('Name is required');
    }
  },
  'renaming.saving': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'renameList',
      input: { id: VIP.id, body: { name: snapshot.context.name.trim() } },
    });
  },
  deleting: (snapshot) => {
    expect(snapshot.context.selected).toEqual(VIP);
  },
  'deleting.confirming': (snapshot) => {
    const { problem } = snapshot.context;
    if (problem) expect(problem.code).toBe('internal');
  },
  'deleting.removing': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteList', input: VIP.id });
  },
  members: (snapshot) => {
    expect(snapshot.context.selected).toEqual(VIP);
  },
  'members.loading': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'listMembers',
      input: { listId: VIP.id, page: snapshot.context.membersPage, page_size: 8 },
    });
  },
  'members.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'members.browsing': (snapshot) => {
    expect(snapshot.context.members).toEqual(MEMBERS);
    expect(snapshot.context.removing).toBeNull();
    expect(snapshot.context.picked).toEqual([]);
  },
  'members.removing': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'removeMembers',
      input: { listId: VIP.id, subscriber_ids: [ANA.id] },
    });
  },
  'members.picking': (snapshot) => {
    expect(snapshot.context.members).toEqual(MEMBERS);
  },
  'members.picking.searching': (snapshot, recording) => {
    const { context } = snapshot;
    expect(recording.invoked.at(-1)).toEqual({
      src: 'searchCandidates',
      input: { page: context.candidatesPage, page_size: 8, ...(context.query ? { q: context.query } : {}) },
    });
  },
  'members.picking.debouncing': (snapshot) => {
    expect(snapshot.context.query).toBe('ben');
  },
  'members.picking.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'members.picking.choosing': (snapshot) => {
    expect(snapshot.context.candidates).toEqual(CANDIDATES);
  },
  'members.picking.saving': (snapshot, recording) => {
    expect(snapshot.context.picked).toEqual([BEN.id]);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'addMembers',
      input: { listId: VIP.id, subscriber_ids: [BEN.id] },
    });
  },
};

/** Snapshots count as the same model state when they agree on state, dialog validity and what is held. */
function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof subscriberListsMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    name: context.name.trim() !== '',
    errors: Object.keys(context.fieldErrors),
    picked: context.picked.length,
    held: [context.lists, context.members, context.candidates].map((page) => page !== null),
    selected: context.selected !== null,
  });
}

/** The path with each step's snapshot recomputed from its events (the model keeps one per serialized state). */
function concrete(
  path: MachinePath<typeof subscriberListsMachine>,
): MachinePath<typeof subscriberListsMachine> {
  const [first, ...rest] = path.steps;
  let state = first!.state;
  const steps = [first!];
  for (const step of rest) {
    [state] = transition(subscriberListsMachine, state, step.event);
    steps.push({ state, event: step.event });
  }
  return { ...path, state, steps };
}

const model = createTestModel(subscriberListsMachine, { events: SAMPLES, serializeState });
const paths = everyTransition(subscriberListsMachine, model).transitions.map(concrete);

describe('subscriber lists machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'creating.open',
      'creating.saving',
      'deleting.confirming',
      'deleting.removing',
      'lists.browsing',
      'lists.failed',
      'lists.loading',
      'members.browsing',
      'members.failed',
      'members.loading',
      'members.picking.choosing',
      'members.picking.debouncing',
      'members.picking.failed',
      'members.picking.saving',
      'members.picking.searching',
      'members.removing',
      'renaming.open',
      'renaming.saving',
    ]);
  });

  it('steps back a page when the only row of a later page goes', () => {
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        const before = path.steps[index - 1]?.state.context;
        if (!before) return;
        if (step.event.type === 'xstate.done.actor.deleteList') {
          expect(step.state.context.page).toBe(
            Math.max(1, before.page - (before.lists?.results.length === 1 ? 1 : 0)),
          );
          expect(step.state.context.notice).toBe('deleted');
        }
        if (step.event.type === 'xstate.done.actor.removeMembers') {
          expect(step.state.context.membersPage).toBe(Math.max(1, before.membersPage - 1));
          expect(step.state.context.notice).toBe('memberRemoved');
        }
      });
    }
  });

  it('searches the picker once typing pauses for 300 ms and keeps the ticks (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = createActor(start(recording).provide({ delays: { searchDelay: 300 } }), { clock }).start();
    actor.send({ type: 'xstate.done.actor.listLists', actorId: 'listLists', output: LISTS } as never);
    actor.send({ type: 'list.open', list: VIP });
    actor.send({ type: 'xstate.done.actor.listMembers', actorId: 'listMembers', output: MEMBERS } as never);
    actor.send({ type: 'picker.open' });
    actor.send({
      type: 'xstate.done.actor.searchCandidates',
      actorId: 'searchCandidates',
      output: CANDIDATES,
    } as never);
    actor.send({ type: 'candidate.toggle', id: ANA.id });
    actor.send({ type: 'search.change', query: 'be' });
    clock.increment(299);
    actor.send({ type: 'search.change', query: 'ben ' });
    clock.increment(299);
    const searches = () => recording.invoked.filter((call) => call.src === 'searchCandidates');
    expect(searches().length).toBe(1);
    clock.increment(1);
    expect(searches().at(-1)?.input).toEqual({ page: 1, page_size: 8, q: 'ben' });
    expect(actor.getSnapshot().context.picked).toEqual([ANA.id]);
    actor.stop();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
