import { createTestModel } from '@xstate/graph';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  locationRequestOf,
  membershipChanges,
  locationsAdminMachine,
  NEW_LOCATION_FORM,
  type LocationsAdminEvent,
  type LocationsOverview,
} from '../../src/machines/locations-admin.machine.js';
import type { Location, LocationGroup } from '../../src/schemas/locations.js';
import {
  describePath,
  pendingActor,
  reachedStates,
  type ModelPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const RANGE = { from_date: '2024-04-01', to_date: '2024-04-30' };
const NEXT_RANGE = { from_date: '2024-03-01', to_date: '2024-03-31' };

const LOCATION: Location = {
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
const OVERVIEW: LocationsOverview = {
  locations: [LOCATION],
  groups: [GROUP],
  roi: {
    ...RANGE,
    results: [
      {
        location_id: 1,
        name: 'Harbor Grill',
        revenue: 12345.6,
        checks: 310,
        guests: 200,
        returning_guests: 80,
        average_check: 39.82,
      },
    ],
  },
};
const { group_ids: _groups, ...NEW_LOCATION_FORM_FIELDS } = NEW_LOCATION_FORM;
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const BAD_ZIP = {
  status: 400,
  code: 'validation_failed',
  message: 'The request has invalid fields',
  fields: { zip: 'Zip code is not valid' },
};
const FORBIDDEN = { status: 403, code: 'role_forbidden', message: 'This needs the admin role or higher' };

const SAMPLES: LocationsAdminEvent[] = [
  { type: 'list.retry' },
  { type: 'range.change', range: NEXT_RANGE },
  // The end before the start is refused without a call.
  { type: 'range.change', range: { from_date: '2024-05-02', to_date: '2024-05-01' } },
  { type: 'groups.changed', created: true },
  { type: 'location.add' },
  { type: 'location.edit', location: LOCATION },
  { type: 'location.delete', location: LOCATION },
  { type: 'group.delete', group: GROUP },
  // A name makes a new location valid; a 4-digit zip makes any location invalid (spec section 5).
  { type: 'field.change', field: 'name', value: 'Café Soleil' },
  { type: 'field.change', field: 'zip', value: '1234' },
  // Editing Harbor Grill: leaving its only group.
  { type: 'groups.pick', groupIds: [] },
  { type: 'dialog.submit' },
  { type: 'dialog.close' },
  { type: 'delete.confirm' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.loadOverview', actorId: 'loadOverview', output: OVERVIEW },
  { type: 'xstate.error.actor.loadOverview', actorId: 'loadOverview', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createLocation', actorId: 'createLocation', output: LOCATION },
  { type: 'xstate.error.actor.createLocation', actorId: 'createLocation', error: BAD_ZIP },
  { type: 'xstate.done.actor.updateLocation', actorId: 'updateLocation', output: LOCATION },
  { type: 'xstate.error.actor.updateLocation', actorId: 'updateLocation', error: BAD_ZIP },
  { type: 'xstate.done.actor.deleteLocation', actorId: 'deleteLocation', output: null },
  { type: 'xstate.error.actor.deleteLocation', actorId: 'deleteLocation', error: FORBIDDEN },
  { type: 'xstate.done.actor.deleteGroup', actorId: 'deleteGroup', output: null },
  { type: 'xstate.error.actor.deleteGroup', actorId: 'deleteGroup', error: FORBIDDEN },
];

const start = (recording: Recording) =>
  locationsAdminMachine.provide({
    actors: {
      loadOverview: pendingActor('loadOverview', recording),
      createLocation: pendingActor('createLocation', recording),
      updateLocation: pendingActor('updateLocation', recording),
      deleteLocation: pendingActor('deleteLocation', recording),
      deleteGroup: pendingActor('deleteGroup', recording),
    },
  });

const checks: StateChecks = {
  listing: (snapshot) => {
    expect(snapshot.context.location).toBeNull();
    expect(snapshot.context.group).toBeNull();
    expect(snapshot.context.fieldErrors).toEqual({});
  },
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadOverview', input: snapshot.context.range });
    expect([RANGE, NEXT_RANGE]).toContainEqual(snapshot.context.range);
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.overview).toEqual(OVERVIEW);
    expect(snapshot.context.problem).toBeNull();
  },
  editingLocation: (snapshot) => {
    expect(snapshot.context.group).toBeNull();
  },
  'editingLocation.open': (snapshot) => {
    const { context } = snapshot;
    if (context.fieldErrors.zip) expect(context.fieldErrors.zip).toBe('Zip code is not valid');
    if (context.fieldErrors.name) {
      expect(context.form.name).toBe('');
      expect(context.fieldErrors.name).toBe('Name is required');
    }
  },
  'editingLocation.creating': (snapshot, recording) => {
    expect(snapshot.context.location).toBeNull();
    expect(recording.invoked.at(-1)).toEqual({
      src: 'createLocation',
      input: {
        ...NEW_LOCATION_FORM_FIELDS,
        name: 'Café Soleil',
        latitude: null,
        longitude: null,
      },
    });
  },
  'editingLocation.updating': (snapshot, recording) => {
    const { id, created_at: _c, updated_at: _u, group_ids: _g, ...fields } = LOCATION;
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateLocation',
      input: {
        id,
        changes: { ...fields, name: snapshot.context.form.name },
        memberships: snapshot.context.form.group_ids.includes(GROUP.id)
          ? []
          : [{ groupId: GROUP.id, otherLocationIds: [], join: false }],
      },
    });
  },
  deletingLocation: (snapshot) => {
    expect(snapshot.context.location).toEqual(LOCATION);
  },
  'deletingLocation.confirming': (snapshot) => {
    if (snapshot.context.problem) expect(snapshot.context.problem).toMatchObject({ status: 403 });
  },
  'deletingLocation.removing': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteLocation', input: LOCATION.id });
  },
  deletingGroup: (snapshot) => {
    expect(snapshot.context.group).toEqual(GROUP);
  },
  'deletingGroup.confirming': (snapshot) => {
    if (snapshot.context.problem) expect(snapshot.context.problem).toMatchObject({ status: 403 });
  },
  'deletingGroup.removing': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteGroup', input: GROUP.id });
  },
};

