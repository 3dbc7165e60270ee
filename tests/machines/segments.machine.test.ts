import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { ListQuery, NoFilters } from '../../src/machines/kit/list-machine.js';
import { NEW_SEGMENT_FORM, segmentFormOf, segmentsMachine } from '../../src/machines/segments.machine.js';
import type { Page } from '../../src/schemas/common.js';
import type { Segment } from '../../src/schemas/segment-records.js';
import { REGULARS, RULES } from './support/segment-fixtures.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const SEGMENTS: Page<Segment> = { count: 1, next: null, previous: null, results: [REGULARS] };
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const RULE_REFUSED = {
  status: 400,
  code: 'validation_failed',
  message: 'Please correct the highlighted fields.',
  fields: { 'segment_groups[0].segment_rules[0].value': 'must be a whole number from 0 to 1000000' },
};

const SAMPLES: EventFromLogic<typeof segmentsMachine>[] = [
  { type: 'list.retry' },
  { type: 'search.change', query: 'reg' },
  { type: 'search.settled' },
  { type: 'item.add' },
  { type: 'item.edit', item: REGULARS },
  { type: 'item.delete', item: REGULARS },
  { type: 'item.open', item: REGULARS },
  { type: 'field.change', field: 'name', value: 'Brunch regulars' },
  { type: 'field.change', field: 'name', value: '  ' },
  { type: 'field.change', field: 'segment_groups', value: [{ segment_rules: RULES }] },
  { type: 'dialog.submit' },
  { type: 'dialog.close' },
  { type: 'delete.confirm' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: SEGMENTS },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createItem', actorId: 'createItem', output: REGULARS },
  { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: RULE_REFUSED },
  { type: 'xstate.done.actor.updateItem', actorId: 'updateItem', output: REGULARS },
  { type: 'xstate.error.actor.updateItem', actorId: 'updateItem', error: RULE_REFUSED },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  segmentsMachine.provide({
    actors: {
      loadList: pendingActor<Page<Segment>, ListQuery<NoFilters>>('loadList', recording),
      createItem: pendingActor('createItem', recording),
      updateItem: pendingActor('updateItem', recording),
      deleteItem: pendingActor('deleteItem', recording),
    },
    delays: { refreshDelay: 2 ** 30, searchDelay: 2 ** 30 },
  });

/** What a save sends: the form trimmed, its rules as the builder left them. */
const sent = (form: typeof NEW_SEGMENT_FORM) => ({ ...form, name: form.name.trim() });

/** A refused rule stays named by its path (for the builder to show on the rule); an empty name on the name. */
function namedErrors(snapshot: Parameters<StateChecks[string]>[0]) {
  const { fieldErrors, form } = snapshot.context as {
    fieldErrors: Record<string, { code: string }>;
    form: typeof NEW_SEGMENT_FORM;
  };
  for (const path of Object.keys(fieldErrors))
    expect(['name', 'segment_groups[0].segment_rules[0].value']).toContain(path);
  if (fieldErrors.name) expect(form.name.trim()).toBe('');
}

const checks: StateChecks = {
  'listing.loading': (snapshot, recording) => {
    const { search } = snapshot.context as { search: string };
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadList',
      input: {
        page: snapshot.context.page,
        page_size: 25,
        ...(search.trim() ? { q: search.trim() } : {}),
      },
    });
  },
  'listing.debouncing': (snapshot) => {
    expect(snapshot.context.search).toBe('reg');
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual([REGULARS]);
    expect(snapshot.context.form).toEqual(NEW_SEGMENT_FORM);
  },
  creating: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    namedErrors(snapshot);
  },
  'creating.saving': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'createItem', input: sent(snapshot.context.form) });
  },
  editing: (snapshot) => {
    expect(snapshot.context.selected).toEqual(REGULARS);
    namedErrors(snapshot);
  },
  'editing.saving': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateItem',
      input: { item: REGULARS, changes: sent(snapshot.context.form) },
    });
  },
  'editing.open': (snapshot) => {
    // The dialog starts from the segment: its locations and its rules with their group ids.
    const { form } = snapshot.context as { form: typeof NEW_SEGMENT_FORM };
    expect(form.location_ids).toEqual([3]);
    expect(form.description).toBe('4+ visits in 90 days');
  },
  'deleting.confirming': (snapshot) => {
    expect(snapshot.context.selected).toEqual(REGULARS);
  },
  'deleting.removing': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: REGULARS });
  },
};

function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof segmentsMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    name: context.form.name.trim() !== '',
    rules: context.form.segment_groups.length,
    errors: Object.keys(context.fieldErrors),
    problem: context.problem !== null,
    notice: context.notice,
    held: context.items !== null,
    search: context.search,
  });
}

const model = createTestModel(segmentsMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(segmentsMachine, model);

describe('segments list machine (model)', () => {
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

  it('opens the update dialog with the segment’s rules and group ids', () => {
    expect(segmentFormOf(REGULARS)).toEqual({
      name: 'Regulars',
      description: '4+ visits in 90 days',
      location_ids: [3],
      group_ids: [],
      segment_groups: [{ id: 11, segment_rules: RULES }],
    });
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
