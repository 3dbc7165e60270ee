import { createTestModel } from '@xstate/graph';
import { createActor, SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { hijackMachine, type HijackEvent } from '../../src/machines/hijack.machine.js';
import type { HijackCandidate } from '../../src/schemas/accounts.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const ANA: HijackCandidate = {
  id: 12,
  email: 'ana@harbourgrill.example',
  name: 'Ana Lee',
  role: 'marketer',
  company: { id: 3, name: 'Harbour Grill' },
};
const FOUND = [ANA];
const STARTED = {
  access_token: 'acting-token',
  token_type: 'Bearer' as const,
  expires_in: 3600,
  impersonation_id: 9,
};
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const STAFF_TARGET = { status: 403, code: 'staff_target', message: 'Staff accounts cannot be impersonated' };

const SAMPLES: HijackEvent[] = [
  { type: 'search.change', query: 'ana ' },
  { type: 'user.actAs', user: ANA },
  { type: 'xstate.done.actor.searchUsers', actorId: 'searchUsers', output: FOUND },
  { type: 'xstate.error.actor.searchUsers', actorId: 'searchUsers', error: SERVER_DOWN },
  { type: 'xstate.done.actor.startImpersonation', actorId: 'startImpersonation', output: STARTED },
  { type: 'xstate.error.actor.startImpersonation', actorId: 'startImpersonation', error: STAFF_TARGET },
];

const start = (recording: Recording) =>
  hijackMachine.provide({
    actors: {
      searchUsers: pendingActor('searchUsers', recording),
      startImpersonation: pendingActor('startImpersonation', recording),
    },
    // The path sends the delay's event itself.
    delays: { searchDelay: 2 ** 30 },
  });

const checks: StateChecks = {
  browsing: (snapshot, recording) => {
    expect(snapshot.context.target).toBeNull();
    expect(recording.emitted).toEqual([]);
  },
  'browsing.debouncing': (snapshot, recording) => {
    expect(snapshot.context.query).toBe('ana ');
    // Nothing is asked while typing: the last search (if any) was for what came before.
    const searches = recording.invoked.filter((call) => call.src === 'searchUsers');
    expect(searches.every((call) => call.input === '' || call.input === 'ana')).toBe(true);
  },
  'browsing.searching': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The trimmed query; a blank one lists the first users.
    expect(recording.invoked.at(-1)).toEqual({ src: 'searchUsers', input: snapshot.context.query.trim() });
  },
  'browsing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'browsing.ready': (snapshot) => {
    expect(snapshot.context.results).toEqual(FOUND);
    expect(snapshot.context.problem).toBeNull();
  },
  confirming: (snapshot, recording) => {
    expect(snapshot.context.target).toEqual(ANA);
    expect(recording.emitted).toEqual([]);
    if (snapshot.context.problem) expect(snapshot.context.problem.code).toBe('staff_target');
  },
  starting: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'startImpersonation', input: ANA.id });
  },
  started: (snapshot, recording) => {
    expect(snapshot.status).toBe('done');
    // Exactly one announcement, carrying the token the server issued.
    expect(recording.emitted).toEqual([{ type: 'impersonation.started', tokenData: STARTED }]);
  },
};

const model = createTestModel(hijackMachine, { events: SAMPLES });
// Every reachable (state, context) and, from each, every event the samples offer there.
const { transitions: paths } = everyTransition(hijackMachine, model);

describe('hijack machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'browsing.debouncing',
      'browsing.failed',
      'browsing.ready',
      'browsing.searching',
      'confirming',
      'started',
      'starting',
    ]);
  });

  it('asks the server only after typing pauses', () => {
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        if (step.event.type !== 'search.change') return;
        expect(step.state.matches({ browsing: 'debouncing' })).toBe(true);
        const next = path.steps[index + 1];
        if (next?.state.matches({ browsing: 'searching' })) {
          expect(next.event.type).toBe('search.settled');
        }
      });
    }
  });

  it('restarts the wait at each keystroke (300 ms of quiet, on a simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = createActor(
      hijackMachine.provide({
        actors: {
          searchUsers: pendingActor('searchUsers', recording),
          startImpersonation: pendingActor('startImpersonation', recording),
        },
      }),
      { clock },
    ).start();
    actor.send({ type: 'search.change', query: 'a' });
    clock.increment(200);
    actor.send({ type: 'search.change', query: 'an' });
    clock.increment(200);
    expect(recording.invoked).toEqual([{ src: 'searchUsers', input: '' }]);
    clock.increment(100);
    expect(recording.invoked).toEqual([
      { src: 'searchUsers', input: '' },
      { src: 'searchUsers', input: 'an' },
    ]);
    expect(actor.getSnapshot().matches({ browsing: 'searching' })).toBe(true);
    actor.stop();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
