import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import {
  homeDashboardMachine,
  homeIsEmpty,
  type HomeFigures,
} from '../../src/machines/home-dashboard.machine.js';
import type {
  DashboardContext,
  DashboardEvent,
  DateRange,
} from '../../src/machines/kit/dashboard-machine.js';
import type { HomeKpis } from '../../src/schemas/home-dashboard.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type ModelPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

type Context = DashboardContext<HomeFigures, Record<string, never>>;

const ALL = { location_id: [], location_group_id: [] };
const NORTH = { location_id: [3], location_group_id: [] };
const MONTH: DateRange = { from: '2026-10-27', to: '2026-11-25', preset: 'last30' };
const WEEK: DateRange = { from: '2026-11-19', to: '2026-11-25', preset: 'last7' };
const INPUT = { filter: ALL, range: MONTH };
const ranges = { range: { from: MONTH.from, to: MONTH.to }, previous: null };
const kpis = (checks: number): HomeKpis => ({
  revenue: checks * 25,
  checks,
  guests: checks,
  average_check: checks > 0 ? 25 : null,
  new_guests: 0,
  returning_guests: checks,
});
const BUSY: HomeFigures = {
  chart: {
    ...ranges,
    charts: [{ name: 'revenue', data: [{ x: MONTH.from, y: 250 }] }],
    emails: 3,
    revenue: 250,
  },
  home: { ...ranges, kpis: kpis(10), previous_kpis: null, recommendations: [], audiences_counted_at: null },
};
const QUIET: HomeFigures = {
  chart: { ...ranges, charts: [{ name: 'revenue', data: [{ x: MONTH.from, y: 0 }] }], emails: 0, revenue: 0 },
  home: { ...ranges, kpis: kpis(0), previous_kpis: null, recommendations: [], audiences_counted_at: null },
};
const FAILURE = { status: 500, code: 'unexpected', message: 'Boom', fields: {} };

function samples(snapshot: AnyMachineSnapshot): DashboardEvent<HomeFigures, Record<string, never>>[] {
  const context = snapshot.context as Context;
  return [
    { type: 'filter.change', filter: context.filter === ALL ? NORTH : ALL },
    { type: 'range.change', range: context.range === MONTH ? WEEK : MONTH },
    { type: 'compare.change', compare: !context.compare },
    { type: 'dashboard.retry' },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: BUSY },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: QUIET },
    { type: 'xstate.error.actor.loadFigures', actorId: 'loadFigures', error: FAILURE },
  ];
}

const start = (recording: Recording) =>
  homeDashboardMachine.provide({ actors: { loadFigures: pendingActor('loadFigures', recording) } });

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    const context = snapshot.context as Context;
    expect(snapshot.hasTag('busy')).toBe(true);
    // Both calls are asked with the filters as they are now.
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFigures',
      input: { filter: context.filter, range: context.range, compare: context.compare, extra: {} },
    });
  },
  ready: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.figures).toEqual(BUSY);
  },
  empty: (snapshot) => {
    expect(snapshot.context.figures).toEqual(QUIET);
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ status: 500 });
  },
};

const model = createTestModel(homeDashboardMachine, { events: samples, input: INPUT });
const { transitions: paths } = everyTransition(homeDashboardMachine, model);

describe('home dashboard machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['empty', 'failed', 'loading', 'ready']);
  });

  it('is empty only without checks and without recommendations', () => {
    expect(homeIsEmpty(QUIET)).toBe(true);
    expect(homeIsEmpty(BUSY)).toBe(false);
    const lapsed = { ...QUIET.home, recommendations: [{} as never] };
    expect(homeIsEmpty({ ...QUIET, home: lapsed })).toBe(false);
  });

  it('asks again with the new range when it changes, keeping the last figures on screen', () => {
    const found = paths.filter(
      (path) =>
        path.steps.at(-1)?.event.type === 'range.change' &&
        (path.steps.at(-2)?.state as AnyMachineSnapshot | undefined)?.matches('ready'),
    );
    expect(found.length).toBeGreaterThan(0);
    for (const path of found) {
      const recording = replayPath(path as ModelPath, start, checks, INPUT);
      expect(path.state.context.figures).toEqual(BUSY);
      expect((recording.invoked.at(-1)!.input as { range: DateRange }).range).toEqual(
        path.state.context.range,
      );
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});
