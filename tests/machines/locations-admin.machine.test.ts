import { createTestModel } from '@xstate/graph';
import { createActor, type EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/machines/kit/list-machine.js';
import {
  LocationEditSchema,
  LocationFormSchema,
  locationsAdminMachine,
  membershipChanges,
  NEW_LOCATION_FORM,
  type LocationRow,
  type LocationsFilters,
} from '../../src/machines/locations-admin.machine.js';
import { fieldErrorsOf } from '../../src/machines/support/api-problem.js';
import type { LocationGroup } from '../../src/schemas/locations.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const RANGE = { from_date: '2024-04-01', to_date: '2024-04-30' };
const NEXT_RANGE = { from_date: '2024-03-01', to_date: '2024-03-31' };

const ROW: LocationRow = {
  id: 1,
  name: 'Harbor Grill',
  street: '12 Pier St',
  city: 'Brooklyn',
  state: 'NY',
  zip: '11201',
  latitude: 40.7,
  longitude: -74,
  time_zone: 'America/New_York',
  group_ids: [7],
  created_at: '2024-05-01T10:00:00.000Z',
  updated_at: '2024-05-01T10:00:00.000Z',
  roi: {
    location_id: 1,
    name: 'Harbor Grill',
    revenue: 12345.6,
    checks: 310,
    guests: 200,
    returning_guests: 80,
    average_check: 39.82,
  },
};
const GROUP: LocationGroup = {
  id: 7,
  name: 'Downtown',
  description: '',
  location_ids: [1],
  revenue: null,
  checks: null,
  created_at: '2024-05-01T10:00:00.000Z',
  updated_at: '2024-05-01T10:00:00.000Z',
};
const { roi: _roi, ...LOCATION } = ROW;
const { group_ids: _groups, ...NEW_LOCATION_FIELDS } = NEW_LOCATION_FORM;
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const BAD_ZIP = {
  status: 400,
  code: 'validation_failed',
  message: 'The request has invalid fields',
  fields: { zip: 'Zip code is not valid' },
  fieldProblems: { zip: { code: 'not_valid' } },
};
const FORBIDDEN = { status: 403, code: 'role_forbidden', message: 'This needs the admin role or higher' };

const SAMPLES: EventFromLogic<typeof locationsAdminMachine>[] = [
  { type: 'list.retry' },
  // Another period reloads the list (the same period here: another one would double every state the
  // walk visits; 'asks for another period' below takes one).
  { type: 'filters.change', filters: { range: RANGE } },
  // A group changed on the same screen: the locations' groups are loaded again.
  { type: 'list.refresh' },
  { type: 'refresh.due' },
  { type: 'item.add' },
  { type: 'item.edit', item: ROW },
  { type: 'item.delete', item: ROW },
  // A name makes a new location valid; a 4-digit zip makes any location invalid (spec section 5).
  { type: 'field.change', field: 'name', value: 'Café Soleil' },
  { type: 'field.change', field: 'zip', value: '1234' },
  // Editing Harbor Grill: leaving its only group.
  { type: 'field.change', field: 'group_ids', value: [] },
  { type: 'dialog.submit' },
  { type: 'dialog.close' },
  { type: 'delete.confirm' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: [ROW] },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createItem', actorId: 'createItem', output: LOCATION },
  { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: BAD_ZIP },
  { type: 'xstate.done.actor.updateItem', actorId: 'updateItem', output: ROW },
  { type: 'xstate.error.actor.updateItem', actorId: 'updateItem', error: BAD_ZIP },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: FORBIDDEN },
];

const start = (recording: Recording) =>
  locationsAdminMachine.provide({
    actors: {
      loadList: pendingActor<LocationRow[], ListQuery<LocationsFilters>>('loadList', recording),
      createItem: pendingActor('createItem', recording),
      updateItem: pendingActor('updateItem', recording),
      deleteItem: pendingActor('deleteItem', recording),
    },
  });

