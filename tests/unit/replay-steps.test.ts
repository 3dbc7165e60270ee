import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { MACHINES } from '../../src/machines/registry.js';
import type { ReplayEntry } from '../../src/replay/replay.js';
import {
  buildTimeline,
  compactJson,
  diffContext,
  plain,
  stepChanges,
  visibleIndices,
} from '../../src/replay/steps.js';

const UNAVAILABLE = { status: 503, code: 'unavailable', message: 'Try again later' };

/** A support-menu session (failed send, then a sent one), an unknown machine and an actor whose start is gone. */
const ENTRIES: ReplayEntry[] = [
  {
    seq: 1,
    at: 1000,
    actor: 'supportLog#1',
    machine: 'supportLog',
    event: { type: 'xstate.init', input: {} },
  },
  { seq: 2, at: 1010, actor: 'ghost#2', machine: 'ghost', event: { type: 'xstate.init' } },
  { seq: 3, at: 1020, actor: 'supportLog#1', machine: 'supportLog', event: { type: 'log.send' } },
  {
    seq: 4,
    at: 1030,
    actor: 'supportLog#1',
    machine: 'supportLog',
    event: { type: 'xstate.error.actor.sendLog', error: UNAVAILABLE },
  },
  { seq: 5, at: 1040, actor: 'hijack#3', machine: 'hijack', event: { type: 'search.retry' } },
  { seq: 6, at: 1050, actor: 'supportLog#1', machine: 'supportLog', event: { type: 'log.send' } },
  {
    seq: 7,
    at: 1060,
    actor: 'supportLog#1',
    machine: 'supportLog',
    event: { type: 'xstate.done.actor.sendLog', output: { id: 12 } },
  },
];

describe('replay timeline', () => {
  const timeline = buildTimeline(ENTRIES, MACHINES);

  it("keeps each step's state and context and links it to the same actor's previous step", () => {
    expect(timeline.steps.map((step) => [step.seq, step.value, step.previous])).toEqual([
      [1, 'idle', null],
      [2, null, null],
      [3, 'sending', 0],
      [4, 'failed', 2],
      [5, null, null],
      [6, 'sending', 3],
      [7, 'sent', 5],
    ]);
    expect(timeline.steps[3]!.context).toEqual({
      sentId: null,
      problem: { status: 503, code: 'unavailable', message: 'Try again later', fields: {} },
    });
    expect(timeline.steps[6]!.context).toEqual({ sentId: 12, problem: null });
    expect(timeline.steps[1]!.context).toBeNull();
  });

  it('lists the actors in order of appearance and the ones it could not replay, with the reason', () => {
    expect(timeline.actors).toEqual(['supportLog#1', 'ghost#2', 'hijack#3']);
    expect(timeline.broken).toEqual([
      { actor: 'ghost#2', machine: 'ghost', reason: "unknown machine 'ghost'" },
      { actor: 'hijack#3', machine: 'hijack', reason: 'its start is no longer in the log' },
    ]);
  });

  it("shows every step or one actor's", () => {
    expect(visibleIndices(timeline, null)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(visibleIndices(timeline, 'supportLog#1')).toEqual([0, 2, 3, 5, 6]);
    expect(visibleIndices(timeline, 'nobody')).toEqual([]);
  });

  it("diffs each step's context against the actor's previous step", () => {
    const problemAfterFailure = (timeline.steps[3]!.context as { problem: unknown }).problem;
    expect(stepChanges(timeline, 0)).toEqual([
      { path: 'sentId', kind: 'added', after: null },
      { path: 'problem', kind: 'added', after: null },
    ]);
    expect(stepChanges(timeline, 2)).toEqual([]);
    expect(stepChanges(timeline, 3)).toEqual([
      { path: 'problem', kind: 'changed', before: null, after: problemAfterFailure },
    ]);
    expect(stepChanges(timeline, 5)).toEqual([
      { path: 'problem', kind: 'changed', before: problemAfterFailure, after: null },
    ]);
    expect(stepChanges(timeline, 6)).toEqual([{ path: 'sentId', kind: 'changed', before: null, after: 12 }]);
    expect(stepChanges(timeline, 1)).toEqual([]);
  });

  it('gives an empty timeline for an empty log', () => {
    const empty = buildTimeline([], MACHINES);
    expect(empty.steps).toEqual([]);
    expect(empty.actors).toEqual([]);
  });
});

describe('context diff', () => {
  it('names added, removed and changed paths, nested and in arrays', () => {
    expect(
      diffContext(
        { a: 1, list: [1, 2], nested: { x: 'old', gone: true }, same: { k: [1] } },
        { a: 2, list: [1, 2, 3], nested: { x: 'new', fresh: null }, same: { k: [1] } },
      ),
    ).toEqual([
      { path: 'a', kind: 'changed', before: 1, after: 2 },
      { path: 'list.2', kind: 'added', after: 3 },
      { path: 'nested.x', kind: 'changed', before: 'old', after: 'new' },
      { path: 'nested.gone', kind: 'removed', before: true },
      { path: 'nested.fresh', kind: 'added', after: null },
    ]);
  });

  it('treats a change of kind as one change, and equal values as none', () => {
    expect(diffContext({ a: [1] }, { a: { 0: 1 } })).toEqual([
      { path: 'a', kind: 'changed', before: [1], after: { 0: 1 } },
    ]);
    expect(diffContext(1, 'one')).toEqual([{ path: '(context)', kind: 'changed', before: 1, after: 'one' }]);
    expect(diffContext({ a: { b: 1 } }, { a: { b: 1 } })).toEqual([]);
  });
});

describe('plain values', () => {
  it('turns actor references, functions, dates and cycles into text', () => {
    const child = createActor(createMachine({ id: 'child' }));
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    expect(
      plain({
        ref: child,
        run: () => 1,
        when: new Date(0),
        cycle,
        skip: undefined,
        list: [undefined, 1],
      }),
    ).toEqual({
      ref: `[ref ${child.id}]`,
      run: '[function]',
      when: '1970-01-01T00:00:00.000Z',
      cycle: { name: 'loop', self: '[circular]' },
      list: [null, 1],
    });
  });

  it('writes compact JSON, cut to a length', () => {
    expect(compactJson({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
    expect(compactJson(undefined)).toBe('undefined');
    expect(compactJson('x'.repeat(20), 10)).toBe(`"${'x'.repeat(8)}…`);
  });
});
