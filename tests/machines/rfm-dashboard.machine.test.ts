import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import {
  afterOf,
  rfmDashboardMachine,
  type RfmDashboardContext,
  type RfmDashboardEvent,
} from '../../src/machines/rfm-dashboard.machine.js';
import type { Guest } from '../../src/schemas/guests.js';
import type { RfmDashboard, RfmGuestsPage } from '../../src/schemas/rfm.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type ModelPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const ALL = { location_id: [], location_group_id: [] };
const HOME = { location_id: [3], location_group_id: [] };
const INPUT = { filter: ALL };

const DASHBOARD: RfmDashboard = {
  computed_at: '2026-11-26T03:00:00.000Z',
  totals: { guests: 3, revenue: 120, clv: 80 },
  grid: [{ r: 5, f: 5, cell: 'champions', guests: 3 }],
  cells: [],
};

function guest(id: number): Guest {
  return {
    id,
    hashid: `h${id}`,
    pos_id: `P-${id}`,
    customer_name: `Guest ${id}`,
    last_four_digits: '1234',
    first_location_id: 3,
    visit_count: 4,
    total_spend: 40,
    first_visit_at: null,
    last_visit_at: null,
    is_subscriber: false,
    email_consent: 'none' as Guest['email_consent'],
    created_at: '2026-01-01T00:00:00.000Z',
  };
}
const FIRST_PAGE: RfmGuestsPage = {
  count: 3,
  next: '/api/benchmark/rfm-dashboard/guests/?cell=champions&after=2',
  previous: null,
  results: [guest(1), guest(2)],
};
const LAST_PAGE: RfmGuestsPage = { count: 3, next: null, previous: null, results: [guest(3)] };
const FAILURE = { status: 500, code: 'unexpected', message: 'Boom', fields: {} };
const NAME_TAKEN = {
  status: 400,
  code: 'validation_failed',
  message: 'The request has invalid fields',
  fields: { name: 'name is too long' },
  fieldProblems: { name: { code: 'not_valid' } },
};

/** The events the model tries from a state: the next page is the first or the last, as the guests so far say. */
function samples(snapshot: AnyMachineSnapshot): RfmDashboardEvent[] {
  const context = snapshot.context as RfmDashboardContext;
  return [
    { type: 'filter.change', filter: context.filter === ALL ? HOME : ALL },
    { type: 'dashboard.retry' },
    { type: 'cell.open', cell: 'champions', name: 'Champions' },
    { type: 'cell.open', cell: 'lost', name: 'Lost' },
    { type: 'cell.close' },
    { type: 'guests.more' },
    { type: 'guests.retry' },
    { type: 'guest.open', guest: guest(1) },
    { type: 'segment.nameChange', value: '' },
    { type: 'segment.save' },
    { type: 'xstate.done.actor.loadDashboard', actorId: 'loadDashboard', output: DASHBOARD },
    { type: 'xstate.error.actor.loadDashboard', actorId: 'loadDashboard', error: FAILURE },
    {
      type: 'xstate.done.actor.loadGuests',
      actorId: 'loadGuests',
      output: context.guests.length === 0 ? FIRST_PAGE : LAST_PAGE,
    },
    { type: 'xstate.error.actor.loadGuests', actorId: 'loadGuests', error: FAILURE },
    { type: 'xstate.done.actor.saveSegment', actorId: 'saveSegment', output: { id: 41 } },
    { type: 'xstate.error.actor.saveSegment', actorId: 'saveSegment', error: NAME_TAKEN },
  ];
}

const start = (recording: Recording) =>
  rfmDashboardMachine.provide({
    actors: {
      loadDashboard: pendingActor('loadDashboard', recording),
      loadGuests: pendingActor('loadGuests', recording),
      saveSegment: pendingActor('saveSegment', recording),
    },
  });