/** Runs a path on a real actor started with the range (the machine takes input), like replayPath. */
function replay(path: ModelPath): Recording {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), { input: { range: RANGE } }).start();
  try {
    for (const step of path.steps) {
      if (step.event.type !== 'xstate.init') actor.send(step.event as LocationsAdminEvent);
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      const keys = Object.keys(checks).filter((key) => snapshot.matches(key));
      expect(keys, `no check gives ${JSON.stringify(snapshot.value)} a meaning`).not.toEqual([]);
      for (const key of keys) checks[key]!(snapshot, recording);
    }
  } catch (error) {
    if (error instanceof Error) error.message = `${describePath(path)}: ${error.message}`;
    throw error;
  } finally {
    actor.stop();
  }
  return recording;
}

const model = createTestModel(locationsAdminMachine, { events: SAMPLES, input: { range: RANGE } });
const { transitions: paths } = everyTransition(locationsAdminMachine, model);

describe('locations admin machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'deletingGroup.confirming',
      'deletingGroup.removing',
      'deletingLocation.confirming',
      'deletingLocation.removing',
      'editingLocation.creating',
      'editingLocation.open',
      'editingLocation.updating',
      'listing.browsing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('reloads the lists with a notice after every change', () => {
    const notices: Record<string, string> = {
      'xstate.done.actor.createLocation': 'locationCreated',
      'xstate.done.actor.updateLocation': 'locationUpdated',
      'xstate.done.actor.deleteLocation': 'locationDeleted',
      'xstate.done.actor.deleteGroup': 'groupDeleted',
    };
    const seen = new Set<string>();
    for (const path of paths) {
      const last = path.steps.at(-1)!;
      const before = path.steps.at(-2)?.state;
      if (!(last.event.type in notices) || !before?.hasTag('busy')) continue;
      seen.add(last.event.type);
      expect(last.state.matches({ listing: 'loading' })).toBe(true);
      expect(last.state.context.notice).toBe(notices[last.event.type]);
      expect(last.state.context.form).toEqual(NEW_LOCATION_FORM);
    }
    expect([...seen].sort()).toEqual(Object.keys(notices).sort());
  });

  it('joins and leaves only the groups whose membership changed', () => {
    const other = { ...GROUP, id: 8, location_ids: [2, 3] };
    expect(membershipChanges([GROUP, other], 1, [7])).toEqual([]);
    expect(membershipChanges([GROUP, other], 1, [8])).toEqual([
      { groupId: 7, otherLocationIds: [], join: false },
      { groupId: 8, otherLocationIds: [2, 3], join: true },
    ]);
  });

  it('checks the location form after spec section 5', () => {
    expect(locationRequestOf({ ...NEW_LOCATION_FORM, name: ' ' })).toEqual({
      ok: false,
      fieldErrors: { name: 'Name is required' },
    });
    expect(locationRequestOf({ ...NEW_LOCATION_FORM, name: 'A', zip: '123456' })).toMatchObject({
      ok: false,
      fieldErrors: { zip: 'Zip code is not valid' },
    });
    expect(locationRequestOf({ ...NEW_LOCATION_FORM, name: 'A', latitude: 'north' })).toMatchObject({
      ok: false,
      fieldErrors: { latitude: 'Latitude is not valid' },
    });
    expect(
      locationRequestOf({
        ...NEW_LOCATION_FORM,
        name: 'A',
        zip: '02139',
        latitude: '42.36',
        longitude: '-71.1',
      }),
    ).toMatchObject({ ok: true, location: { zip: '02139', latitude: 42.36, longitude: -71.1 } });
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replay(path);
    });
  }
});
