import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/machines/kit/list-machine.js';
import {
  listMembersMachine,
  NO_PICKS,
  type ListMembersFilters,
} from '../../src/machines/list-members.machine.js';
import type { Page } from '../../src/schemas/common.js';
import type { Subscriber } from '../../src/schemas/subscribers.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

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
    list_ids: [5],
    unsubscribed_at: null,
    created_at: '2026-03-05T14:07:00.000Z',
    updated_at: '2026-03-05T14:07:00.000Z',
  };
}

const VIP_ID = 5;
const ANA = subscriber(11, 'ana@example.com');
const BEN = 12;
// A second page holding one member: taking them off steps back a page.
const MEMBERS = { count: 9, next: null, previous: 'x', results: [ANA] };
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: EventFromLogic<typeof listMembersMachine>[] = [
  { type: 'list.retry' },
  { type: 'page.change', page: 2 },
  { type: 'item.delete', item: ANA },
  { type: 'delete.confirm' },
  // The picker: open it, tick and untick, add.
  { type: 'item.add' },
  { type: 'field.change', field: 'subscriber_ids', value: [BEN] },
  { type: 'field.change', field: 'subscriber_ids', value: [] },
  { type: 'dialog.submit' },
  { type: 'dialog.close' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: MEMBERS },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createItem', actorId: 'createItem', output: null },
  { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: SERVER_DOWN },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: SERVER_DOWN },
];

// The screen starts the machine with the opened list's id; the model and the replays do the same.
const INPUT = { filters: { listId: VIP_ID } };

const start = (recording: Recording) =>
  listMembersMachine.provide({
    actors: {
      loadList: pendingActor<Page<Subscriber>, ListQuery<ListMembersFilters>>('loadList', recording),
      createItem: pendingActor('createItem', recording),
      deleteItem: pendingActor('deleteItem', recording),
    },
  });

const checks: StateChecks = {
  listing: (snapshot) => {
    expect(snapshot.context.filters).toEqual({ listId: VIP_ID });
    expect(snapshot.context.form).toEqual(NO_PICKS);
  },
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.selected).toBeNull();
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadList',
      input: { listId: VIP_ID, page: snapshot.context.page, page_size: 8 },
    });
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual([ANA]);
    expect(snapshot.context.total).toBe(9);
    expect(snapshot.context.problem).toBeNull();
  },
  'creating.open': (snapshot) => {
    const { form, fieldErrors, problem } = snapshot.context;
    expect(snapshot.context.selected).toBeNull();
    // Adding nobody is refused before any call.
    if (fieldErrors.subscriber_ids) expect(form.subscriber_ids).toEqual([]);
    if (problem) expect(problem.code).toBe('internal');
  },
  'creating.saving': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'createItem', input: { subscriber_ids: [BEN] } });
  },
  'deleting.confirming': (snapshot) => {
    expect(snapshot.context.selected).toEqual(ANA);
    if (snapshot.context.problem) expect(snapshot.context.problem.code).toBe('internal');
  },
  'deleting.removing': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: ANA });
  },
};

/** Snapshots count as the same model state when they agree on state, page, picks and what is held. */
function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof listMembersMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    page: context.page,
    picked: context.form.subscriber_ids.length,
    errors: Object.keys(context.fieldErrors),
    problem: context.problem !== null,
    notice: context.notice,
    held: context.items !== null,
  });
}

const model = createTestModel(listMembersMachine, {
  events: SAMPLES,
  serializeState,
  input: INPUT,
});
const { transitions: paths } = everyTransition(listMembersMachine, model);

describe('list members machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'creating.open',
      'creating.saving',
      'deleting.confirming',
      'deleting.removing',
      'listing.browsing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('reloads with a notice after adding or taking off, stepping back from an emptied page', () => {
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        const before = path.steps[index - 1]?.state.context;
        if (!before) return;
        if (step.event.type === 'xstate.done.actor.deleteItem') {
          expect(step.state.matches({ listing: 'loading' })).toBe(true);
          expect(step.state.context.notice).toBe('deleted');
          expect(step.state.context.page).toBe(Math.max(1, before.page - 1));
        }
        if (step.event.type === 'xstate.done.actor.createItem') {
          expect(step.state.matches({ listing: 'loading' })).toBe(true);
          expect(step.state.context.notice).toBe('created');
          expect(step.state.context.form).toEqual(NO_PICKS);
        }
      });
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});
