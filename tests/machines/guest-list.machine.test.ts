import { createTestModel } from '@xstate/graph';
import { createActor, SimulatedClock, type EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { LocationFilter } from '../../src/machines/file-paging.machine.js';
import { guestListMachine, profilePath } from '../../src/machines/guest-list.machine.js';
import type { ListQuery } from '../../src/machines/kit/list-machine.js';
import type { Page } from '../../src/schemas/common.js';
import type { Guest } from '../../src/schemas/guests.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
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
    email_consent: 'never_asked',
    created_at: '2025-01-04T19:00:00.000Z',
  };
}

const ANA = guest(1, 'Ana Lee', 'P 1/2');
const BEN = guest(2, 'Ben Ode', 'P-2');
// The second page holds one guest: deleting them steps back to the first page.
const PAGE_TWO = { count: 11, next: null, previous: '/api/pos/guests/?page=1', results: [BEN] };
const FILTER: LocationFilter = { location_id: [], location_group_id: [5] };
const EVERYWHERE: LocationFilter = { location_id: [], location_group_id: [] };

const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const GONE = { status: 404, code: 'not_found', message: 'Not found' };

type GuestListEvent = EventFromLogic<typeof guestListMachine>;

const LIST_DONE = { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: PAGE_TWO } as const;

const SAMPLES: GuestListEvent[] = [
  { type: 'search.change', query: 'ann' },
  { type: 'search.settled' },
  { type: 'page.change', page: 2 },
  { type: 'filters.change', filters: FILTER },
  { type: 'list.retry' },
  { type: 'item.open', item: ANA },
  { type: 'item.delete', item: BEN },
  { type: 'delete.confirm' },
  { type: 'dialog.close' },
  { type: 'export.start' },
  { type: 'notice.dismiss' },
  { type: 'list.refresh' },
  { type: 'refresh.due' },
  LIST_DONE,
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: GONE },
  { type: 'xstate.done.actor.exportList', actorId: 'exportList', output: null },
  { type: 'xstate.error.actor.exportList', actorId: 'exportList', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  guestListMachine.provide({
    actors: {
      loadList: pendingActor<Page<Guest>, ListQuery<LocationFilter>>('loadList', recording),
      deleteItem: pendingActor('deleteItem', recording),
      exportList: pendingActor('exportList', recording),
    },
    // The path sends the delays' events itself.
    delays: { searchDelay: 2 ** 30, refreshDelay: 2 ** 30 },
  });

/** The same machine with its real delays, for the timed scenarios. */
const timed = (recording: Recording) =>
  start(recording).provide({ delays: { searchDelay: 300, refreshDelay: 3000 } });

/** The filters a list call is sent with. */
function queryOf(context: { page: number; search: string; filters: LocationFilter }) {
  const q = context.search.trim();
  return { page: context.page, page_size: 10, ...context.filters, ...(q ? { q } : {}) };
}

const checks: StateChecks = {
  listing: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
  },
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadList', input: queryOf(snapshot.context) });
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.items).toEqual([BEN]);
    expect(snapshot.context.total).toBe(11);
    // Opening a guest only announces it: the screen stores the kind and navigates.
    // A delete is announced too (for screens that offer undo); what opens is only ever the guest asked for.
    for (const event of recording.emitted.filter((emitted) => emitted.type !== 'item.deleted'))
      expect(event).toEqual({ type: 'item.opened', item: ANA });
  },
  'listing.debouncing': (snapshot) => {
    expect(snapshot.context.search).toBe('ann');
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
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: BEN });
  },
};

