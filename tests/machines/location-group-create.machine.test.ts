import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  locationGroupCreateMachine,
  NEW_GROUP_FORM,
  type LocationGroupEvent,
} from '../../src/machines/location-group-create.machine.js';
import type { LocationGroup } from '../../src/schemas/locations.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const GROUP: LocationGroup = {
  id: 7,
  name: 'Downtown',
  description: 'City centre',
  location_ids: [1, 2],
  revenue: null,
  checks: null,
  created_at: '2024-05-01T10:00:00.000Z',
  updated_at: '2024-05-01T10:00:00.000Z',
};
const NEW_GROUP: LocationGroup = { ...GROUP, id: 8, name: 'Uptown', description: '', location_ids: [3] };
const NAME_TAKEN = {
  status: 409,
  code: 'conflict',
  message: 'A record with these values already exists',
  fields: { name: 'Name is already in use' },
  fieldProblems: { name: { code: 'in_use' } },
};
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: LocationGroupEvent[] = [
  { type: 'dialog.open' },
  { type: 'dialog.open', group: GROUP },
  { type: 'dialog.close' },
  // A name makes a new group valid; a blank one makes an edited group invalid.
  { type: 'field.change', field: 'name', value: 'Uptown' },
  { type: 'field.change', field: 'name', value: '' },
  { type: 'members.change', locationIds: [3, 3] },
  { type: 'dialog.submit' },
  { type: 'xstate.done.actor.createGroup', actorId: 'createGroup', output: NEW_GROUP },
  { type: 'xstate.error.actor.createGroup', actorId: 'createGroup', error: NAME_TAKEN },
  { type: 'xstate.done.actor.updateGroup', actorId: 'updateGroup', output: GROUP },
  { type: 'xstate.error.actor.updateGroup', actorId: 'updateGroup', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  locationGroupCreateMachine.provide({
    actors: {
      createGroup: pendingActor('createGroup', recording),
      updateGroup: pendingActor('updateGroup', recording),
    },
  });

const checks: StateChecks = {
  hidden: (snapshot) => {
    expect(snapshot.context.group).toBeNull();
    expect(snapshot.context.form).toEqual(NEW_GROUP_FORM);
    expect(snapshot.context.fieldErrors).toEqual({});
  },
  'visible.editing': (snapshot) => {
    const { context } = snapshot;
    // The schema's message while the name is blank; the server's when it refused the name.
    if (context.fieldErrors.name && context.form.name === '') {
      expect(context.fieldErrors.name).toMatchObject({ code: 'required', message: 'Name is required' });
    } else if (context.fieldErrors.name) {
      expect(context.fieldErrors.name).toMatchObject({ code: 'in_use', message: 'Name is already in use' });
    }
    if (context.problem) expect(['conflict', 'internal']).toContain(context.problem.code);
  },
  'visible.saving': (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(true);
  },
  'visible.saving.creating': (snapshot, recording) => {
    const { form } = snapshot.context;
    expect(snapshot.context.group).toBeNull();
    expect(recording.invoked.at(-1)).toEqual({
      src: 'createGroup',
      input: { name: form.name, description: form.description, location_ids: form.location_ids },
    });
  },
  'visible.saving.updating': (snapshot, recording) => {
    const { form } = snapshot.context;
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateGroup',
      input: {
        id: GROUP.id,
        group: { name: form.name, description: form.description, location_ids: form.location_ids },
      },
    });
  },
};

const model = createTestModel(locationGroupCreateMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(locationGroupCreateMachine, model);

describe('location group create machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'hidden',
      'visible.editing',
      'visible.saving.creating',
      'visible.saving.updating',
    ]);
  });

  it('closes and tells the lists to refresh after every save, and only then', () => {
    for (const path of paths) {
      const last = path.steps.at(-1)!;
      const recording = replayPath(path, start, checks);
      const done = /^xstate\.done\.actor\.(create|update)Group$/.exec(last.event.type);
      const before = path.steps.at(-2)?.state;
      if (done && before?.hasTag('busy')) {
        expect(last.state.matches('hidden')).toBe(true);
        expect(recording.emitted).toEqual([
          {
            type: 'group.saved',
            group: done[1] === 'create' ? NEW_GROUP : GROUP,
            created: done[1] === 'create',
          },
        ]);
      } else {
        expect(recording.emitted).toEqual([]);
      }
    }
  });

  it('keeps each member once', () => {
    const members = paths
      .map((path) => path.state.context.form.location_ids)
      .filter((ids) => ids.includes(3));
    expect(members.length).toBeGreaterThan(0);
    for (const ids of members) expect(ids.filter((id) => id === 3)).toHaveLength(1);
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
