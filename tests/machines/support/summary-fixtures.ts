import { expect, it } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import type {
  DashboardContext,
  DashboardEvent,
  DateRange,
} from '../../../src/machines/kit/dashboard-machine.js';
import type { AnalyticsSummary } from '../../../src/schemas/analytics-summary.js';
import { pendingActor, reachedStates, replayPath, type Recording, type StateChecks } from './model-paths.js';
import { everyTransition, groupBy, valueKey, type MachineModel } from './walk.js';

// The Summary and Overview machines are the dashboard kit's with one answer shape: the same model walks both.

type Context = DashboardContext<AnalyticsSummary, Record<string, never>>;

const ALL = { location_id: [], location_group_id: [] };
const HARBOUR = { location_id: [4], location_group_id: [] };
const MONTH: DateRange = { from: '2026-10-27', to: '2026-11-25', preset: 'last30' };
const WEEK: DateRange = { from: '2026-11-19', to: '2026-11-25', preset: 'last7' };

/** The input both dashboards start from in the model. */
export const SUMMARY_INPUT = { filter: ALL, range: MONTH };

const totals = (checks: number) => ({
  revenue: checks * 31.5,
  checks,
  guests: Math.ceil(checks / 2),
  average_check: checks === 0 ? 0 : 31.5,
  new_guests: 0,
  returning_guests: Math.ceil(checks / 2),
});
const answer = (checks: number): AnalyticsSummary => ({
  range: { from: MONTH.from, to: MONTH.to },
  previous: null,
  interval: 'day',
  totals: totals(checks),
  previous_totals: null,
  series: [{ period: MONTH.from, revenue: checks * 31.5, checks }],
  locations: [],
});
const BUSY = answer(12);
const QUIET = answer(0);
const FAILURE = { status: 404, code: 'not_found', message: 'Location not found', fields: {} };

/** The events the model tries: each filter flips, both answers and a failure. */
export function summarySamples(
  snapshot: AnyMachineSnapshot,
): DashboardEvent<AnalyticsSummary, Record<string, never>>[] {
  const context = snapshot.context as Context;
  return [
    { type: 'filter.change', filter: context.filter === ALL ? HARBOUR : ALL },
    { type: 'range.change', range: context.range === MONTH ? WEEK : MONTH },
    { type: 'compare.change', compare: !context.compare },
    { type: 'dashboard.retry' },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: BUSY },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: QUIET },
    { type: 'xstate.error.actor.loadFigures', actorId: 'loadFigures', error: FAILURE },
  ];
}

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    const context = snapshot.context as Context;
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFigures',
      input: { filter: context.filter, range: context.range, compare: context.compare, extra: {} },
    });
  },
  ready: (snapshot) => expect(snapshot.context.figures).toEqual(BUSY),
  // No checks in the range: the view's sentence "No checks in this range at these locations".
  empty: (snapshot) => expect((snapshot.context as Context).figures?.totals.checks).toBe(0),
  failed: (snapshot) => expect(snapshot.context.problem).toMatchObject({ status: 404, code: 'not_found' }),
};

/** The model's tests of one of the two machines: every state reached, every transition keeps its meaning. */
export function walkSummaryModel<Machine extends AnyStateMachine>(
  machine: Machine,
  model: MachineModel<Machine>,
) {
  const { transitions: paths } = everyTransition(machine, model);
  const start = (recording: Recording) =>
    machine.provide({
      actors: { loadFigures: pendingActor('loadFigures', recording) },
    } as never) as AnyStateMachine;

  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['empty', 'failed', 'loading', 'ready']);
  });

  it('asks again for the new locations, range or comparison from every state', () => {
    for (const path of paths) {
      const type = path.steps.at(-1)!.event.type;
      if (['filter.change', 'range.change', 'compare.change'].includes(type)) {
        expect((path.state as AnyMachineSnapshot).matches('loading')).toBe(true);
      }
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, SUMMARY_INPUT);
    });
  }
}
