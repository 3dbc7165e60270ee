import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  supportReplayMachine,
  type SupportReplayEvent,
  type ReplaySource,
} from '../../src/machines/support-replay.machine.js';
import { LogParseError } from '../../src/replay/replay.js';
import { ReplayTimeline, type TimelineStep, visibleIndices } from '../../src/replay/steps.js';
import type { SupportEventLog } from '../../src/schemas/support.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const UNAVAILABLE = { status: 503, code: 'unavailable', message: 'Try again later' };

const LOG: SupportEventLog = {
  id: 4,
  company_id: 1,
  company_name: 'Demo',
  user_id: 2,
  user_name: 'Dana Whitfield',
  user_email: 'dana@demo.example',
  actor_user_id: null,
  actor_name: null,
  actor_email: null,
  created_at: '2026-01-01T10:00:00Z',
  entry_count: 3,
  byte_size: 300,
};

function step(index: number, actor: string, previous: number | null): TimelineStep {
  return {
    index,
    seq: index + 1,
    at: 1000 + index,
    actor,
    machine: actor.split('#')[0]!,
    event: index === previous ? 'xstate.init' : 'go',
    value: 'idle',
    status: 'active',
    context: { n: index },
    previous,
  };
}

/** Three steps: a, b, a — so the filter changes what "next" means. */
const TIMELINE = new ReplayTimeline(
  [step(0, 'a#1', null), step(1, 'b#2', null), step(2, 'a#1', 0)],
  ['a#1', 'b#2'],
  [],
);
const EMPTY = new ReplayTimeline([], [], []);

const FILE: ReplaySource = { kind: 'file', name: 'log.jsonl', file: new Blob(['']) };
const CAPTURED: ReplaySource = { kind: 'captured', id: 4, company: 'Demo' };

const SAMPLES: SupportReplayEvent[] = [
  { type: 'source.load', source: FILE },
  { type: 'source.load', source: { kind: 'page' } },
  { type: 'source.load', source: CAPTURED },
  { type: 'source.choose' },
  { type: 'logs.retry' },
  { type: 'step.first' },
  { type: 'step.previous' },
  { type: 'step.next' },
  { type: 'step.last' },
  { type: 'step.select', index: 1 },
  { type: 'filter.actor', actor: 'a#1' },
  { type: 'filter.actor', actor: null },
  { type: 'xstate.done.actor.listLogs', actorId: 'listLogs', output: [LOG] },
  { type: 'xstate.error.actor.listLogs', actorId: 'listLogs', error: UNAVAILABLE },
  { type: 'xstate.done.actor.loadReplay', actorId: 'loadReplay', output: TIMELINE },
  { type: 'xstate.done.actor.loadReplay', actorId: 'loadReplay', output: EMPTY },
  {
    type: 'xstate.error.actor.loadReplay',
    actorId: 'loadReplay',
    error: new LogParseError(3, 'not valid JSON'),
  },
  { type: 'xstate.error.actor.loadReplay', actorId: 'loadReplay', error: UNAVAILABLE },
];

/** The machine with pending calls that record their input. */
const start = (recording: Recording) =>
  supportReplayMachine.provide({
    actors: {
      listLogs: pendingActor('listLogs', recording),
      loadReplay: pendingActor('loadReplay', recording),
    },
  });

const checks: StateChecks = {
  'choosing.listing': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)?.src).toBe('listLogs');
  },
  'choosing.listed': (snapshot) => {
    expect(snapshot.context.logs).toEqual([LOG]);
    expect(snapshot.context.listProblem).toBeNull();
  },
  'choosing.listFailed': (snapshot) => {
    expect(snapshot.context.listProblem).toMatchObject({ status: 503, code: 'unavailable' });
  },
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.timeline).toBeNull();
    expect(snapshot.context.problem).toBeNull();
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadReplay', input: snapshot.context.source });
  },
  viewing: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    const { timeline, actor, index } = snapshot.context;
    expect(timeline).toBe(TIMELINE);
    expect(visibleIndices(timeline, actor)).toContain(index);
  },
  empty: (snapshot) => {
    expect(snapshot.context.timeline?.steps).toEqual([]);
  },
  failed: (snapshot) => {
    const { problem } = snapshot.context;
    if (problem?.kind === 'parse')
      expect(problem).toEqual({ kind: 'parse', line: 3, message: 'not valid JSON' });
    else expect(problem).toMatchObject({ kind: 'api', status: 503, code: 'unavailable' });
  },
};

const model = createTestModel(supportReplayMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(supportReplayMachine, model);

describe('support replay machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'choosing.listFailed',
      'choosing.listed',
      'choosing.listing',
      'empty',
      'failed',
      'loading',
      'viewing',
    ]);
  });

  it('lists once per entry into listing and loads once per entry into loading', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const entered = (name: 'loading' | { choosing: 'listing' }) =>
        path.steps.filter(
          (item, index) =>
            item.state.matches(name) &&
            (index === 0 ||
              !path.steps[index - 1]!.state.matches(name) ||
              item.event.type === 'source.load' ||
              item.event.type === 'logs.retry'),
        ).length;
      expect(recording.invoked.filter((call) => call.src === 'listLogs')).toHaveLength(
        entered({ choosing: 'listing' }),
      );
      expect(recording.invoked.filter((call) => call.src === 'loadReplay')).toHaveLength(entered('loading'));
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});

describe('support replay machine (stepping)', () => {
  const viewing = () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording)).start();
    actor.send({ type: 'source.load', source: { kind: 'page' } });
    actor.send({ type: 'xstate.done.actor.loadReplay', actorId: 'loadReplay', output: TIMELINE });
    return actor;
  };

  it('moves through every step, clamped at both ends', () => {
    const actor = viewing();
    expect(actor.getSnapshot().context.index).toBe(0);
    actor.send({ type: 'step.previous' });
    expect(actor.getSnapshot().context.index).toBe(0);
    actor.send({ type: 'step.next' });
    expect(actor.getSnapshot().context.index).toBe(1);
    actor.send({ type: 'step.last' });
    expect(actor.getSnapshot().context.index).toBe(2);
    actor.send({ type: 'step.next' });
    expect(actor.getSnapshot().context.index).toBe(2);
    actor.send({ type: 'step.first' });
    expect(actor.getSnapshot().context.index).toBe(0);
    actor.stop();
  });

  it("steps over other actors' steps under a filter and ignores selecting a hidden one", () => {
    const actor = viewing();
    actor.send({ type: 'step.select', index: 1 });
    actor.send({ type: 'filter.actor', actor: 'a#1' });
    // The selected step is hidden: the first shown one is selected.
    expect(actor.getSnapshot().context.index).toBe(0);
    actor.send({ type: 'step.next' });
    expect(actor.getSnapshot().context.index).toBe(2);
    actor.send({ type: 'step.select', index: 1 });
    expect(actor.getSnapshot().context.index).toBe(2);
    actor.send({ type: 'filter.actor', actor: null });
    expect(actor.getSnapshot().context.index).toBe(2);
    actor.stop();
  });

  it('starts a new load from any state and forgets the previous replay', () => {
    const actor = viewing();
    actor.send({ type: 'step.last' });
    actor.send({ type: 'source.load', source: CAPTURED });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context).toMatchObject({ source: CAPTURED, timeline: null, index: 0 });
    actor.stop();
  });
});
