import { createTestModel } from '@xstate/graph';
import { createActor, SimulatedClock, transition, type EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { LocationFilter } from '../../src/machines/file-paging.machine.js';
import type { ListQuery } from '../../src/machines/kit/list-machine.js';
import {
  locationFilterOf,
  NEW_SUBSCRIBER_FORM,
  subscribersListMachine,
} from '../../src/machines/subscribers-list.machine.js';
import type { Page } from '../../src/schemas/common.js';
import type { Subscriber } from '../../src/schemas/subscribers.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey, type MachinePath } from './support/walk.js';

function subscriber(id: number, email: string, posId: string | null): Subscriber {
  return {
    id,
    hashid: `h${id}x`,
    pos_id: posId,
    email,
    first_name: 'Ana',
    last_name: 'Lee',
    phone: '555-123-4567',
    zip: '60601',
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

const ANA = subscriber(1, 'ana@example.com', 'POS-17');
// Someone the POS does not know: the profile path carries '-' for the POS id.
const BEN = subscriber(2, 'ben@example.com', null);
const BEN_UPDATED = { ...BEN, zip: '10001' };
const PAGE = {
  count: 9,
  next: '/api/subscriptions/subscribers/?page=2',
  previous: null,
  results: [ANA, BEN],
};
const DOWNTOWN = locationFilterOf({ kind: 'location', id: 4, name: 'Downtown' });
const CHICAGO = locationFilterOf({ kind: 'group', id: 7, name: 'Chicago' });

const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const EMAIL_EXISTS = {
  status: 400,
  code: 'validation_failed',
  message: 'Email already exists',
  fields: { email: 'Email already exists' },
  fieldProblems: { email: { code: 'in_use' } },
};

type SubscribersListEvent = EventFromLogic<typeof subscribersListMachine>;

const LIST_DONE = { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: PAGE } as const;
const LIST_FAILED = { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN } as const;

// Events offered per state, so the walk stays small (the model sends any other accepted event bare, so
// every state also gets the events the whole machine takes).
const ANYWHERE: SubscribersListEvent[] = [
  { type: 'filters.change', filters: DOWNTOWN },
  { type: 'sort.change', ordering: 'email' },
  { type: 'list.refresh', notice: 'uploaded' },
  { type: 'refresh.due' },
  { type: 'xstate.done.actor.exportList', actorId: 'exportList', output: null },
  { type: 'xstate.error.actor.exportList', actorId: 'exportList', error: SERVER_DOWN },
];
const SAMPLES: Record<string, SubscribersListEvent[]> = {
  'listing.loading': [LIST_DONE, LIST_FAILED, { type: 'search.change', query: 'ann' }],
  'listing.failed': [{ type: 'list.retry' }, { type: 'search.change', query: 'ann' }],
  'listing.debouncing': [{ type: 'search.settled' }, { type: 'search.change', query: 'ann' }],
  'listing.browsing': [
    { type: 'search.change', query: 'ann' },
    { type: 'page.change', page: 2 },
    { type: 'item.add' },
    { type: 'item.edit', item: BEN },
    { type: 'item.open', item: BEN },
    { type: 'export.start' },
    { type: 'notice.dismiss' },
  ],
  'creating.open': [
    // An email makes the form valid; a four-digit zip makes it invalid.
    { type: 'field.change', field: 'email', value: 'new@example.com' },
    { type: 'field.change', field: 'zip', value: '1234' },
    { type: 'field.change', field: 'subscribed', value: false },
    { type: 'dialog.submit' },
    { type: 'dialog.close' },
  ],
  'creating.saving': [
    { type: 'xstate.done.actor.createItem', actorId: 'createItem', output: ANA },
    { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: EMAIL_EXISTS },
  ],
  'editing.open': [
    { type: 'field.change', field: 'zip', value: '1234' },
    { type: 'field.change', field: 'subscribed', value: false },
    { type: 'dialog.submit' },
    { type: 'dialog.close' },
  ],
  'editing.saving': [
    { type: 'xstate.done.actor.updateItem', actorId: 'updateItem', output: BEN_UPDATED },
    { type: 'xstate.error.actor.updateItem', actorId: 'updateItem', error: SERVER_DOWN },
  ],
};

/** The sample events of the state a snapshot is in. */
function samplesFor(snapshot: { value: unknown }): SubscribersListEvent[] {
  const [[region, child]] = Object.entries(snapshot.value as Record<string, string>) as [[string, string]];
  return [...(SAMPLES[`${region}.${child}`] ?? []), ...ANYWHERE];
}

const start = (recording: Recording) =>
  subscribersListMachine.provide({
    actors: {
      loadList: pendingActor<Page<Subscriber>, ListQuery<LocationFilter>>('loadList', recording),
      createItem: pendingActor('createItem', recording),
      updateItem: pendingActor('updateItem', recording),
      exportList: pendingActor('exportList', recording),
    },
    // The path sends the delays' events itself.
    delays: { searchDelay: 2 ** 30, refreshDelay: 2 ** 30 },
  });

/** The filters the list call must carry for the context. */
function expectedQuery(context: {
  page: number;
  search: string;
  filters: LocationFilter;
  ordering: string | null;
}) {
  return {
    page: context.page,
    page_size: 8,
    ...context.filters,
    ...(context.search ? { q: context.search } : {}),
    // Newest first until a header asks otherwise.
    ordering: context.ordering ?? '-created_at',
  };
}

const checks: StateChecks = {
  listing: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    expect(snapshot.context.fieldErrors).toEqual({});
    expect(snapshot.context.form).toEqual(NEW_SUBSCRIBER_FORM);
  },
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.pageSize).toBe(8);
    const lastList = recording.invoked.filter((call) => call.src === 'loadList').at(-1);
    expect(lastList?.input).toEqual(expectedQuery(snapshot.context));
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot, recording) => {
    const { context } = snapshot;
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(context.problem).toBeNull();
    expect(context.total).toBe(9);
    expect(context.refreshPending).toBe(false);
    // Opening a profile only announces the subscriber: the screen stores the kind and navigates.
    for (const event of recording.emitted) expect(event).toEqual({ type: 'item.opened', item: BEN });
  },
  'listing.debouncing': (snapshot) => {
    expect(snapshot.context.search).toBe('ann');
  },
  creating: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
  },
  'creating.open': (snapshot) => {
    const { context } = snapshot;
    if ('email' in context.fieldErrors) {
      // The schema's message while blank, the server's when the address is taken.
      if (context.form.email === '')
        expect(context.fieldErrors.email).toMatchObject({ code: 'required', message: 'Email is required' });
      else
        expect(context.fieldErrors.email).toMatchObject({ code: 'in_use', message: 'Email already exists' });
    }
    if ('zip' in context.fieldErrors)
      expect(context.fieldErrors.zip).toMatchObject({ code: 'not_valid', message: 'Zip code is not valid' });
  },
  'creating.saving': (snapshot, recording) => {
    const { context } = snapshot;
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'createItem',
      input: {
        email: context.form.email,
        first_name: '',
        last_name: '',
        phone: '',
        zip: '',
        birthday: null,
        subscribed: context.form.subscribed,
        pos_id: '',
        // The selected location is the new subscriber's source (as it was when the save started: a
        // location chosen meanwhile waits for the dialog to close).
        source_location_id: expect.toSatisfy(
          (id: unknown) => id === null || id === DOWNTOWN.location_id[0],
        ) as unknown,
      },
    });
    if (!context.refreshPending) {
      const input = recording.invoked.at(-1)?.input as { source_location_id: number | null };
      expect(input.source_location_id).toBe(
        context.filters.location_id.length === 1 ? DOWNTOWN.location_id[0] : null,
      );
    }
  },
  editing: (snapshot) => {
    expect(snapshot.context.selected).toEqual(BEN);
  },
  'editing.open': (snapshot) => {
    const { context } = snapshot;
    if ('zip' in context.fieldErrors) {
      expect(context.fieldErrors.zip).toMatchObject({ code: 'not_valid', message: 'Zip code is not valid' });
      expect(context.form.zip).toBe('1234');
    }
    if (context.problem) expect(context.problem).toMatchObject({ status: 500 });
  },
  'editing.saving': (snapshot, recording) => {
    const { form } = snapshot.context;
    // Every profile field; the POS id is not changed here.
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateItem',
      input: {
        item: BEN,
        changes: {
          email: form.email,
          first_name: form.first_name,
          last_name: form.last_name,
          phone: form.phone,
          zip: form.zip,
          birthday: null,
          subscribed: form.subscribed,
        },
      },
    });
  },
};

