import { createTestModel } from '@xstate/graph';
import { createActor, SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  guestListMachine,
  profilePath,
  type GuestListContext,
  type GuestListEvent,
} from '../../src/machines/guest-list.machine.js';
import type { Guest } from '../../src/schemas/guests.js';
import {
  describePath,
  pendingActor,
  reachedStates,
  type ModelPath,
  type Recording,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

function guest(id: number, name: string, posId: string): Guest {
  return {
    id,
    hashid: `h${id}x`,
    pos_id: posId,
    customer_name: name,
    last_four_digits: '1234',
    first_location_id: 3,
    visit_count: 4,
    total_spend: 182.5,
    first_visit_at: '2025-01-04T19:00:00.000Z',
    last_visit_at: '2026-02-01T20:15:00.000Z',
    is_subscriber: false,
    created_at: '2025-01-04T19:00:00.000Z',
  };
}

const ANA = guest(1, 'Ana Lee', 'P 1/2');
const BEN = guest(2, 'Ben Ode', 'P-2');
// The second page holds one guest: deleting them steps back to the first page.
const PAGE_TWO = { count: 11, next: null, previous: '/api/pos/guests/?page=1', results: [BEN] };
const FILTER = { location_id: [], location_group_id: [5] };
const START = { filter: { location_id: [], location_group_id: [] } };

const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const GONE = { status: 404, code: 'not_found', message: 'Not found' };

const SAMPLES: GuestListEvent[] = [
  { type: 'search.change', query: 'ann' },
  { type: 'search.settled' },
  { type: 'page.change', page: 2 },
  { type: 'filter.change', filter: FILTER },
  { type: 'list.retry' },
  { type: 'guest.open', guest: ANA },
  { type: 'guest.delete', guest: BEN },
  { type: 'delete.confirm' },
  { type: 'dialog.close' },
  { type: 'export.start' },
  { type: 'notice.dismiss' },
  { type: 'upload.completed' },
  { type: 'refresh.due' },
  { type: 'xstate.done.actor.listGuests', actorId: 'listGuests', output: PAGE_TWO },
  { type: 'xstate.error.actor.listGuests', actorId: 'listGuests', error: SERVER_DOWN },
  { type: 'xstate.done.actor.deleteGuest', actorId: 'deleteGuest', output: null },
  { type: 'xstate.error.actor.deleteGuest', actorId: 'deleteGuest', error: GONE },
  { type: 'xstate.done.actor.rememberProfileKind', actorId: 'rememberProfileKind', output: null },
  {
    type: 'xstate.error.actor.rememberProfileKind',
    actorId: 'rememberProfileKind',
    error: new Error('no storage'),
  },
  { type: 'xstate.done.actor.exportGuests', actorId: 'exportGuests', output: null },
  { type: 'xstate.error.actor.exportGuests', actorId: 'exportGuests', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  guestListMachine.provide({
    actors: {
      listGuests: pendingActor('listGuests', recording),
      deleteGuest: pendingActor('deleteGuest', recording),
      rememberProfileKind: pendingActor('rememberProfileKind', recording),
      exportGuests: pendingActor('exportGuests', recording),
    },
    // The path sends the pause's event itself.
    delays: { searchDelay: 2 ** 30 },
  });

type Snapshot = { context: GuestListContext; hasTag(tag: string): boolean };

/** The filters a list or export call is sent with. */
function queryOf(context: GuestListContext) {
  return {
    page: context.page,
    page_size: 10,
    ...context.filter,
    ...(context.query ? { q: context.query } : {}),
  };
}

const checks: Record<string, (snapshot: Snapshot, recording: Recording) => void> = {
  listing: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
  },
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'listGuests', input: queryOf(snapshot.context) });
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.list).toEqual(PAGE_TWO);
  },
  'listing.debouncing': (snapshot) => {
    expect(snapshot.context.query).toBe('ann');
  },
  opening: (snapshot, recording) => {
    expect(snapshot.context.selected).toEqual(ANA);
    expect(recording.invoked.at(-1)).toEqual({ src: 'rememberProfileKind', input: 'guest' });
  },
  deleting: (snapshot) => {
    expect(snapshot.context.selected).toEqual(BEN);
  },
  'deleting.confirming': (snapshot) => {
    const { problem } = snapshot.context;
    if (problem) expect(problem.status).toBe(404);
  },
  'deleting.removing': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'deleteGuest',
      input: { id: BEN.id, hashid: BEN.hashid, pos_id: BEN.pos_id },
    });
  },
};

function replay(path: ModelPath): Recording {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), { input: START });
  actor.on('*', (event) => recording.emitted.push(event));
  actor.start();
  try {
    for (const step of path.steps) {
      if (step.event.type !== 'xstate.init') actor.send(step.event as GuestListEvent);
      const snapshot = actor.getSnapshot();
      const keys = Object.keys(checks).filter((key) => snapshot.matches(key as never));
      expect(keys, `no check gives ${JSON.stringify(snapshot.value)} a meaning`).not.toEqual([]);
      for (const key of keys) checks[key]!(snapshot, recording);
    }
  } catch (error) {
    if (error instanceof Error) error.message = `${describePath(path)}: ${error.message}`;
    throw error;
  } finally {
    actor.stop();
  }
  return recording;
}

const model = createTestModel(guestListMachine, { events: SAMPLES, input: START });
const { transitions: paths } = everyTransition(guestListMachine, model);

