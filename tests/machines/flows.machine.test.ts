import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { flowsMachine, type FlowFilters } from '../../src/machines/flows.machine.js';
import type { ListQuery } from '../../src/machines/kit/list-machine.js';
import type { Page } from '../../src/schemas/common.js';
import type { FlowSummary } from '../../src/schemas/flows.js';
import { failure, FLOW, FLOW_SUMMARY } from './support/flow-fixtures.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const PAGE = { count: 1, next: null, previous: null, results: [FLOW_SUMMARY] };
const SERVER_DOWN = failure(500, 'internal');

const SAMPLES: EventFromLogic<typeof flowsMachine>[] = [
  { type: 'list.retry' },
  { type: 'list.refresh' },
  { type: 'search.change', query: 'welcome' },
  { type: 'search.settled' },
  { type: 'filters.change', filters: { status: 'live' } },
  { type: 'filters.change', filters: { status: null } },
  { type: 'item.open', item: FLOW_SUMMARY },
  { type: 'item.add' },
  { type: 'field.change', field: 'name', value: 'Welcome' },
  { type: 'field.change', field: 'name', value: '' },
  { type: 'dialog.submit' },
  { type: 'item.delete', item: FLOW_SUMMARY },
  { type: 'delete.confirm' },
  { type: 'dialog.close' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: PAGE },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createItem', actorId: 'createItem', output: FLOW },
  { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: SERVER_DOWN },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  flowsMachine.provide({
    actors: {
      loadList: pendingActor<Page<FlowSummary>, ListQuery<FlowFilters>>('loadList', recording),
      createItem: pendingActor('createItem', recording),
      deleteItem: pendingActor('deleteItem', recording),
    },
    delays: { refreshDelay: 2 ** 30, searchDelay: 2 ** 30 },
  });

const checks: StateChecks = {
  'listing.loading': (snapshot, recording) => {
    const { page, filters } = snapshot.context as { page: number; filters: FlowFilters };
    const call = recording.invoked.at(-1) as { src: string; input: Record<string, unknown> };
    expect(call.src).toBe('loadList');
    expect(call.input).toMatchObject({ page, page_size: 25, ...filters });
  },
  'listing.debouncing': (snapshot) => expect(snapshot.context.search).toBe('welcome'),
  'listing.failed': (snapshot) => expect(snapshot.context.problem).toMatchObject({ code: 'internal' }),
  'listing.browsing': (snapshot) => expect(snapshot.context.items).toEqual(PAGE.results),
  'creating.open': (snapshot) => expect(snapshot.context.created).toBeNull(),
  'creating.saving': (snapshot, recording) => {
    // The dialog's name, with the schema's defaults: every location, once ever, no graph yet.
    expect(recording.invoked.at(-1)).toEqual({
      src: 'createItem',
      input: {
        name: snapshot.context.form.name,
        location_ids: [],
        location_group_ids: [],
        reentry: 'once',
        reentry_days: null,
        items: [],
      },
    });
  },
  // The new flow stays in `created` for the screen to open it in the builder.
  'creating.created': (snapshot) => expect(snapshot.context.created).toEqual(FLOW),
  'deleting.confirming': (snapshot) => expect(snapshot.context.selected).toEqual(FLOW_SUMMARY),
  'deleting.removing': (_snapshot, recording) =>
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: FLOW_SUMMARY }),
};

function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof flowsMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    search: context.search,
    status: context.filters.status,
    name: context.form.name,
    problem: context.problem !== null,
    notice: context.notice,
    held: context.items !== null,
    pending: context.refreshPending,
  });
}

const model = createTestModel(flowsMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(flowsMachine, model);

describe('flows list machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'creating.created',
      'creating.open',
      'creating.saving',
      'deleting.confirming',
      'deleting.removing',
      'listing.browsing',
      'listing.debouncing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('never creates a flow without a name', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      for (const call of recording.invoked.filter((entry) => entry.src === 'createItem'))
        expect((call.input as { name: string }).name).toBe('Welcome');
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
