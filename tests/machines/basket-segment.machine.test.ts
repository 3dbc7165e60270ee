import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { basketSegmentMachine } from '../../src/machines/basket-segment.machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const BURGER = { name: 'Ordered Burger', itemId: 4, locationIds: [3], windowDays: 30 };
const PIE = { name: 'Ordered Pie', itemId: 9, locationIds: null, windowDays: 7 };
const MARCH = { from: '2025-03-01', to: '2025-03-31', locationIds: [3], dayPart: null };
const DINNERS = { from: '2025-03-01', to: '2025-03-31', locationIds: null, dayPart: 'dinner' as const };
// An empty group's answer: no location to count at.
const NOWHERE = { from: '2025-03-01', to: '2025-03-31', locationIds: [], dayPart: null };
const FAILURE = { status: 400, code: 'invalid', message: 'name is required', fields: {} };
const COUNTED_AT = '2025-03-31T16:00:00.000Z';
const SERVER_DOWN = { status: 503, code: 'unavailable', message: 'Try again later', fields: {} };
const SAMPLES: EventFromLogic<typeof basketSegmentMachine>[] = [
  // Burger (4) and Pie (9) listed; an answer without Burger; an answer without items.
  { type: 'figures.loaded', query: MARCH, itemIds: [4, 9] },
  { type: 'figures.loaded', query: DINNERS, itemIds: [9] },
  { type: 'figures.loaded', query: MARCH, itemIds: [] },
  { type: 'figures.loaded', query: NOWHERE, itemIds: [4] },
  { type: 'item.pick', itemId: 9 },
  { type: 'item.pick', itemId: 4 },
  { type: 'count.retry' },
  {
    type: 'xstate.done.actor.countGuests',
    actorId: 'countGuests',
    output: { guests: 17, countedAt: COUNTED_AT },
  },
  { type: 'xstate.error.actor.countGuests', actorId: 'countGuests', error: SERVER_DOWN },
  { type: 'segment.make', request: BURGER },
  { type: 'segment.make', request: PIE },
  { type: 'problem.dismiss' },
  { type: 'xstate.done.actor.saveSegment', actorId: 'saveSegment', output: { id: 12 } },
  { type: 'xstate.error.actor.saveSegment', actorId: 'saveSegment', error: FAILURE },
];

const start = (recording: Recording) =>
  basketSegmentMachine.provide({
    actors: {
      countGuests: pendingActor('countGuests', recording),
      saveSegment: pendingActor('saveSegment', recording),
    },
  });

const checks: StateChecks = {
  'count.waiting': (snapshot) => {
    expect(snapshot.hasTag('counting')).toBe(false);
    expect(snapshot.context.guests).toBeNull();
    // Nothing to count: no answer yet, one without items, or one at no location.
    const query = snapshot.context.query as { locationIds: number[] | null } | null;
    expect(snapshot.context.itemIds.length === 0 || query?.locationIds?.length === 0).toBe(true);
  },
  'count.counting': (snapshot, recording) => {
    expect(snapshot.hasTag('counting')).toBe(true);
    expect(snapshot.context.guests).toBeNull();
    expect(snapshot.context.countedAt).toBeNull();
    expect(snapshot.context.countProblem).toBeNull();
    // The picked item is one of the answer's, and the count asked is for it, in the answer's range and scope.
    expect(snapshot.context.itemIds).toContain(snapshot.context.itemId);
    const asked = recording.invoked.filter((call) => call.src === 'countGuests').at(-1);
    expect(asked?.input).toEqual({ ...snapshot.context.query, itemId: snapshot.context.itemId });
  },
  'count.counted': (snapshot) => {
    expect(snapshot.hasTag('counting')).toBe(false);
    expect(snapshot.context.guests).toBe(17);
    expect(snapshot.context.countedAt).toBe(COUNTED_AT);
    expect(snapshot.context.itemIds).toContain(snapshot.context.itemId);
  },
  'count.failed': (snapshot) => {
    expect(snapshot.context.guests).toBeNull();
    expect(snapshot.context.countProblem).toMatchObject({ status: 503 });
  },
  'save.idle': (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.request).toBeNull();
  },
  'save.saving': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The item asked first is the one being saved, with its rules' figures as the view gave them.
    const asked = recording.invoked.filter((call) => call.src === 'saveSegment').at(-1);
    expect(asked).toEqual({ src: 'saveSegment', input: snapshot.context.request });
    expect(snapshot.context.problem).toBeNull();
  },
};

