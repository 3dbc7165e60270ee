import { createTestModel } from '@xstate/graph';
import { createActor, SimulatedClock, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  NEW_SUBSCRIBER_FORM,
  profilePathOf,
  subscribersListMachine,
  type SubscribersListEvent,
} from '../../src/machines/subscribers-list.machine.js';
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
const DOWNTOWN = { kind: 'location' as const, id: 4, name: 'Downtown' };

const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const EMAIL_EXISTS = {
  status: 400,
  code: 'validation_failed',
  message: 'Email already exists',
  fields: { email: 'Email already exists' },
};

const LIST_DONE = {
  type: 'xstate.done.actor.listSubscribers',
  actorId: 'listSubscribers',
  output: PAGE,
} as const;
const LIST_FAILED = {
  type: 'xstate.error.actor.listSubscribers',
  actorId: 'listSubscribers',
  error: SERVER_DOWN,
} as const;

// Events offered per state, so the walk stays small (the model sends any other accepted event bare, so
// every state also gets the events the whole machine takes).
const ANYWHERE: SubscribersListEvent[] = [
  { type: 'location.change', selection: DOWNTOWN },
  { type: 'refresh.due' },
  { type: 'upload.completed' },
  { type: 'xstate.done.actor.exportSubscribers', actorId: 'exportSubscribers', output: null },
  { type: 'xstate.error.actor.exportSubscribers', actorId: 'exportSubscribers', error: SERVER_DOWN },
];
const SAMPLES: Record<string, SubscribersListEvent[]> = {
  'listing.loading': [
    LIST_DONE,
    LIST_FAILED,
    { type: 'search.change', query: 'ann' },
    { type: 'location.change', selection: DOWNTOWN },
    { type: 'refresh.due' },
  ],
  'listing.failed': [{ type: 'list.retry' }, { type: 'search.change', query: 'ann' }],
  'listing.debouncing': [{ type: 'search.settled' }, { type: 'search.change', query: 'ann' }],
  'listing.browsing': [
    { type: 'search.change', query: 'ann' },
    { type: 'page.change', page: 2 },
    { type: 'location.change', selection: DOWNTOWN },
    { type: 'subscriber.add' },
    { type: 'subscriber.edit', subscriber: BEN },
    { type: 'profile.open', subscriber: BEN },
    { type: 'export.start' },
    { type: 'notice.dismiss' },
    { type: 'upload.completed' },
    { type: 'refresh.due' },
    { type: 'xstate.done.actor.exportSubscribers', actorId: 'exportSubscribers', output: null },
    { type: 'xstate.error.actor.exportSubscribers', actorId: 'exportSubscribers', error: SERVER_DOWN },
  ],
  'adding.open': [
    // An email makes the form valid; a four-digit zip makes it invalid.
    { type: 'field.change', field: 'email', value: 'new@example.com' },
    { type: 'field.change', field: 'zip', value: '1234' },
    { type: 'subscribed.change', value: false },
    { type: 'dialog.submit' },
    { type: 'dialog.close' },
    { type: 'refresh.due' },
  ],
  'adding.saving': [
    { type: 'xstate.done.actor.createSubscriber', actorId: 'createSubscriber', output: ANA },
    { type: 'xstate.error.actor.createSubscriber', actorId: 'createSubscriber', error: EMAIL_EXISTS },
  ],
  'updating.open': [
    { type: 'field.change', field: 'zip', value: '1234' },
    { type: 'subscribed.change', value: false },
    { type: 'dialog.submit' },
    { type: 'dialog.close' },
  ],
  'updating.saving': [
    { type: 'xstate.done.actor.updateSubscriber', actorId: 'updateSubscriber', output: BEN_UPDATED },
    { type: 'xstate.error.actor.updateSubscriber', actorId: 'updateSubscriber', error: SERVER_DOWN },
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
      listSubscribers: pendingActor('listSubscribers', recording),
      createSubscriber: pendingActor('createSubscriber', recording),
      updateSubscriber: pendingActor('updateSubscriber', recording),
      exportSubscribers: pendingActor('exportSubscribers', recording),
    },
    actions: {
      storeProfileKind: (_, kind) => {
        recording.invoked.push({ src: 'storeProfileKind', input: kind });
      },
    },
    // The path sends the delays' events itself.
    delays: { searchDelay: 2 ** 30, refreshDelay: 2 ** 30 },
  });