/**
 * Snapshots count as the same model state when they agree on what changes behaviour (state, filters,
 * pending refresh, export, field errors, the form's validity), so the walk does not multiply every notice
 * and typed value; the paths still replay on a real actor with their exact contexts.
 */
function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof subscribersListMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    located: context.filters.location_id.length,
    pending: context.refreshPending,
    exporting: context.exporting,
    errors: Object.keys(context.fieldErrors).sort(),
    email: context.form.email !== '',
    zip: context.form.zip,
    listed: context.items !== null,
  });
}

const model = createTestModel(subscribersListMachine, { events: samplesFor, serializeState });
/** The path with each step's snapshot recomputed from its events (the model keeps one per serialized state). */
function concrete(
  path: MachinePath<typeof subscribersListMachine>,
): MachinePath<typeof subscribersListMachine> {
  const [first, ...rest] = path.steps;
  let state = first!.state;
  const steps = [first!];
  for (const step of rest) {
    [state] = transition(subscribersListMachine, state, step.event);
    steps.push({ state, event: step.event });
  }
  return { ...path, state, steps };
}

const paths = everyTransition(subscribersListMachine, model).transitions.map(concrete);

/** The list started with real delays in a group, its first page answered. */
function browsing(recording: Recording, clock: SimulatedClock) {
  const actor = createActor(start(recording).provide({ delays: { searchDelay: 300, refreshDelay: 3000 } }), {
    clock,
    input: { filters: CHICAGO },
  });
  actor.on('*', (event) => recording.emitted.push(event));
  actor.start();
  actor.send(LIST_DONE);
  return actor;
}

