import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import {
  recommendationFollowMachine,
  type FollowRequest,
  type RecommendationFollowEvent,
} from '../../src/machines/recommendation-follow.machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type ModelPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const LAPSED: FollowRequest = {
  kind: 'lapsed_regulars',
  name: 'Lapsed regulars at North',
  segment: {
    description: '3+ visits to North, none there in 60+ days',
    location_ids: [],
    group_ids: [],
    segment_groups: [{ segment_rules: [{ type: 'location', operator: 'in', value: [3] }] }],
  },
};
const BIRTHDAYS: FollowRequest = {
  kind: 'birthdays',
  name: 'Birthdays in November',
  segment: {
    description: 'Birthday in the current month',
    location_ids: [3],
    group_ids: [],
    segment_groups: [{ segment_rules: [{ type: 'birthday_month', operator: 'current', value: null }] }],
  },
};
const FORBIDDEN = { status: 403, code: 'forbidden', message: 'Not allowed', fields: {} };

/** The events the model tries: either recommendation, the save's outcomes, dismissing the problem. */
function samples(snapshot: AnyMachineSnapshot): RecommendationFollowEvent[] {
  const following = (snapshot.context as { following: FollowRequest | null }).following;
  return [
    { type: 'recommendation.follow', request: following === LAPSED ? BIRTHDAYS : LAPSED },
    { type: 'problem.dismiss' },
    { type: 'xstate.done.actor.saveSegment', actorId: 'saveSegment', output: { id: 41 } },
    { type: 'xstate.error.actor.saveSegment', actorId: 'saveSegment', error: FORBIDDEN },
  ];
}

const start = (recording: Recording) =>
  recommendationFollowMachine.provide({ actors: { saveSegment: pendingActor('saveSegment', recording) } });

const checks: StateChecks = {
  idle: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.problem).toBeNull();
    expect(recording.emitted.filter((event) => event.type === 'segment.saved')).toEqual([]);
  },
  saving: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The recommendation clicked last, with its segment and name as sent.
    expect(recording.invoked.at(-1)).toEqual({ src: 'saveSegment', input: snapshot.context.following });
    expect(snapshot.context.problem).toBeNull();
  },
  done: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(recording.emitted.filter((event) => event.type === 'segment.saved')).toEqual([
      { type: 'segment.saved', id: 41 },
    ]);
  },
  failed: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.problem).toMatchObject({ status: 403, code: 'forbidden' });
    expect(snapshot.context.following).not.toBeNull();
  },
};

const model = createTestModel(recommendationFollowMachine, { events: samples });
const { transitions: paths } = everyTransition(recommendationFollowMachine, model);

const pathsBy = (eventType: string, from: string) =>
  paths.filter(
    (path) =>
      path.steps.at(-1)?.event.type === eventType &&
      (path.steps.at(-2)?.state as AnyMachineSnapshot | undefined)?.matches(from),
  );

describe('recommendation follow machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['done', 'failed', 'idle', 'saving']);
  });

  it('ignores a second click while the first segment is being saved', () => {
    const found = pathsBy('recommendation.follow', 'saving');
    for (const path of found) {
      const recording = replayPath(path as ModelPath, start, checks);
      expect(recording.invoked.filter((call) => call.src === 'saveSegment')).toHaveLength(1);
    }
  });

  it('follows another recommendation after a refused save', () => {
    const [path] = pathsBy('recommendation.follow', 'failed');
    const recording = replayPath(path as ModelPath, start, checks);
    expect(recording.invoked).toHaveLength(2);
    expect(path!.state.context.following).toEqual(
      (path!.steps.at(-1)!.event as { request: unknown }).request,
    );
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
