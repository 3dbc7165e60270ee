import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import {
  basketAnalyticsMachine,
  BASKET_EXTRA,
  type BasketExtra,
} from '../../src/machines/basket-analytics.machine.js';
import type {
  DashboardContext,
  DashboardEvent,
  DateRange,
} from '../../src/machines/kit/dashboard-machine.js';
import type { Basket } from '../../src/schemas/basket-analytics.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

type Context = DashboardContext<Basket, BasketExtra>;

const ALL = { location_id: [], location_group_id: [] };
const HOME = { location_id: [3], location_group_id: [] };
const MONTH: DateRange = { from: '2026-11-01', to: '2026-11-27', preset: 'thisMonth' };
const WEEK: DateRange = { from: '2026-11-20', to: '2026-11-26', preset: 'last7' };
const INPUT = { filter: ALL, range: MONTH };
const totals = (checks: number) => ({
  checks,
  units: checks * 2,
  revenue: checks * 12.5,
  guests: Math.floor(checks / 2),
  units_per_check: checks ? 2 : 0,
  multi_item_rate: checks ? 40 : 0,
});
const basketOf = (checks: number): Basket => ({
  range: { from: MONTH.from, to: MONTH.to },
  previous: null,
  totals: totals(checks),
  previous_totals: null,
  min_support: 1,
  day_part: null,
  items: [],
  item_limit: 100,
  categories: [],
  pairs: [],
  pair_item_limit: 40,
  pair_limit: 300,
  segment: { location_ids: null, window_days: 27, reason: 'ok' },
});
const SOLD = basketOf(120);
const NOTHING = basketOf(0);
const FAILURE = { status: 400, code: 'invalid', message: 'min_support is not valid', fields: {} };

/** The events tried from a state: each filter flips to another value, and the call's three outcomes. */
function samples(snapshot: AnyMachineSnapshot): DashboardEvent<Basket, BasketExtra>[] {
  const context = snapshot.context as Context;
  return [
    { type: 'filter.change', filter: context.filter === ALL ? HOME : ALL },
    { type: 'range.change', range: context.range === MONTH ? WEEK : MONTH },
    { type: 'extra.change', extra: { minSupport: context.extra.minSupport === 1 ? 2.5 : 1 } },
    { type: 'extra.change', extra: { dayPart: context.extra.dayPart === null ? 'dinner' : null } },
    { type: 'dashboard.retry' },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: SOLD },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: NOTHING },
    { type: 'xstate.error.actor.loadFigures', actorId: 'loadFigures', error: FAILURE },
  ];
}

const start = (recording: Recording) =>
  basketAnalyticsMachine.provide({ actors: { loadFigures: pendingActor('loadFigures', recording) } });

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    const context = snapshot.context as Context;
    expect(snapshot.hasTag('busy')).toBe(true);
    // Every request carries the minimum support and day part as they are now.
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFigures',
      input: { filter: context.filter, range: context.range, compare: context.compare, extra: context.extra },
    });
  },
  ready: (snapshot) => {
    expect(snapshot.context.figures).toEqual(SOLD);
    expect(snapshot.context.problem).toBeNull();
  },
  empty: (snapshot) => {
    // No check in the range: the view says why from the figures it keeps.
    expect((snapshot.context as Context).figures!.totals.checks).toBe(0);
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ status: 400, code: 'invalid' });
  },
};

const model = createTestModel(basketAnalyticsMachine, {
  events: samples,
  input: INPUT,
  serializeState: (snapshot) => {
    const context = snapshot.context;
    return JSON.stringify({
      value: snapshot.value,
      filter: context.filter,
      range: context.range.preset,
      extra: context.extra,
      checks: context.figures?.totals.checks ?? null,
    });
  },
});
const { transitions: paths } = everyTransition(basketAnalyticsMachine, model);

describe('basket analytics machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['empty', 'failed', 'loading', 'ready']);
  });

  it('starts with a minimum support of 0.1% over the whole day', () => {
    expect(BASKET_EXTRA).toEqual({ minSupport: 0.1, dayPart: null });
  });

  it('changes one filter of its own and keeps the other', () => {
    for (const path of paths) {
      const last = path.steps.at(-1)!;
      const before = path.steps.at(-2)?.state.context;
      if (last.event.type !== 'extra.change' || !before) continue;
      const after = last.state.context;
      expect(after.extra).toEqual({
        ...before.extra,
        ...(last.event as { extra: Partial<BasketExtra> }).extra,
      });
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});
