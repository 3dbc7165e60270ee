import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { campaignDuplicateMachine } from '../../src/machines/campaign-duplicate.machine.js';
import { DRAFT, SERVER_DOWN, SUMMARY } from './support/campaign-fixtures.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const COPY = { ...DRAFT, id: 42, name: 'Copy of Spring menu' };

const SAMPLES: EventFromLogic<typeof campaignDuplicateMachine>[] = [
  { type: 'campaign.duplicate', campaign: SUMMARY, name: 'Copy of Spring menu' },
  { type: 'problem.dismiss' },
  { type: 'xstate.done.actor.duplicateCampaign', actorId: 'duplicateCampaign', output: COPY },
  { type: 'xstate.error.actor.duplicateCampaign', actorId: 'duplicateCampaign', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  campaignDuplicateMachine.provide({
    actors: { duplicateCampaign: pendingActor('duplicateCampaign', recording) },
  });

const checks: StateChecks = {
  idle: (snapshot) => {
    // A failed copy keeps what it tried, for its message; a copy made leaves nothing behind.
    if (snapshot.context.problem) {
      expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
      expect(snapshot.context.request).toEqual({ campaign: SUMMARY, name: 'Copy of Spring menu' });
    } else expect(snapshot.context.request).toBeNull();
  },
  duplicating: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'duplicateCampaign',
      input: { campaign: SUMMARY, name: 'Copy of Spring menu' },
    });
  },
};

const model = createTestModel(campaignDuplicateMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(campaignDuplicateMachine, model);

describe('campaign duplicate machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['duplicating', 'idle']);
  });

  it('announces the copy once it is made, and nothing when it failed', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const announced = recording.emitted.filter((event) => event.type === 'campaign.duplicated');
      // A done event counts only when a copy was under way (the model also sends it when none is).
      const made = path.steps.filter(
        (step, index) =>
          step.event.type === 'xstate.done.actor.duplicateCampaign' &&
          path.steps[index - 1]?.state.matches('duplicating'),
      ).length;
      expect(announced.length).toBe(made);
      for (const event of announced) expect(event).toEqual({ type: 'campaign.duplicated', campaign: COPY });
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
