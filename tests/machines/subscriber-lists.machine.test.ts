import { createTestModel } from '@xstate/graph';
import { createActor, type EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { NEW_LIST_FORM, subscriberListsMachine } from '../../src/machines/subscriber-lists.machine.js';
import type { ListQuery, NoFilters } from '../../src/machines/kit/list-machine.js';
import type { Page } from '../../src/schemas/common.js';
import type { SubscriberList } from '../../src/schemas/subscribers.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const VIP: SubscriberList = {
  id: 5,
  name: 'VIP guests',
  member_count: 1,
  created: '2026-03-05T14:07:00.000Z',
  updated_at: '2026-03-05T14:07:00.000Z',
};
// A second page holding one row: deleting it steps back a page.
const LISTS = {
  count: 26,
  next: null,
  previous: '/api/subscriptions/subscribers/list/?page=1',
  results: [VIP],
};

const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const NAME_TAKEN = {
  status: 400,
  code: 'validation_failed',
  message: 'Name already exists',
  fields: { name: 'Name already exists' },
  fieldProblems: { name: { code: 'in_use' } },
};

const SAMPLES: EventFromLogic<typeof subscriberListsMachine>[] = [
  { type: 'list.retry' },
  { type: 'page.change', page: 2 },
  { type: 'item.add' },
  { type: 'item.edit', item: VIP },
  { type: 'item.delete', item: VIP },
  { type: 'item.open', item: VIP },
  { type: 'field.change', field: 'name', value: 'Brunch regulars' },
  { type: 'field.change', field: 'name', value: '   ' },
  { type: 'dialog.submit' },
  { type: 'dialog.close' },
  { type: 'delete.confirm' },
  // Back from a list's members: the counts reload.
  { type: 'list.refresh' },
  { type: 'refresh.due' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: LISTS },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createItem', actorId: 'createItem', output: VIP },
  { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: NAME_TAKEN },
  { type: 'xstate.done.actor.updateItem', actorId: 'updateItem', output: VIP },
  { type: 'xstate.error.actor.updateItem', actorId: 'updateItem', error: NAME_TAKEN },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  subscriberListsMachine.provide({
    actors: {
      loadList: pendingActor<Page<SubscriberList>, ListQuery<NoFilters>>('loadList', recording),
      createItem: pendingActor('createItem', recording),
      updateItem: pendingActor('updateItem', recording),
      deleteItem: pendingActor('deleteItem', recording),
    },
    // The path sends the refresh's event itself.
    delays: { refreshDelay: 2 ** 30 },
  });

/** A name field error says why: nothing typed, or the server's word on a taken name. */
const nameChecks = (snapshot: Parameters<StateChecks[string]>[0]) => {
  const { form, fieldErrors } = snapshot.context;
  if (!fieldErrors.name) return;
  if (form.name.trim() === '')
    expect(fieldErrors.name).toMatchObject({ code: 'required', message: 'Name is required' });
  else expect(fieldErrors.name).toMatchObject({ code: 'in_use', message: 'Name already exists' });
};

const checks: StateChecks = {
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.selected).toBeNull();
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadList',
      input: { page: snapshot.context.page, page_size: 25 },
    });
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual(LISTS.results);
    expect(snapshot.context.total).toBe(26);
    expect(snapshot.context.problem).toBeNull();
    expect(snapshot.context.form).toEqual(NEW_LIST_FORM);
  },
  'creating.open': (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    nameChecks(snapshot);
  },
  'creating.saving': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'createItem', input: { name: 'Brunch regulars' } });
  },
  'editing.open': (snapshot) => {
    expect(snapshot.context.selected).toEqual(VIP);
    nameChecks(snapshot);
  },
  'editing.saving': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateItem',
      input: { item: VIP, changes: { name: snapshot.context.form.name.trim() } },
    });
  },
  'deleting.confirming': (snapshot) => {
    expect(snapshot.context.selected).toEqual(VIP);
    if (snapshot.context.problem) expect(snapshot.context.problem.code).toBe('internal');
  },
  'deleting.removing': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: VIP });
  },
};

/** Snapshots count as the same model state when they agree on state, page, dialog and what is held. */
function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof subscriberListsMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    page: context.page,
    name: context.form.name.trim() !== '',
    errors: Object.keys(context.fieldErrors),
    problem: context.problem !== null,
    notice: context.notice,
    held: context.items !== null,
    pending: context.refreshPending,
  });
}

const model = createTestModel(subscriberListsMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(subscriberListsMachine, model);

describe('subscriber lists machine (model)', () => {
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

  it('reloads with a notice after a create, a rename or a delete, and steps back from an emptied page', () => {
    const notices = { createItem: 'created', updateItem: 'updated', deleteItem: 'deleted' } as const;
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        const done = /^xstate\.done\.actor\.(\w+)$/.exec(step.event.type)?.[1];
        if (!done || !(done in notices)) return;
        const before = path.steps[index - 1]!.state.context;
        expect(step.state.matches({ listing: 'loading' })).toBe(true);
        expect(step.state.context.notice).toBe(notices[done as keyof typeof notices]);
        const page = done === 'deleteItem' && before.items?.length === 1 ? before.page - 1 : before.page;
        expect(step.state.context.page).toBe(Math.max(1, page));
      });
    }
  });

  it('announces an opened list and reloads the member counts on the way back', async () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording).provide({ delays: { refreshDelay: 0 } }), { input: {} });
    actor.on('item.opened', (event) => recording.emitted.push(event));
    actor.start();
    actor.send({ type: 'xstate.done.actor.loadList', actorId: 'loadList', output: LISTS } as never);
    actor.send({ type: 'item.open', item: VIP });
    expect(recording.emitted).toEqual([{ type: 'item.opened', item: VIP }]);
    expect(actor.getSnapshot().matches({ listing: 'browsing' })).toBe(true);
    actor.send({ type: 'list.refresh' });
    // The wait is zero, yet still a timer: the reload comes on the next turn.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(actor.getSnapshot().matches({ listing: 'loading' })).toBe(true);
    expect(recording.invoked.filter((call) => call.src === 'loadList')).toHaveLength(2);
    actor.stop();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
