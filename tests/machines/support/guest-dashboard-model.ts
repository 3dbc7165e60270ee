import { expect, it } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import type { DashboardEvent, DateRange, NoExtra } from '../../../src/machines/kit/dashboard-machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type ModelPath,
  type Recording,
  type StateChecks,
} from './model-paths.js';
import { everyTransition, groupBy, valueKey, type MachineModel } from './walk.js';

const ALL = { location_id: [], location_group_id: [] };
const HOME = { location_id: [3], location_group_id: [] };
const MARCH: DateRange = { from: '2025-03-01', to: '2025-03-31', preset: 'custom' };
const YEAR: DateRange = { from: '2025-01-01', to: '2025-11-26', preset: 'yearToDate' };
const FAILURE = { status: 500, code: 'unexpected', message: 'Boom', fields: {} };

/** What a guest dashboard's model walk needs: its machine, an answer with figures and one with nothing. */
export interface GuestDashboardFixture<Machine extends AnyStateMachine, Figures> {
  machine: Machine;
  full: Figures;
  quiet: Figures;
}

/** The input every walk starts from: all locations, March 2025. */
export const GUEST_DASHBOARD_INPUT = { filter: ALL, range: MARCH };

/** The events the model tries from a state: each filter flips, the answers full, quiet or failed. */
export function guestDashboardEvents<Figures>(full: Figures, quiet: Figures) {
  return (snapshot: AnyMachineSnapshot): DashboardEvent<Figures, NoExtra>[] => {
    const context = snapshot.context as { filter: unknown; range: DateRange; compare: boolean };
    return [
      { type: 'filter.change', filter: context.filter === ALL ? HOME : ALL },
      { type: 'range.change', range: context.range === MARCH ? YEAR : MARCH },
      { type: 'compare.change', compare: !context.compare },
      { type: 'dashboard.retry' },
      { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: full },
      { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: quiet },
      { type: 'xstate.error.actor.loadFigures', actorId: 'loadFigures', error: FAILURE },
    ];
  };
}

/**
 * The model-based walk of a guest dashboard's machine (tests/machines/*-dashboard.machine.test.ts): every
 * transition from every state, with each state's meaning checked on a real actor — the request carries the
 * current filters, a full answer is `ready`, the quiet one `empty` (the machine's own `isEmpty`), a failure
 * `failed` with its problem, and the last figures stay while the next load runs.
 */
export function walkGuestDashboard<Machine extends AnyStateMachine, Figures>(
  { machine, full, quiet }: GuestDashboardFixture<Machine, Figures>,
  // Made by the test file itself (createTestModel with guestDashboardEvents and GUEST_DASHBOARD_INPUT).
  model: MachineModel<Machine>,
): void {
  const input = GUEST_DASHBOARD_INPUT;
  const start = (recording: Recording) =>
    machine.provide({ actors: { loadFigures: pendingActor('loadFigures', recording) } });
  const checks: StateChecks = {
    loading: (snapshot, recording) => {
      const { filter, range, compare, extra } = snapshot.context;
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(recording.invoked.at(-1)).toEqual({
        src: 'loadFigures',
        input: { filter, range, compare, extra },
      });
    },
    ready: (snapshot) => {
      expect(snapshot.context.figures).toEqual(full);
      expect(snapshot.context.problem).toBeNull();
    },
    empty: (snapshot) => expect(snapshot.context.figures).toEqual(quiet),
    failed: (snapshot) => expect(snapshot.context.problem).toMatchObject({ status: 500 }),
  };
  const { transitions: paths } = everyTransition(machine, model);

  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['empty', 'failed', 'loading', 'ready']);
  });

  it('keeps the figures on screen while a new range loads', () => {
    const found = paths.filter(
      (path) =>
        path.steps.at(-1)?.event.type === 'range.change' &&
        (path.steps.at(-2)?.state as AnyMachineSnapshot | undefined)?.matches('ready'),
    );
    expect(found.length).toBeGreaterThan(0);
    for (const path of found) expect((path.state as AnyMachineSnapshot).context.figures).toEqual(full);
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path as ModelPath, start, checks, input);
    });
  }
}