const formChecks = (snapshot: Parameters<StateChecks[string]>[0]) => {
  const { fieldErrors, form } = snapshot.context;
  if (fieldErrors.zip)
    expect(fieldErrors.zip).toMatchObject({ code: 'not_valid', message: 'Zip code is not valid' });
  if (fieldErrors.name) {
    expect(form.name).toBe('');
    expect(fieldErrors.name).toMatchObject({ code: 'required', message: 'Name is required' });
  }
};

const checks: StateChecks = {
  listing: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    expect(snapshot.context.fieldErrors).toEqual({});
    expect(snapshot.context.form).toEqual(NEW_LOCATION_FORM);
  },
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The list is asked for the period its revenue covers, and nothing else (it is not paged).
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadList', input: snapshot.context.filters });
    expect(snapshot.context.filters.range).toEqual(RANGE);
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual([ROW]);
    expect(snapshot.context.problem).toBeNull();
  },
  'creating.open': (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    formChecks(snapshot);
  },
  'creating.saving': (snapshot, recording) => {
    // A new location is sent without groups, its coordinates as numbers (none typed: null).
    expect(recording.invoked.at(-1)).toEqual({
      src: 'createItem',
      input: { ...NEW_LOCATION_FIELDS, name: 'Café Soleil', latitude: null, longitude: null },
    });
    expect(snapshot.hasTag('busy')).toBe(true);
  },
  'editing.open': (snapshot) => {
    expect(snapshot.context.selected).toEqual(ROW);
    formChecks(snapshot);
  },
  'editing.saving': (snapshot, recording) => {
    const { id: _id, created_at: _c, updated_at: _u, group_ids: _g, ...fields } = LOCATION;
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateItem',
      input: {
        item: ROW,
        changes: { ...fields, name: snapshot.context.form.name, group_ids: snapshot.context.form.group_ids },
      },
    });
  },
  deleting: (snapshot) => {
    expect(snapshot.context.selected).toEqual(ROW);
  },
  'deleting.confirming': (snapshot) => {
    if (snapshot.context.problem) expect(snapshot.context.problem).toMatchObject({ status: 403 });
  },
  'deleting.removing': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: ROW });
  },
};

const INPUT = { filters: { range: RANGE } };
const model = createTestModel(locationsAdminMachine, { events: SAMPLES, input: INPUT });
const { transitions: paths } = everyTransition(locationsAdminMachine, model);

describe('locations admin machine (model)', () => {
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

  it('reloads the list with a notice after every change', () => {
    const seen = new Set<string>();
    for (const path of paths) {
      const last = path.steps.at(-1)!;
      const done = /^xstate\.done\.actor\.(create|update|delete)Item$/.exec(last.event.type);
      if (!done || !path.steps.at(-2)?.state.hasTag('busy')) continue;
      seen.add(done[1]!);
      expect(last.state.matches({ listing: 'loading' })).toBe(true);
      expect(last.state.context.notice).toBe(`${done[1]}d`);
      expect(last.state.context.form).toEqual(NEW_LOCATION_FORM);
    }
    expect([...seen].sort()).toEqual(['create', 'delete', 'update']);
  });

  it('reloads after a group changed, once the open dialog closes', () => {
    let waited = 0;
    for (const path of paths) {
      const [before, after] = [path.steps.at(-2)?.state, path.steps.at(-1)!];
      if (!before || after.event.type !== 'refresh.due') continue;
      if (before.matches('listing')) expect(after.state.matches({ listing: 'loading' })).toBe(true);
      else {
        waited += 1;
        expect(after.state.context.refreshPending).toBe(true);
      }
    }
    for (const path of paths) {
      const [before, after] = [path.steps.at(-2)?.state, path.steps.at(-1)!];
      if (!before?.context.refreshPending || after.event.type !== 'dialog.close') continue;
      expect(after.state.matches({ listing: 'loading' })).toBe(true);
    }
    expect(waited).toBeGreaterThan(0);
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});

describe('locations admin machine (scenarios)', () => {
  // A group changed on the same screen (its dialog, its delete): the locations' groups load again.
  const browsing = (recording: Recording) => {
    const actor = createActor(start(recording), { input: INPUT }).start();
    actor.send({ type: 'xstate.done.actor.loadList', actorId: 'loadList', output: [ROW] });
    return actor;
  };
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('asks for another period once a dialog left open closes, keeping what it holds', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = browsing(recording);
    actor.send({ type: 'item.edit', item: ROW });
    actor.send({ type: 'filters.change', filters: { range: NEXT_RANGE } });
    expect(actor.getSnapshot().matches({ editing: 'open' })).toBe(true);
    expect(actor.getSnapshot().context.selected).toEqual(ROW);
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().matches({ listing: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context.selected).toBeNull();
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadList', input: { range: NEXT_RANGE } });
    actor.stop();
  });

  it('loads the list again when told a group changed', async () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = browsing(recording);
    actor.send({ type: 'list.refresh' });
    await nextTask();
    expect(actor.getSnapshot().matches({ listing: 'loading' })).toBe(true);
    expect(recording.invoked.map((call) => call.src)).toEqual(['loadList', 'loadList']);
    actor.stop();
  });

  it('keeps an open dialog and loads again once it closes', async () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = browsing(recording);
    actor.send({ type: 'item.edit', item: ROW });
    actor.send({ type: 'field.change', field: 'name', value: 'Harbour Grill' });
    actor.send({ type: 'list.refresh' });
    await nextTask();
    expect(actor.getSnapshot().matches({ editing: 'open' })).toBe(true);
    expect(actor.getSnapshot().context.form.name).toBe('Harbour Grill');
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().matches({ listing: 'loading' })).toBe(true);
    expect(recording.invoked.map((call) => call.src)).toEqual(['loadList', 'loadList']);
    actor.stop();
  });
});

