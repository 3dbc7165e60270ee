import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import {
  CONSUMER_INSIGHTS_EXTRA,
  consumerInsightsIsEmpty,
  consumerInsightsMachine,
  type ConsumerInsightsExtra,
} from '../../src/machines/consumer-insights.machine.js';
import type {
  DashboardContext,
  DashboardEvent,
  DateRange,
} from '../../src/machines/kit/dashboard-machine.js';
import type { ConsumerInsights } from '../../src/schemas/consumer-insights.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

type Context = DashboardContext<ConsumerInsights, ConsumerInsightsExtra>;

const ALL = { location_id: [], location_group_id: [] };
const HOME = { location_id: [3], location_group_id: [] };
const MONTH: DateRange = { from: '2026-11-01', to: '2026-11-27', preset: 'thisMonth' };
const WEEK: DateRange = { from: '2026-11-20', to: '2026-11-26', preset: 'last7' };
const INPUT = { filter: ALL, range: MONTH };
const insightsOf = (checks: number): ConsumerInsights => ({
  range: { from: MONTH.from, to: MONTH.to },
  previous: null,
  totals: {
    checks,
    revenue: checks * 40,
    covers: checks * 2,
    average_check: checks ? 40 : null,
    average_party: checks ? 2 : null,
  },
  previous_totals: null,
  hours: [],
  party_sizes: [],
  day_parts: [],
  previous_day_parts: null,
  visit_gaps: { visits: 0, median_days: null, buckets: [] },
  previous_visit_gaps: null,
  segments: [{ id: 7, name: 'Regulars' }],
  categories: { segment_id: null, guests: 0, units: 0, revenue: 0, all_units: 0, all_revenue: 0, rows: [] },
});
const BUSY = insightsOf(90);
const QUIET = insightsOf(0);
const FAILURE = { status: 404, code: 'not_found', message: 'Segment not found', fields: {} };

/** The events tried from a state: each filter flips to another value, and the call's three outcomes. */
function samples(snapshot: AnyMachineSnapshot): DashboardEvent<ConsumerInsights, ConsumerInsightsExtra>[] {
  const context = snapshot.context as Context;
  return [
    { type: 'filter.change', filter: context.filter === ALL ? HOME : ALL },
    { type: 'range.change', range: context.range === MONTH ? WEEK : MONTH },
    { type: 'compare.change', compare: !context.compare },
    { type: 'extra.change', extra: { segmentId: context.extra.segmentId === null ? 7 : null } },
    { type: 'dashboard.retry' },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: BUSY },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: QUIET },
    { type: 'xstate.error.actor.loadFigures', actorId: 'loadFigures', error: FAILURE },
  ];
}

const start = (recording: Recording) =>
  consumerInsightsMachine.provide({ actors: { loadFigures: pendingActor('loadFigures', recording) } });

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    const context = snapshot.context as Context;
    expect(snapshot.hasTag('busy')).toBe(true);
    // Every request carries the locations, range, comparison and segment as they are now.
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFigures',
      input: { filter: context.filter, range: context.range, compare: context.compare, extra: context.extra },
    });
  },
  ready: (snapshot) => {
    expect(snapshot.context.figures).toEqual(BUSY);
    expect(snapshot.context.problem).toBeNull();
  },
  empty: (snapshot) => {
    // No check in the range: the view says why from the figures it keeps.
    expect((snapshot.context as Context).figures!.totals.checks).toBe(0);
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ status: 404, code: 'not_found' });
  },
};

const model = createTestModel(consumerInsightsMachine, {
  events: samples,
  input: INPUT,
  serializeState: (snapshot) => {
    const context = snapshot.context;
    return JSON.stringify({
      value: snapshot.value,
      filter: context.filter,
      range: context.range.preset,
      compare: context.compare,
      extra: context.extra,
      checks: context.figures?.totals.checks ?? null,
    });
  },
});
const { transitions: paths } = everyTransition(consumerInsightsMachine, model);

describe('consumer insights machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['empty', 'failed', 'loading', 'ready']);
  });

  it('starts with every guest and is empty only without checks', () => {
    expect(CONSUMER_INSIGHTS_EXTRA).toEqual({ segmentId: null });
    expect(consumerInsightsIsEmpty(QUIET)).toBe(true);
    expect(consumerInsightsIsEmpty(BUSY)).toBe(false);
  });

  it('keeps the figures on screen while another segment loads', () => {
    const found = paths.filter(
      (path) =>
        path.steps.at(-1)?.event.type === 'extra.change' &&
        (path.steps.at(-2)?.state as AnyMachineSnapshot | undefined)?.matches('ready'),
    );
    expect(found.length).toBeGreaterThan(0);
    for (const path of found) {
      expect((path.state as AnyMachineSnapshot).matches('loading')).toBe(true);
      expect((path.state as AnyMachineSnapshot).context.figures).toEqual(BUSY);
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});
