import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyMachineSnapshot } from 'xstate';
import {
  dashboardMachine,
  type DashboardContext,
  type DashboardEvent,
  type DashboardRequest,
  type DateRange,
} from '../../src/machines/kit/dashboard-machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type ModelPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

// A dashboard of a restaurant group's covers, with one filter of its own (the day part), on the kit.

interface Covers {
  covers: number;
}
interface CoverExtra {
  dayPart: string;
}
type Context = DashboardContext<Covers, CoverExtra>;

const coversMachine = dashboardMachine<Covers, CoverExtra>({
  id: 'coversDashboard',
  isEmpty: (figures) => figures.covers === 0,
  extra: { dayPart: 'all' },
});

const ALL = { location_id: [], location_group_id: [] };
const HOME = { location_id: [3], location_group_id: [] };
const NOVEMBER: DateRange = { from: '2026-10-27', to: '2026-11-25', preset: 'last30' };
const WEEK: DateRange = { from: '2026-11-19', to: '2026-11-25', preset: 'last7' };
const INPUT = { filter: ALL, range: NOVEMBER };
const BUSY: Covers = { covers: 412 };
const QUIET: Covers = { covers: 0 };
const FAILURE = { status: 500, code: 'unexpected', message: 'Boom', fields: {} };

/** The events the model tries from a state: each filter flips to its other value. */
function samples(snapshot: AnyMachineSnapshot): DashboardEvent<Covers, CoverExtra>[] {
  const context = snapshot.context as Context;
  return [
    { type: 'filter.change', filter: context.filter === ALL ? HOME : ALL },
    { type: 'range.change', range: context.range === NOVEMBER ? WEEK : NOVEMBER },
    { type: 'compare.change', compare: !context.compare },
    { type: 'extra.change', extra: { dayPart: context.extra.dayPart === 'all' ? 'dinner' : 'all' } },
    { type: 'dashboard.retry' },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: BUSY },
    { type: 'xstate.done.actor.loadFigures', actorId: 'loadFigures', output: QUIET },
    { type: 'xstate.error.actor.loadFigures', actorId: 'loadFigures', error: FAILURE },
  ];
}

const start = (recording: Recording) =>
  coversMachine.provide({ actors: { loadFigures: pendingActor('loadFigures', recording) } });

const requestOf = (context: Context): DashboardRequest<CoverExtra> => ({
  filter: context.filter,
  range: context.range,
  compare: context.compare,
  extra: context.extra,
});

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The figures are asked for with every filter as it is now.
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFigures',
      input: requestOf(snapshot.context as Context),
    });
  },
  ready: (snapshot) => {
    const context = snapshot.context as Context;
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(context.figures).toEqual(BUSY);
    expect(context.problem).toBeNull();
  },
  empty: (snapshot) => {
    const context = snapshot.context as Context;
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(context.figures).toEqual(QUIET);
    expect(context.problem).toBeNull();
  },
  failed: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.problem).toMatchObject({ status: 500, code: 'unexpected' });
  },
};

const model = createTestModel(coversMachine, { events: samples, input: INPUT });
const { transitions: paths } = everyTransition(coversMachine, model);

/** The paths whose last step is this event, taken from this state. */
const pathsBy = (eventType: string, from: string) =>
  paths.filter(
    (path) =>
      path.steps.at(-1)?.event.type === eventType &&
      (path.steps.at(-2)?.state as AnyMachineSnapshot | undefined)?.matches(from),
  );

describe('dashboard kit machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['empty', 'failed', 'loading', 'ready']);
  });

  it('starts with the comparison on unless the input turns it off', () => {
    expect(createActor(coversMachine, { input: INPUT }).getSnapshot().context.compare).toBe(true);
    const off = createActor(coversMachine, { input: { ...INPUT, compare: false } });
    expect(off.getSnapshot().context.compare).toBe(false);
  });

  it('keeps the last figures on screen while the next ones load', () => {
    const found = pathsBy('range.change', 'ready');
    expect(found.length).toBeGreaterThan(0);
    for (const path of found) {
      replayPath(path as ModelPath, start, checks, INPUT);
      expect(path.state.matches('loading')).toBe(true);
      expect(path.state.context.figures).toEqual(BUSY);
    }
  });

  it('merges a change of its own filters into the rest', () => {
    const [path] = pathsBy('extra.change', 'ready');
    const recording = replayPath(path as ModelPath, start, checks, INPUT);
    expect(recording.invoked.at(-1)?.input).toMatchObject({ extra: { dayPart: 'dinner' } });
  });

  it('retries only after a failure', () => {
    expect(pathsBy('dashboard.retry', 'failed').every((path) => path.state.matches('loading'))).toBe(true);
    for (const from of ['ready', 'empty'] as const) {
      for (const path of pathsBy('dashboard.retry', from)) expect(path.state.matches(from)).toBe(true);
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});

describe('dashboard kit machine (overlapping requests)', () => {
  it('drops the answer of a request a newer change replaced', async () => {
    const answers: ((figures: Covers) => void)[] = [];
    const actor = createActor(
      coversMachine.provide({
        actors: {
          loadFigures: fromPromise<Covers, DashboardRequest<CoverExtra>>(
            () => new Promise<Covers>((resolve) => answers.push(resolve)),
          ),
        },
      }),
      { input: INPUT },
    ).start();
    actor.send({ type: 'range.change', range: WEEK });
    expect(answers).toHaveLength(2);
    // The month's answer arrives after the week was asked for: it must not land.
    answers[0]!({ covers: 999 });
    await Promise.resolve();
    await Promise.resolve();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    answers[1]!(BUSY);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.figures).toEqual(BUSY);
    expect(actor.getSnapshot().context.range).toEqual(WEEK);
    actor.stop();
  });
});