const model = createTestModel(guestListMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(guestListMachine, model);

/** The guest list started with real delays and answered its first page. */
function browsing(recording: Recording, clock?: SimulatedClock) {
  const actor = createActor(timed(recording), {
    ...(clock ? { clock } : {}),
    input: { filters: EVERYWHERE },
  });
  actor.on('*', (event) => recording.emitted.push(event));
  actor.start();
  actor.send(LIST_DONE);
  return actor;
}

describe('guest list machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'deleting.confirming',
      'deleting.removing',
      'listing.browsing',
      'listing.debouncing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('loads 10 guests a page of the locations it starts with', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording), { input: { filters: FILTER } }).start();
    expect(recording.invoked).toEqual([
      { src: 'loadList', input: { page: 1, page_size: 10, location_id: [], location_group_id: [5] } },
    ]);
    actor.stop();
  });

  it('reloads the list with a notice after a deletion, a page back when the page emptied', () => {
    let seen = 0;
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        if (step.event.type !== 'xstate.done.actor.deleteItem') return;
        seen += 1;
        const before = path.steps[index - 1]!.state.context;
        expect(step.state.matches({ listing: 'loading' })).toBe(true);
        expect(step.state.context.notice).toBe('deleted');
        expect(step.state.context.page).toBe(Math.max(1, before.page - 1));
      });
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('announces the guest to open only while browsing, and stays on the list', () => {
    let seen = 0;
    for (const path of paths) {
      const last = path.steps.at(-1)!;
      if (last.event.type !== 'item.open') continue;
      const before = path.steps.at(-2)!.state;
      const recording = replayPath(path, start, checks);
      const opened = recording.emitted.filter((event) => event.type === 'item.opened');
      if (before.matches({ listing: 'browsing' })) {
        seen += 1;
        expect(opened).toEqual([{ type: 'item.opened', item: ANA }]);
        expect(last.state.matches({ listing: 'browsing' })).toBe(true);
      } else expect(opened).toEqual([]);
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('writes a missing POS id as "-" in a profile path', () => {
    expect(profilePath('guest', ANA)).toBe('/guest/profile/P%201%2F2/h1x/1');
    expect(profilePath('subscriber', { id: 9, hashid: 'abc', pos_id: null })).toBe(
      '/subscriber/profile/-/abc/9',
    );
  });

  it('reloads from the first page with the filters when the location selection changes', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = browsing(recording);
    actor.send({ type: 'page.change', page: 2 });
    actor.send(LIST_DONE);
    // A confirmation open meanwhile stays open; the new list loads once it closes.
    actor.send({ type: 'item.delete', item: BEN });
    actor.send({ type: 'filters.change', filters: FILTER });
    expect(actor.getSnapshot().matches({ deleting: 'confirming' })).toBe(true);
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().matches({ listing: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context.selected).toBeNull();
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadList',
      input: { page: 1, page_size: 10, ...FILTER },
    });
    actor.stop();
  });

  it('searches from the first page once typing pauses for 300 ms (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = browsing(recording, clock);
    actor.send({ type: 'search.change', query: 'an' });
    clock.increment(299);
    actor.send({ type: 'search.change', query: ' ana ' });
    clock.increment(299);
    expect(recording.invoked).toHaveLength(1);
    clock.increment(1);
    expect(recording.invoked.at(-1)?.input).toEqual({
      ...queryOf({ page: 1, search: 'ana', filters: EVERYWHERE }),
    });
    actor.stop();
  });

  it('keeps an export of every page running while the list is searched, and says how it ended', () => {
    for (const [outcome, notice] of [
      ['done', 'exported'],
      ['error', 'exportFailed'],
    ] as const) {
      const recording: Recording = { invoked: [], emitted: [] };
      const actor = browsing(recording);
      actor.send({ type: 'page.change', page: 2 });
      actor.send(LIST_DONE);
      actor.send({ type: 'export.start' });
      expect(actor.getSnapshot().context.exporting).toBe(true);
      expect(recording.invoked.at(-1)).toEqual({ src: 'exportList', input: EVERYWHERE });
      actor.send({ type: 'search.change', query: 'ann' });
      // A second click while one runs starts nothing.
      actor.send({ type: 'export.start' });
      expect(recording.invoked.filter((call) => call.src === 'exportList')).toHaveLength(1);
      actor.send(
        outcome === 'done'
          ? { type: 'xstate.done.actor.exportList', actorId: 'exportList', output: null }
          : { type: 'xstate.error.actor.exportList', actorId: 'exportList', error: SERVER_DOWN },
      );
      expect(actor.getSnapshot().context).toMatchObject({ exporting: false, notice });
      actor.stop();
    }
  });

  it('reloads when the delete dialog closes if an upload finished while it was open (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = browsing(recording, clock);
    actor.send({ type: 'item.delete', item: BEN });
    actor.send({ type: 'list.refresh' });
    clock.increment(3000);
    expect(actor.getSnapshot().matches({ deleting: 'confirming' })).toBe(true);
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().matches({ listing: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context.refreshPending).toBe(false);
    expect(recording.invoked.filter((call) => call.src === 'loadList')).toHaveLength(2);
    actor.stop();
  });

  it('reloads the page 3 seconds after the last of several uploads (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = browsing(recording, clock);
    actor.send({ type: 'list.refresh' });
    clock.increment(2000);
    actor.send({ type: 'list.refresh' });
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
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
