import { createTestModel } from '@xstate/graph';
import { describe, expect, it, vi } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import {
  homeDashboardMachine,
  homeIsCounting,
  homeIsEmpty,
  type HomeFigures,
} from '../../src/machines/home-dashboard.machine.js';
import {
  COUNTING_POLL_MS,
  type DashboardContext,
  type DashboardEvent,
  type DateRange,
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
  home: {
    ...ranges,
    kpis: kpis(10),
    previous_kpis: null,
    recommendations: [],
    audiences_counted_at: null,
    audiences_counting: false,
  },
};
// No checks yet, and the audiences still being counted on the server: not empty, and asked again.
const COUNTING: HomeFigures = { ...BUSY, home: { ...BUSY.home, kpis: kpis(0), audiences_counting: true } };
const QUIET: HomeFigures = {
  chart: { ...ranges, charts: [{ name: 'revenue', data: [{ x: MONTH.from, y: 0 }] }], emails: 0, revenue: 0 },
  home: {
    ...ranges,
    kpis: kpis(0),
    previous_kpis: null,
    recommendations: [],
    audiences_counted_at: null,
    audiences_counting: false,
  },
};
const FAILURE = { status: 500, code: 'unexpected', message: 'Boom', fields: {} };

function samples(snapshot: AnyMachineSnapshot): DashboardEvent<HomeFigures, Record<string, never>>[] {
  const context = snapshot.context as Context;
  return [
    { type: 'filter.change', filter: context.filter === ALL ? NORTH : ALL },
    { type: 'range.change', range: context.range === MONTH ? WEEK : MONTH },
    { type: 'compare.change', compare: !context.compare },
    { type: 'dashboard.retry' },
    { type: 'counting.due' },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: BUSY },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: COUNTING },
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
  counting: (snapshot) => {
    // Shown as ready (not busy), with the answer whose audiences are still being counted.
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.hasTag('counting')).toBe(true);
    expect(snapshot.context.figures).toEqual(COUNTING);
  },
  recounting: (snapshot, recording) => {
    const context = snapshot.context as Context;
    // Asks again quietly, with the same filters, keeping the counting answer on screen.
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.hasTag('counting')).toBe(true);
    expect(context.figures).toEqual(COUNTING);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFigures',
      input: { filter: context.filter, range: context.range, compare: context.compare, extra: {} },
    });
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
    expect(reachedStates(paths)).toEqual(['counting', 'empty', 'failed', 'loading', 'ready', 'recounting']);
  });

  it('asks again after the pause while audiences are being counted, and stops once they are', () => {
    vi.useFakeTimers();
    try {
      const recording: Recording = { invoked: [], emitted: [] };
      const actor = createActor(start(recording), { input: INPUT }).start();
      const asked = () => recording.invoked.filter((call) => call.src === 'loadFigures').length;
      actor.send({ type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: COUNTING });
      expect(asked()).toBe(1);
      vi.advanceTimersByTime(COUNTING_POLL_MS - 1);
      expect(asked()).toBe(1);
      vi.advanceTimersByTime(1);
      expect(asked()).toBe(2);
      actor.send({ type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: BUSY });
      vi.advanceTimersByTime(COUNTING_POLL_MS * 5);
      expect(asked()).toBe(2);
      expect((actor.getSnapshot() as AnyMachineSnapshot).matches('ready')).toBe(true);
      // A new range while counting: the pause is dropped, and only the new range's answer is asked for.
      actor.send({ type: 'range.change', range: WEEK });
      actor.send({ type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: COUNTING });
      actor.send({ type: 'range.change', range: MONTH });
      vi.advanceTimersByTime(COUNTING_POLL_MS * 5);
      expect(asked()).toBe(4);
      expect((actor.getSnapshot() as AnyMachineSnapshot).matches('loading')).toBe(true);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('is empty only without checks, without recommendations and with none being counted', () => {
    expect(homeIsEmpty(QUIET)).toBe(true);
    expect(homeIsEmpty(BUSY)).toBe(false);
    const lapsed = { ...QUIET.home, recommendations: [{} as never] };
    expect(homeIsEmpty({ ...QUIET, home: lapsed })).toBe(false);
    expect(homeIsEmpty(COUNTING)).toBe(false);
    expect(homeIsCounting(COUNTING)).toBe(true);
    expect(homeIsCounting(BUSY)).toBe(false);
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