const model = createTestModel(basketSegmentMachine, {
  events: SAMPLES,
  serializeState: (snapshot) =>
    JSON.stringify({
      value: snapshot.value,
      query: snapshot.context.query?.dayPart ?? null,
      items: snapshot.context.itemIds,
      item: snapshot.context.itemId,
      request: snapshot.context.request,
      problem: !!snapshot.context.problem,
    }),
});
const { transitions: paths } = everyTransition(basketSegmentMachine, model);

describe('basket segment machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'count.counted',
      'count.counting',
      'count.failed',
      'count.waiting',
      'save.idle',
      'save.saving',
    ]);
  });

  it('keeps the picked item while a new answer lists it, and counts again only when the answer changes it', () => {
    const counts = (recording: Recording) =>
      recording.invoked.filter((call) => call.src === 'countGuests').length;
    for (const path of paths) {
      const before = path.steps.at(-2)?.state;
      const last = path.steps.at(-1)!;
      if (!before || last.event.type !== 'figures.loaded' || last.state.context.itemIds.length === 0)
        continue;
      if (last.event.query.locationIds?.length === 0) continue;
      const kept =
        before.context.itemId !== null && last.state.context.itemIds.includes(before.context.itemId);
      expect(last.state.context.itemId).toBe(kept ? before.context.itemId : last.state.context.itemIds[0]);
      // The same range, locations and day part with the pick still listed keeps a count under way or done; any
      // other answer counts again, even while a count is under way.
      const unchanged =
        kept &&
        JSON.stringify(before.context.query) === JSON.stringify(last.event.query) &&
        (before.matches({ count: 'counting' }) || before.matches({ count: 'counted' }));
      const earlier = replayPath({ ...path, steps: path.steps.slice(0, -1) }, start, checks);
      const now = replayPath(path, start, checks);
      expect(counts(now)).toBe(counts(earlier) + (unchanged ? 0 : 1));
      if (unchanged) expect(last.state.context.guests).toBe(before.context.guests);
    }
  });

  it('counts the picked item again on a pick or a retry, and never drops a save under way', () => {
    for (const path of paths) {
      const before = path.steps.at(-2)?.state;
      const last = path.steps.at(-1)!;
      if (!before) continue;
      if (before.matches({ save: 'saving' })) {
        const settled = ['xstate.done.actor.saveSegment', 'xstate.error.actor.saveSegment'];
        if (!settled.includes(last.event.type)) expect(last.state.matches({ save: 'saving' })).toBe(true);
      }
      if (last.event.type === 'item.pick' && before.context.itemIds.includes(last.event.itemId)) {
        expect(last.state.matches({ count: 'counting' })).toBe(true);
        expect(last.state.context.itemId).toBe(last.event.itemId);
      }
      if (last.event.type === 'count.retry' && before.matches({ count: 'failed' })) {
        expect(last.state.matches({ count: 'counting' })).toBe(true);
      }
    }
  });

  it('announces the new segment once saved, and keeps why a save failed until dismissed', () => {
    for (const path of paths) {
      const before = path.steps.at(-2)?.state;
      const last = path.steps.at(-1)!;
      if (!before?.matches({ save: 'saving' })) continue;
      const recording = replayPath(path, start, checks);
      if (last.event.type === 'xstate.done.actor.saveSegment') {
        expect(recording.emitted.at(-1)).toEqual({ type: 'segment.saved', id: 12 });
      }
      if (last.event.type === 'xstate.error.actor.saveSegment') {
        expect(last.state.context.problem).toMatchObject({ status: 400, code: 'invalid' });
        expect(recording.emitted.filter((event) => event.type === 'segment.saved')).toEqual([]);
      }
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