describe('subscribers list machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'creating.open',
      'creating.saving',
      'editing.open',
      'editing.saving',
      'listing.browsing',
      'listing.debouncing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('reloads the list with a notice after an add and an update', () => {
    let seen = 0;
    for (const path of paths) {
      for (const step of path.steps) {
        const done = /^xstate\.done\.actor\.(create|update)Item$/.exec(step.event.type);
        if (!done) continue;
        seen += 1;
        expect(step.state.matches({ listing: 'loading' })).toBe(true);
        expect(step.state.context.notice).toBe(`${done[1]}d`);
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('announces the subscriber to open only while browsing', () => {
    let seen = 0;
    for (const path of paths) {
      if (path.steps.at(-1)!.event.type !== 'item.open') continue;
      const recording = replayPath(path, start, checks);
      const opened = recording.emitted.filter((event) => event.type === 'item.opened');
      if (path.steps.at(-2)!.state.matches({ listing: 'browsing' })) {
        seen += 1;
        expect(opened).toEqual([{ type: 'item.opened', item: BEN }]);
      } else expect(opened).toEqual([]);
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('exports every page of the filtered list and never two at once', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording), { input: { filters: DOWNTOWN } }).start();
    actor.send(LIST_DONE);
    actor.send({ type: 'export.start' });
    actor.send({ type: 'export.start' });
    expect(actor.getSnapshot().context.exporting).toBe(true);
    expect(recording.invoked.filter((call) => call.src === 'exportList')).toEqual([
      { src: 'exportList', input: { location_id: [4], location_group_id: [] } },
    ]);
    actor.send({ type: 'xstate.error.actor.exportList', actorId: 'exportList', error: SERVER_DOWN });
    expect(actor.getSnapshot().context).toMatchObject({ exporting: false, notice: 'exportFailed' });
    actor.stop();
  });

  it('gives a new subscriber the one selected location as its source, none for a group', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = browsing(recording, new SimulatedClock());
    const add = () => {
      actor.send({ type: 'item.add' });
      actor.send({ type: 'field.change', field: 'email', value: 'new@example.com' });
      actor.send({ type: 'dialog.submit' });
      return (recording.invoked.at(-1)?.input as { source_location_id: number | null }).source_location_id;
    };
    expect(add()).toBeNull();
    actor.send({ type: 'xstate.done.actor.createItem', actorId: 'createItem', output: ANA });
    actor.send(LIST_DONE);
    actor.send({ type: 'filters.change', filters: DOWNTOWN });
    actor.send(LIST_DONE);
    expect(add()).toBe(4);
    actor.stop();
  });

  it('refreshes 3 seconds after an upload with a notice, and once after a dialog closes (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = browsing(recording, clock);
    const lists = () => recording.invoked.filter((call) => call.src === 'loadList').length;
    expect(recording.invoked[0]?.input).toEqual({
      page: 1,
      page_size: 8,
      location_id: [],
      location_group_id: [7],
      ordering: '-created_at',
    });

    actor.send({ type: 'list.refresh', notice: 'uploaded' });
    expect(actor.getSnapshot().context.notice).toBe('uploaded');
    clock.increment(2999);
    expect(lists()).toBe(1);
    clock.increment(1);
    expect(lists()).toBe(2);
    actor.send(LIST_DONE);

    // An upload finishes while the add dialog is open: the refresh waits for the dialog to close.
    actor.send({ type: 'list.refresh', notice: 'uploaded' });
    actor.send({ type: 'item.add' });
    clock.increment(3000);
    expect(lists()).toBe(2);
    actor.send({ type: 'dialog.close' });
    expect(lists()).toBe(3);
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