const lastCall = (recording: Recording) => recording.invoked.at(-1);

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The dashboard is asked for the filter the screen sent last, and no cell stays open over another filter.
    expect(lastCall(recording)).toEqual({ src: 'loadDashboard', input: snapshot.context.filter });
    expect(snapshot.context.cell).toBeNull();
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ status: 500, code: 'unexpected' });
    expect(snapshot.context.cell).toBeNull();
  },
  ready: (snapshot) => {
    expect(snapshot.context.dashboard).toEqual(DASHBOARD);
  },
  'ready.overview': (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.cell).toBeNull();
    expect(snapshot.context.guests).toEqual([]);
  },
  'ready.cell': (snapshot, recording) => {
    const context = snapshot.context as RfmDashboardContext;
    expect(context.cell).not.toBeNull();
    // A guest chosen is announced for the screen to open, as it was.
    for (const emitted of recording.emitted.filter((event) => event.type === 'guest.opened')) {
      expect(emitted).toEqual({ type: 'guest.opened', guest: guest(1) });
    }
  },
  'ready.cell.loadingGuests': (snapshot, recording) => {
    const context = snapshot.context as RfmDashboardContext;
    expect(snapshot.hasTag('busy')).toBe(true);
    // The next page follows the keyset of the guests so far, over the dashboard's filter.
    expect(lastCall(recording)).toEqual({
      src: 'loadGuests',
      input: { cell: context.cell, filter: context.filter, after: context.guests.length === 0 ? null : 2 },
    });
  },
  'ready.cell.showing': (snapshot) => {
    const context = snapshot.context as RfmDashboardContext;
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(context.guests.map((row) => row.id)).toEqual([1, 2, 3].slice(0, context.guests.length));
    expect(context.nextAfter).toBe(context.guests.length === 2 ? 2 : null);
    expect(context.guestsCount).toBe(3);
    if (context.saveProblem?.code === 'name_required') expect(context.segmentName.trim()).toBe('');
  },
  'ready.cell.guestsFailed': (snapshot) => {
    expect(snapshot.context.guestsProblem).toMatchObject({ status: 500 });
  },
  'ready.cell.saving': (snapshot, recording) => {
    const context = snapshot.context as RfmDashboardContext;
    expect(snapshot.hasTag('busy')).toBe(true);
    // The cell with the picked locations, under the name as typed (trimmed), never empty.
    expect(lastCall(recording)).toEqual({
      src: 'saveSegment',
      input: { name: context.segmentName.trim(), cell: context.cell, filter: context.filter },
    });
    expect(context.segmentName.trim()).not.toBe('');
  },
};

const model = createTestModel(rfmDashboardMachine, { events: samples, input: INPUT });
const { transitions: paths } = everyTransition(rfmDashboardMachine, model);

/** The paths whose last step is this event, taken from this state. */
const pathsBy = (eventType: string, from: object | string) =>
  paths.filter(
    (path) =>
      path.steps.at(-1)?.event.type === eventType &&
      (path.steps.at(-2)?.state as AnyMachineSnapshot | undefined)?.matches(from),
  );

describe('RFM dashboard machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'failed',
      'loading',
      'ready.cell.guestsFailed',
      'ready.cell.loadingGuests',
      'ready.cell.saving',
      'ready.cell.showing',
      'ready.overview',
    ]);
  });

  it('reads the next page’s cursor from the link', () => {
    expect(afterOf(FIRST_PAGE.next)).toBe(2);
    expect(afterOf(null)).toBeNull();
  });

  it('opens a cell with its name to start from and its first page of guests', () => {
    const [path] = pathsBy('cell.open', { ready: 'overview' });
    const recording = replayPath(path as ModelPath, start, checks, INPUT);
    expect(path!.state.context.segmentName).toBe((path!.steps.at(-1)!.event as { name: string }).name);
    expect(lastCall(recording)).toMatchObject({ src: 'loadGuests', input: { after: null } });
  });

  it('refuses to save without a name, before any call', () => {
    const found = pathsBy('segment.save', { ready: { cell: 'showing' } }).filter(
      (path) => path.steps.at(-2)!.state.context.segmentName === '',
    );
    expect(found.length).toBeGreaterThan(0);
    for (const path of found) {
      const recording = replayPath(path, start, checks, INPUT);
      expect(path.state.context.saveProblem?.fields.name?.code).toBe('required');
      expect(recording.invoked.some((call) => call.src === 'saveSegment')).toBe(false);
    }
  });

  it('announces the saved segment’s id once, and keeps a refused save’s field problem', () => {
    const [saved] = pathsBy('xstate.done.actor.saveSegment', { ready: { cell: 'saving' } });
    const recording = replayPath(saved as ModelPath, start, checks, INPUT);
    expect(recording.emitted.filter((event) => event.type === 'segment.saved')).toEqual([
      { type: 'segment.saved', id: 41 },
    ]);
    const [refused] = pathsBy('xstate.error.actor.saveSegment', { ready: { cell: 'saving' } });
    expect(refused!.state.context.saveProblem?.fields.name?.message).toBe('name is too long');
  });

  it('loads the dashboard again and closes the cell when the filter changes', () => {
    const [path] = pathsBy('filter.change', { ready: { cell: 'showing' } });
    const recording = replayPath(path as ModelPath, start, checks, INPUT);
    expect(path!.state.matches('loading')).toBe(true);
    expect(lastCall(recording)).toEqual({ src: 'loadDashboard', input: path!.state.context.filter });
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});