describe('location dialog rules', () => {
  const errorsOf = (form: typeof NEW_LOCATION_FORM) => {
    const result = LocationFormSchema.safeParse(form);
    const errors = result.success ? {} : fieldErrorsOf(result.error);
    // The English messages of spec §5; the codes the views translate are checked below.
    return Object.fromEntries(Object.entries(errors).map(([field, failure]) => [field, failure.message]));
  };

  it('gives each refused field the code its translation needs', () => {
    const result = LocationFormSchema.safeParse({ ...NEW_LOCATION_FORM, name: '', zip: '1' });
    expect(result.success ? {} : fieldErrorsOf(result.error)).toMatchObject({
      name: { code: 'required' },
      zip: { code: 'not_valid' },
    });
  });

  it('checks the location form after spec section 5, every field at once', () => {
    expect(errorsOf({ ...NEW_LOCATION_FORM, name: ' ' })).toEqual({ name: 'Name is required' });
    expect(errorsOf({ ...NEW_LOCATION_FORM, name: 'A', zip: '123456' })).toEqual({
      zip: 'Zip code is not valid',
    });
    expect(errorsOf({ ...NEW_LOCATION_FORM, name: '', latitude: 'north', longitude: '1e' })).toEqual({
      name: 'Name is required',
      latitude: 'Latitude is not valid',
      longitude: 'Longitude is not valid',
    });
  });

  it('sends coordinates as numbers and the edited groups only with an edit', () => {
    const form = { ...NEW_LOCATION_FORM, name: 'A', zip: '02139', latitude: ' 42.36', longitude: '-71.1' };
    expect(LocationFormSchema.parse({ ...form, group_ids: [7] })).toEqual({
      ...NEW_LOCATION_FIELDS,
      name: 'A',
      zip: '02139',
      latitude: 42.36,
      longitude: -71.1,
    });
    expect(LocationEditSchema.parse({ ...form, group_ids: [7] })).toMatchObject({ group_ids: [7] });
  });

  it('joins and leaves only the groups whose membership changed', () => {
    const other = { ...GROUP, id: 8, location_ids: [2, 3] };
    expect(membershipChanges([GROUP, other], 1, [7])).toEqual([]);
    expect(membershipChanges([GROUP, other], 1, [8])).toEqual([
      { groupId: 7, otherLocationIds: [], join: false },
      { groupId: 8, otherLocationIds: [2, 3], join: true },
    ]);
  });
});
