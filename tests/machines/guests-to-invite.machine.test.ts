import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import type { LocationFilter } from '../../src/machines/file-paging.machine.js';
import {
  guestsToInviteMachine,
  type GuestsToInviteEvent,
} from '../../src/machines/guests-to-invite.machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const ALL: LocationFilter = { location_id: [], location_group_id: [] };
const NORTH: LocationFilter = { location_id: [7], location_group_id: [] };
const INPUT = { filter: ALL };

const SAMPLES: GuestsToInviteEvent[] = [
  { type: 'xstate.done.actor.countToInvite', actorId: 'countToInvite', output: 18_240 },
  { type: 'xstate.error.actor.countToInvite', actorId: 'countToInvite', error: new Error('offline') },
  { type: 'xstate.done.actor.exportToInvite', actorId: 'exportToInvite', output: undefined },
  { type: 'xstate.error.actor.exportToInvite', actorId: 'exportToInvite', error: new Error('offline') },
  { type: 'export.start' },
  { type: 'count.retry' },
  { type: 'count.refresh' },
  { type: 'filter.change', filter: NORTH },
];

/** The machine with calls that record each ask and never settle (the path sends their answers). */
const start = (recording: Recording) =>
  guestsToInviteMachine.provide({
    actors: {
      countToInvite: pendingActor('countToInvite', recording),
      exportToInvite: pendingActor('exportToInvite', recording),
    },
  });

const checks: StateChecks = {
  counting: (snapshot, recording) => {
    // Every count asks the server for the filter in force, and shows no stale total meanwhile.
    expect(recording.invoked.at(-1)).toEqual({ src: 'countToInvite', input: snapshot.context.filter });
    expect(snapshot.context.total).toBeNull();
  },
  ready: (snapshot) => {
    // A total shown is the server's whole count, never the rows read so far.
    expect(snapshot.context.total).toBe(18_240);
  },
  exporting: (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'exportToInvite', input: snapshot.context.filter });
    expect(snapshot.context.notice).toBeNull();
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).not.toBeNull();
  },
};

const model = createTestModel(guestsToInviteMachine, { events: SAMPLES, input: INPUT });
const { transitions: paths } = everyTransition(guestsToInviteMachine, model);

describe('guests to invite machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['counting', 'exporting', 'failed', 'ready']);
  });

  it('says whether the last export succeeded', () => {
    const exported = paths.find(
      (path) => path.steps.at(-1)?.event.type === 'xstate.done.actor.exportToInvite',
    );
    const failed = paths.find(
      (path) => path.steps.at(-1)?.event.type === 'xstate.error.actor.exportToInvite',
    );
    expect(exported?.state.context.notice).toBe('exported');
    expect(failed?.state.context.notice).toBe('exportFailed');
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`takes each of the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});
