import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/machines/kit/list-machine.js';
import { locationGroupsMachine } from '../../src/machines/location-groups.machine.js';
import type { LocationsFilters } from '../../src/machines/locations-admin.machine.js';
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
const GROUP: LocationGroup = {
  id: 7,
  name: 'Downtown',
  description: '',
  location_ids: [1],
  revenue: 1200.5,
  checks: 31,
  created_at: '2024-05-01T10:00:00.000Z',
  updated_at: '2024-05-01T10:00:00.000Z',
};
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const FORBIDDEN = { status: 403, code: 'role_forbidden', message: 'This needs the admin role or higher' };

const SAMPLES: EventFromLogic<typeof locationGroupsMachine>[] = [
  { type: 'list.retry' },
  { type: 'filters.change', filters: { range: NEXT_RANGE } },
  // The group dialog saved a group: the list loads again and says so.
  { type: 'list.refresh', notice: 'created' },
  { type: 'refresh.due' },
  { type: 'item.delete', item: GROUP },
  { type: 'delete.confirm' },
  { type: 'dialog.close' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: [GROUP] },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: FORBIDDEN },
];

const start = (recording: Recording) =>
  locationGroupsMachine.provide({
    actors: {
      loadList: pendingActor<LocationGroup[], ListQuery<LocationsFilters>>('loadList', recording),
      deleteItem: pendingActor('deleteItem', recording),
    },
    // The path sends the refresh's event itself.
    delays: { refreshDelay: 2 ** 30 },
  });

const checks: StateChecks = {
  listing: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
  },
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // Each group's revenue is asked for the period the screen shows.
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadList', input: snapshot.context.filters });
    expect([RANGE, NEXT_RANGE]).toContainEqual(snapshot.context.filters.range);
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual([GROUP]);
    expect(snapshot.context.problem).toBeNull();
  },
  deleting: (snapshot) => {
    expect(snapshot.context.selected).toEqual(GROUP);
  },
  'deleting.confirming': (snapshot) => {
    if (snapshot.context.problem) expect(snapshot.context.problem).toMatchObject({ status: 403 });
  },
  'deleting.removing': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: GROUP });
  },
};

const INPUT = { filters: { range: RANGE } };
const model = createTestModel(locationGroupsMachine, { events: SAMPLES, input: INPUT });
const { transitions: paths } = everyTransition(locationGroupsMachine, model);

describe('location groups machine (model)', () => {
  it('reaches every state, and no dialog of its own (groups are saved in the group dialog)', () => {
    expect(reachedStates(paths)).toEqual([
      'deleting.confirming',
      'deleting.removing',
      'listing.browsing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('reloads with a notice after a delete, and after the group dialog saved', () => {
    let deleted = 0;
    let saved = 0;
    for (const path of paths) {
      const [before, after] = [path.steps.at(-2)?.state, path.steps.at(-1)!];
      if (!before) continue;
      if (after.event.type === 'xstate.done.actor.deleteItem' && before.matches({ deleting: 'removing' })) {
        deleted += 1;
        expect(after.state.matches({ listing: 'loading' })).toBe(true);
        expect(after.state.context.notice).toBe('deleted');
      }
      if (after.event.type === 'list.refresh') {
        saved += 1;
        expect(after.state.context.notice).toBe('created');
      }
      if (after.event.type === 'refresh.due') {
        expect(after.state.matches({ listing: 'loading' }) || after.state.context.refreshPending).toBe(true);
      }
    }
    expect(deleted).toBeGreaterThan(0);
    expect(saved).toBeGreaterThan(0);
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});
