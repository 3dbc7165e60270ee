import { createTestModel } from '@xstate/graph';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  ALL_LOCATIONS,
  currentSelection,
  locationSelectionMachine,
  matchingChoices,
  type LocationChoices,
  type LocationSelection,
  type LocationSelectionEvent,
} from '../../src/machines/location-selection.machine.js';
import type { Location, LocationGroup } from '../../src/schemas/locations.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

function location(id: number, name: string, city: string): Location {
  return {
    id,
    name,
    street: '',
    city,
    state: 'NY',
    zip: '10001',
    latitude: null,
    longitude: null,
    time_zone: 'America/New_York',
    group_ids: [],
    created_at: '2024-05-01T10:00:00.000Z',
    updated_at: '2024-05-01T10:00:00.000Z',
  };
}

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
const CHOICES: LocationChoices = {
  locations: [location(1, 'Harbor Grill', 'Brooklyn'), location(2, 'Café Soleil', 'Queens')],
  groups: [GROUP],
};
// The chosen location and group were deleted elsewhere: the selection falls back to every location.
const EMPTY: LocationChoices = { locations: [], groups: [] };
const STORED: LocationSelection = { kind: 'group', id: 7, name: 'Downtown' };
const PICKED: LocationSelection = { kind: 'location', id: 2, name: 'Café Soleil' };
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: LocationSelectionEvent[] = [
  { type: 'xstate.done.actor.readStoredSelection', actorId: 'readStoredSelection', output: STORED },
  // A stored value the app does not understand (an older shape) falls back to every location.
  { type: 'xstate.done.actor.readStoredSelection', actorId: 'readStoredSelection', output: { id: 'x' } },
  { type: 'xstate.error.actor.readStoredSelection', actorId: 'readStoredSelection', error: new Error('off') },
  { type: 'picker.open' },
  { type: 'picker.close' },
  { type: 'search.change', query: 'soleil' },
  { type: 'choice.select', selection: PICKED },
  { type: 'list.retry' },
  { type: 'choices.changed' },
  { type: 'selection.reset' },
  { type: 'xstate.done.actor.loadChoices', actorId: 'loadChoices', output: CHOICES },
  { type: 'xstate.done.actor.loadChoices', actorId: 'loadChoices', output: EMPTY },
  { type: 'xstate.error.actor.loadChoices', actorId: 'loadChoices', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  locationSelectionMachine.provide({
    actors: {
      readStoredSelection: pendingActor('readStoredSelection', recording),
      loadChoices: pendingActor('loadChoices', recording),
    },
    actions: {
      persistSelection: (_, selection: LocationSelection) =>
        recording.emitted.push({ type: 'persisted', selection }),
      forgetStoredSelection: () => recording.emitted.push({ type: 'forgotten' }),
    },
  });

const checks: StateChecks = {
  restoring: (snapshot, recording) => {
    expect(snapshot.context.selection).toEqual(ALL_LOCATIONS);
    expect(recording.invoked.at(-1)).toEqual({ src: 'readStoredSelection', input: undefined });
  },
  hidden: (snapshot) => {
    expect(snapshot.context.query).toBe('');
    expect([ALL_LOCATIONS, STORED, PICKED]).toContainEqual(snapshot.context.selection);
  },
  visible: (snapshot) => {
    expect(['', 'soleil']).toContain(snapshot.context.query);
  },
  'visible.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadChoices', input: undefined });
  },
  'visible.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ status: 500, code: 'internal' });
  },
  'visible.ready': (snapshot, recording) => {
    const { choices, selection } = snapshot.context;
    expect([CHOICES, EMPTY]).toContainEqual(choices);
    expect(snapshot.context.problem).toBeNull();
    // A choice the lists no longer hold is dropped, and the stored one with it.
    if (choices === EMPTY || (choices as LocationChoices).locations.length === 0) {
      expect(selection).toEqual(ALL_LOCATIONS);
    }
    const stored = recording.emitted.filter((event) => event.type === 'persisted').at(-1);
    if (stored) expect(stored).toEqual({ type: 'persisted', selection });
  },
};

const model = createTestModel(locationSelectionMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(locationSelectionMachine, model);

describe('location selection machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'hidden',
      'restoring',
      'visible.failed',
      'visible.loading',
      'visible.ready',
    ]);
  });

  it('closes the modal and stores the choice whenever one is set', () => {
    for (const path of paths) {
      const last = path.steps.at(-1)!;
      if (last.event.type !== 'choice.select') continue;
      expect(last.state.matches('hidden')).toBe(true);
      expect(last.state.context.selection).toEqual(PICKED);
      const recording = replayPath(path, start, checks);
      expect(recording.emitted.filter((event) => event.type === 'persisted').at(-1)).toEqual({
        type: 'persisted',
        selection: PICKED,
      });
    }
  });

  it('forgets the choice, stored and shown, when the session ends or changes company', () => {
    let resets = 0;
    for (const path of paths) {
      const last = path.steps.at(-1)!;
      if (last.event.type !== 'selection.reset') continue;
      resets += 1;
      expect(last.state.matches('hidden')).toBe(true);
      expect(last.state.context.selection).toEqual(ALL_LOCATIONS);
      expect(last.state.context.choices).toBeNull();
      expect(replayPath(path, start, checks).emitted.at(-1)).toEqual({ type: 'forgotten' });
    }
    expect(resets).toBeGreaterThan(0);
  });

  it('restores the stored choice after a reload', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording)).start();
    actor.send({
      type: 'xstate.done.actor.readStoredSelection',
      actorId: 'readStoredSelection',
      output: STORED,
    } as never);
    expect(actor.getSnapshot().context.selection).toEqual(STORED);
    expect(recording.emitted).toEqual([]);
    actor.stop();
  });

  it('follows a renamed or deleted choice', () => {
    const renamed = { ...CHOICES, groups: [{ ...GROUP, name: 'Old Town' }] };
    expect(currentSelection(STORED, renamed)).toEqual({ ...STORED, name: 'Old Town' });
    expect(currentSelection(PICKED, CHOICES)).toBe(PICKED);
    expect(currentSelection(PICKED, EMPTY)).toEqual(ALL_LOCATIONS);
    expect(currentSelection(ALL_LOCATIONS, EMPTY)).toBe(ALL_LOCATIONS);
  });

  it('filters both lists by name or city, ignoring case and accents', () => {
    expect(matchingChoices(CHOICES, 'CAFE').locations.map((item) => item.id)).toEqual([2]);
    expect(matchingChoices(CHOICES, 'brooklyn').locations.map((item) => item.id)).toEqual([1]);
    expect(matchingChoices(CHOICES, 'down').groups).toEqual([GROUP]);
    expect(matchingChoices(CHOICES, '  ')).toEqual(CHOICES);
    expect(matchingChoices(null, 'x')).toEqual({ locations: [], groups: [] });
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
