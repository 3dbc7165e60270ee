import { createTestModel } from '@xstate/graph';
import { createActor, SimulatedClock, type EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { memberCandidatesMachine } from '../../src/machines/member-candidates.machine.js';
import type { ListQuery, NoFilters } from '../../src/machines/kit/list-machine.js';
import type { Page } from '../../src/schemas/common.js';
import type { Subscriber } from '../../src/schemas/subscribers.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

function subscriber(id: number, email: string): Subscriber {
  return {
    id,
    hashid: `h${id}x`,
    pos_id: null,
    email,
    first_name: 'Ben',
    last_name: 'Ng',
    phone: '',
    zip: '',
    birthday: null,
    subscribed: true,
    SUBSCRIBED: 'True',
    guest_id: null,
    source_location_id: null,
    list_ids: [],
    unsubscribed_at: null,
    created_at: '2026-03-05T14:07:00.000Z',
    updated_at: '2026-03-05T14:07:00.000Z',
  };
}

const CANDIDATES = {
  count: 9,
  next: null,
  previous: null,
  results: [subscriber(11, 'ana@example.com'), subscriber(12, 'ben@example.com')],
};
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: EventFromLogic<typeof memberCandidatesMachine>[] = [
  { type: 'list.retry' },
  { type: 'page.change', page: 2 },
  { type: 'search.change', query: ' ben ' },
  { type: 'search.settled' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: CANDIDATES },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  memberCandidatesMachine.provide({
    actors: { loadList: pendingActor<Page<Subscriber>, ListQuery<NoFilters>>('loadList', recording) },
    // The path sends the pause's event itself.
    delays: { searchDelay: 2 ** 30 },
  });

const checks: StateChecks = {
  'listing.loading': (snapshot, recording) => {
    const { page, search } = snapshot.context;
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadList',
      input: { page, page_size: 8, ...(search ? { q: search.trim() } : {}) },
    });
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual(CANDIDATES.results);
    expect(snapshot.context.problem).toBeNull();
  },
  'listing.debouncing': (snapshot) => {
    expect(snapshot.context.search).toBe(' ben ');
  },
};

const model = createTestModel(memberCandidatesMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(memberCandidatesMachine, model);

describe('member candidates machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'listing.browsing',
      'listing.debouncing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('searches from the first page once typing pauses', () => {
    for (const path of paths) {
      for (const step of path.steps) {
        if (step.event.type !== 'search.settled') continue;
        expect(step.state.matches({ listing: 'loading' })).toBe(true);
        expect(step.state.context.page).toBe(1);
      }
    }
  });

  it('searches once typing pauses for 300 ms (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = createActor(start(recording).provide({ delays: { searchDelay: 300 } }), { clock }).start();
    actor.send({ type: 'xstate.done.actor.loadList', actorId: 'loadList', output: CANDIDATES } as never);
    actor.send({ type: 'page.change', page: 2 });
    actor.send({ type: 'xstate.done.actor.loadList', actorId: 'loadList', output: CANDIDATES } as never);
    actor.send({ type: 'search.change', query: 'be' });
    clock.increment(299);
    actor.send({ type: 'search.change', query: 'ben ' });
    clock.increment(299);
    const searches = () => recording.invoked.filter((call) => call.src === 'loadList');
    expect(searches()).toHaveLength(2);
    clock.increment(1);
    expect(searches().at(-1)?.input).toEqual({ page: 1, page_size: 8, q: 'ben' });
    actor.stop();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