describe('guest list machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'deleting.confirming',
      'deleting.removing',
      'listing.browsing',
      'listing.debouncing',
      'listing.failed',
      'listing.loading',
      'opening',
    ]);
  });

  it('loads 10 guests a page for every location at first', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording), { input: START }).start();
    expect(recording.invoked).toEqual([
      { src: 'listGuests', input: { page: 1, page_size: 10, location_id: [], location_group_id: [] } },
    ]);
    actor.stop();
  });

  it('reloads the list with a notice after a deletion, a page back when the page emptied', () => {
    let seen = 0;
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        if (step.event.type !== 'xstate.done.actor.deleteGuest') return;
        seen += 1;
        const before = path.steps[index - 1]!.state.context;
        expect(step.state.matches({ listing: 'loading' })).toBe(true);
        expect(step.state.context.notice).toBe('deleted');
        expect(step.state.context.page).toBe(Math.max(1, before.page - 1));
      });
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('opens the profile after storing the kind, even when storage fails', () => {
    for (const outcome of ['done', 'error'] as const) {
      const path = paths.find(
        (candidate) => candidate.steps.at(-1)!.event.type === `xstate.${outcome}.actor.rememberProfileKind`,
      )!;
      const recording = replay(path);
      expect(recording.emitted).toEqual([{ type: 'route.open', path: '/guest/profile/P%201%2F2/h1x/1' }]);
      expect(path.state.matches({ listing: 'browsing' })).toBe(true);
    }
  });

  it('writes a missing POS id as "-" in a profile path', () => {
    expect(profilePath('subscriber', { id: 9, hashid: 'abc', pos_id: null })).toBe(
      '/subscriber/profile/-/abc/9',
    );
  });

  it('reloads from the first page with the filters when the location selection changes', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording), { input: START }).start();
    actor.send({ type: 'xstate.done.actor.listGuests', actorId: 'listGuests', output: PAGE_TWO } as never);
    actor.send({ type: 'page.change', page: 2 });
    actor.send({ type: 'xstate.done.actor.listGuests', actorId: 'listGuests', output: PAGE_TWO } as never);
    actor.send({ type: 'guest.delete', guest: BEN });
    actor.send({ type: 'filter.change', filter: FILTER });
    expect(actor.getSnapshot().matches({ listing: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context.selected).toBeNull();
    expect(recording.invoked.at(-1)).toEqual({
      src: 'listGuests',
      input: { page: 1, page_size: 10, ...FILTER },
    });
    actor.stop();
  });

  it('searches from the first page once typing pauses for 300 ms (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = createActor(
      guestListMachine.provide({
        actors: {
          listGuests: pendingActor('listGuests', recording),
          deleteGuest: pendingActor('deleteGuest', recording),
          rememberProfileKind: pendingActor('rememberProfileKind', recording),
          exportGuests: pendingActor('exportGuests', recording),
        },
      }),
      { clock, input: START },
    ).start();
    actor.send({ type: 'xstate.done.actor.listGuests', actorId: 'listGuests', output: PAGE_TWO } as never);
    actor.send({ type: 'search.change', query: 'an' });
    clock.increment(299);
    actor.send({ type: 'search.change', query: ' ana ' });
    clock.increment(299);
    expect(recording.invoked).toHaveLength(1);
    clock.increment(1);
    expect(recording.invoked.at(-1)?.input).toEqual({
      page: 1,
      page_size: 10,
      location_id: [],
      location_group_id: [],
      q: 'ana',
    });
    actor.stop();
  });

  it('keeps an export running while the list is searched, and says when it is done', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording), { input: START }).start();
    actor.send({ type: 'xstate.done.actor.listGuests', actorId: 'listGuests', output: PAGE_TWO } as never);
    actor.send({ type: 'export.start' });
    expect(actor.getSnapshot().context.exporting).toBe(true);
    expect(recording.invoked.at(-1)?.src).toBe('exportGuests');
    actor.send({ type: 'search.change', query: 'ann' });
    // A second click while one runs starts nothing.
    actor.send({ type: 'export.start' });
    expect(recording.invoked.filter((call) => call.src === 'exportGuests')).toHaveLength(1);
    actor.send({ type: 'xstate.done.actor.exportGuests', actorId: 'exportGuests', output: null } as never);
    expect(actor.getSnapshot().context).toMatchObject({ exporting: false, notice: 'exported' });
    actor.stop();
  });

  it('reloads after a dialog closes when a refresh fell due while it was open', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording), { input: START }).start();
    actor.send({ type: 'xstate.done.actor.listGuests', actorId: 'listGuests', output: PAGE_TWO } as never);
    actor.send({ type: 'guest.delete', guest: BEN });
    actor.send({ type: 'refresh.due' });
    expect(actor.getSnapshot().matches({ deleting: 'confirming' })).toBe(true);
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().matches({ listing: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context.refreshPending).toBe(false);
    expect(recording.invoked.filter((call) => call.src === 'listGuests')).toHaveLength(2);
    actor.stop();
  });

  it('reloads the page 3 seconds after the last of several uploads (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = createActor(
      guestListMachine.provide({
        actors: {
          listGuests: pendingActor('listGuests', recording),
          deleteGuest: pendingActor('deleteGuest', recording),
          rememberProfileKind: pendingActor('rememberProfileKind', recording),
          exportGuests: pendingActor('exportGuests', recording),
        },
      }),
      { clock, input: START },
    ).start();
    actor.send({ type: 'xstate.done.actor.listGuests', actorId: 'listGuests', output: PAGE_TWO } as never);
    actor.send({ type: 'upload.completed' });
    clock.increment(2000);
    actor.send({ type: 'upload.completed' });
    clock.increment(2999);
    expect(recording.invoked).toHaveLength(1);
    clock.increment(1);
    expect(recording.invoked).toHaveLength(2);
    expect(actor.getSnapshot().matches({ listing: 'loading' })).toBe(true);
    actor.stop();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replay(path);
    });
  }
});