/** The filters the list call must carry for the context. */
function expectedQuery(context: { page: number; query: string; selection: { kind: string; id?: number } }) {
  return {
    page: context.page,
    page_size: 8,
    ...(context.query ? { q: context.query } : {}),
    ...(context.selection.kind === 'location' ? { location_id: [context.selection.id] } : {}),
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
    const lastList = recording.invoked.filter((call) => call.src === 'listSubscribers').at(-1);
    expect(lastList?.input).toEqual(expectedQuery(snapshot.context));
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot, recording) => {
    const { context } = snapshot;
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(context.problem).toBeNull();
    expect(context.list?.count).toBe(9);
    expect(context.refreshPending).toBe(false);
    // Opening a profile stores the kind and navigates, with '-' for a missing POS id.
    const navigations = recording.emitted.filter((event) => event.type === 'route.open');
    for (const event of navigations)
      expect(event).toEqual({ type: 'route.open', path: '/subscriber/profile/-/h2x/2' });
    const kinds = recording.invoked.filter((call) => call.src === 'storeProfileKind');
    expect(kinds.length).toBe(navigations.length);
    for (const call of kinds) expect(call.input).toBe('subscriber');
  },
  'listing.debouncing': (snapshot) => {
    expect(snapshot.context.query).toBe('ann');
  },
  adding: (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
  },
  'adding.open': (snapshot) => {
    const { context } = snapshot;
    if ('email' in context.fieldErrors) {
      // The schema's message while blank, the server's when the address is taken.
      if (context.form.email === '') expect(context.fieldErrors.email).toBe('Email is required');
      else expect(context.fieldErrors.email).toBe('Email already exists');
    }
    if ('zip' in context.fieldErrors) expect(context.fieldErrors.zip).toBe('Zip code is not valid');
  },
  'adding.saving': (snapshot, recording) => {
    const { context } = snapshot;
    expect(snapshot.hasTag('busy')).toBe(true);
    const call = recording.invoked.at(-1) as { src: string; input: { source_location_id: number | null } };
    const { source_location_id: source, ...rest } = call.input;
    expect(call.src).toBe('createSubscriber');
    expect(rest).toEqual({
      email: context.form.email,
      first_name: '',
      last_name: '',
      phone: '',
      zip: '',
      birthday: null,
      subscribed: context.form.subscribed,
      pos_id: '',
    });
    // The selected location is the source; a location chosen while saving only reloads the list after.
    if (!context.refreshPending)
      expect(source).toBe(context.selection.kind === 'location' ? DOWNTOWN.id : null);
    else expect([null, DOWNTOWN.id]).toContain(source);
  },
  updating: (snapshot) => {
    expect(snapshot.context.selected).toEqual(BEN);
  },
  'updating.open': (snapshot) => {
    const { context } = snapshot;
    if ('zip' in context.fieldErrors) {
      expect(context.fieldErrors.zip).toBe('Zip code is not valid');
      expect(context.form.zip).toBe('1234');
    }
    if (context.problem) expect(context.problem).toMatchObject({ status: 500 });
  },
  'updating.saving': (snapshot, recording) => {
    const { form } = snapshot.context;
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateSubscriber',
      input: {
        id: BEN.id,
        profile: {
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
 * Snapshots count as the same model state when they agree on what changes behaviour (state, filters kind,
 * pending refresh, export, field errors, the form's validity), so the walk does not multiply every notice
 * and typed value; the paths still replay on a real actor with their exact contexts.
 */
function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof subscribersListMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    selection: context.selection.kind,
    pending: context.refreshPending,
    exporting: context.exporting,
    errors: Object.keys(context.fieldErrors).sort(),
    email: context.form.email !== '',
    zip: context.form.zip,
    listed: context.list !== null,
  });
}

const model = createTestModel(subscribersListMachine, {
  events: samplesFor,
  input: undefined,
  serializeState,
});
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

describe('subscribers list machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'adding.open',
      'adding.saving',
      'listing.browsing',
      'listing.debouncing',
      'listing.failed',
      'listing.loading',
      'updating.open',
      'updating.saving',
    ]);
  });

  it('builds profile paths with "-" for a missing POS id', () => {
    expect(profilePathOf('subscriber', ANA)).toBe('/subscriber/profile/POS-17/h1x/1');
    expect(profilePathOf('subscriber', BEN)).toBe('/subscriber/profile/-/h2x/2');
    expect(profilePathOf('guest', { id: 3, hashid: 'a/b', pos_id: 'x y' })).toBe(
      '/guest/profile/x%20y/a%2Fb/3',
    );
  });

  it('exports with the list filters and never two at once', () => {
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        if (step.event.type !== 'export.start' || index === 0) return;
        const before = path.steps[index - 1]!.state;
        if (!before.matches({ listing: 'browsing' })) return;
        expect(step.state.context.exporting).toBe(true);
      });
    }
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording), { input: { selection: DOWNTOWN } }).start();
    actor.send({
      type: 'xstate.done.actor.listSubscribers',
      actorId: 'listSubscribers',
      output: PAGE,
    } as never);
    actor.send({ type: 'export.start' });
    actor.send({ type: 'export.start' });
    expect(recording.invoked.filter((call) => call.src === 'exportSubscribers')).toEqual([
      { src: 'exportSubscribers', input: { location_id: [4] } },
    ]);
    actor.stop();
  });

  it('refreshes 3 seconds after an add, an update and an upload, and once after a dialog closes (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = createActor(
      start(recording).provide({ delays: { searchDelay: 300, refreshDelay: 3000 } }),
      {
        clock,
        input: { selection: { kind: 'group', id: 7, name: 'Chicago' } },
      },
    ).start();
    const lists = () => recording.invoked.filter((call) => call.src === 'listSubscribers').length;
    actor.send({
      type: 'xstate.done.actor.listSubscribers',
      actorId: 'listSubscribers',
      output: PAGE,
    } as never);
    expect(recording.invoked[0]?.input).toEqual({ page: 1, page_size: 8, location_group_id: [7] });

    // Update: the row changes at once, the list reloads 3 s later.
    actor.send({ type: 'subscriber.edit', subscriber: BEN });
    actor.send({ type: 'field.change', field: 'zip', value: '10001' });
    actor.send({ type: 'dialog.submit' });
    actor.send({
      type: 'xstate.done.actor.updateSubscriber',
      actorId: 'updateSubscriber',
      output: BEN_UPDATED,
    } as never);
    expect(actor.getSnapshot().context.list?.results[1]).toEqual(BEN_UPDATED);
    clock.increment(2999);
    expect(lists()).toBe(1);
    clock.increment(1);
    expect(lists()).toBe(2);
    actor.send({
      type: 'xstate.done.actor.listSubscribers',
      actorId: 'listSubscribers',
      output: PAGE,
    } as never);

    // An upload finishes while the add dialog is open: the refresh waits for the dialog to close.
    actor.send({ type: 'upload.completed' });
    actor.send({ type: 'subscriber.add' });
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
