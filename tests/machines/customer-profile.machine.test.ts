import { createTestModel } from '@xstate/graph';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  customerProfileMachine,
  EMPTY_CARD_FORM,
  listPathOf,
  resolvedKind,
  type CustomerProfileContext,
  type CustomerProfileEvent,
  type FlowPath,
  type LoadedProfile,
  type ProfileRoute,
} from '../../src/machines/customer-profile.machine.js';
import type { CustomerActivity, Note, ProfileCard } from '../../src/schemas/customers.js';
import type { GuestMetrics } from '../../src/schemas/guest-metrics.js';
import type { GuestProfile } from '../../src/schemas/guests.js';
import type { SubscriberProfile } from '../../src/schemas/subscribers.js';
import {
  describePath,
  pendingActor,
  reachedStates,
  type ModelPath,
  type Recording,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const ROUTE: ProfileRoute = { kind: 'guest', id: 7, hashid: 'g7h', pos_id: 'P-7' };

const ACTIVITY: CustomerActivity = {
  visits: 3,
  total_spend: 120.5,
  average_check: 40.17,
  first_visit_at: '2025-03-01T19:00:00.000Z',
  last_visit_at: '2026-01-09T20:00:00.000Z',
  favourite_items: [{ menu_item_id: 1, name: 'Oysters', quantity: 4, spend: 48 }],
  locations_visited: [
    { location_id: 3, name: 'Harbor', visits: 3, spend: 120.5, last_visit_at: '2026-01-09T20:00:00.000Z' },
  ],
  recent_visits: [
    { check_id: 11, location_name: 'Harbor', closed_at: '2026-01-09T20:00:00.000Z', total: 52, items: 3 },
  ],
};

const METRICS: GuestMetrics = {
  visits: 3,
  spend: 120.5,
  average_check: 40.17,
  first_visit_at: ACTIVITY.first_visit_at,
  last_visit_at: ACTIVITY.last_visit_at,
  days_since_last_visit: 12,
  visits_per_month: 0.35,
  favourite_location: { id: 3, name: 'Harbor' },
  favourite_items: [{ menu_item_id: 1, name: 'Oysters', quantity: 4, checks: 2 }],
  day_parts: { breakfast: 0, lunch: 1, dinner: 2, late: 0 },
  trackable: true,
  marketable: true,
  clv: null,
};

const GUEST_PROFILE: GuestProfile = {
  kind: 'guest',
  guest: {
    id: 7,
    hashid: 'g7h',
    pos_id: 'P-7',
    customer_name: 'Ana Lee',
    last_four_digits: '1234',
    first_location_id: 3,
    visit_count: 3,
    total_spend: 120.5,
    first_visit_at: ACTIVITY.first_visit_at,
    last_visit_at: ACTIVITY.last_visit_at,
    is_subscriber: true,
    email_consent: 'subscribed',
    created_at: '2025-03-01T19:00:00.000Z',
  },
  activity: ACTIVITY,
  metrics: METRICS,
  subscription: { subscriber_id: 40, hashid: 's40h', subscribed: true, email: 'ana@example.com' },
};

const CARD: ProfileCard = {
  id: 5,
  card_brand: 'Visa',
  name_on_card: 'ANA LEE',
  last_four_digits: '1234',
  created_at: '2025-03-01T19:00:00.000Z',
};
const NEW_CARD: ProfileCard = { ...CARD, id: 6, last_four_digits: '4242', card_brand: '', name_on_card: '' };
const NOTE: Note = {
  id: 1,
  body: 'Birthday in May',
  author_name: 'Mia Owner',
  written_by_staff_name: null,
  created_at: '2025-04-01T10:00:00.000Z',
};
const NEW_NOTE: Note = { ...NOTE, id: 2, body: 'Prefers the patio' };
const LOADED: LoadedProfile = { profile: GUEST_PROFILE, cards: [CARD], notes: [NOTE] };

const NOT_FOUND = { status: 404, code: 'not_found', message: 'Not found' };
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const CARD_REFUSED = {
  status: 400,
  code: 'invalid',
  message: 'Invalid input',
  fields: { last_four_digits: 'Last four digits is already linked' },
  fieldProblems: { last_four_digits: { code: 'in_use' } },
};

const SAMPLES: CustomerProfileEvent[] = [
  { type: 'profile.retry' },
  { type: 'profile.refresh' },
  { type: 'profile.back' },
  { type: 'profile.delete' },
  { type: 'delete.confirm' },
  { type: 'dialog.close' },
  { type: 'card.add' },
  { type: 'card.change', field: 'last_four_digits', value: '42a' },
  { type: 'card.change', field: 'last_four_digits', value: '4242' },
  { type: 'dialog.submit' },
  { type: 'card.remove', card: CARD },
  { type: 'note.change', body: 'Prefers the patio' },
  { type: 'note.change', body: '  ' },
  { type: 'note.submit' },
  { type: 'subscription.open' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.readProfileKind', actorId: 'readProfileKind', output: 'subscriber' },
  { type: 'xstate.done.actor.readProfileKind', actorId: 'readProfileKind', output: null },
  { type: 'xstate.error.actor.readProfileKind', actorId: 'readProfileKind', error: new Error('no storage') },
  { type: 'xstate.done.actor.loadProfile', actorId: 'loadProfile', output: LOADED },
  { type: 'xstate.error.actor.loadProfile', actorId: 'loadProfile', error: NOT_FOUND },
  { type: 'xstate.error.actor.loadProfile', actorId: 'loadProfile', error: SERVER_DOWN },
  { type: 'xstate.done.actor.addCard', actorId: 'addCard', output: NEW_CARD },
  { type: 'xstate.error.actor.addCard', actorId: 'addCard', error: CARD_REFUSED },
  { type: 'xstate.done.actor.removeCard', actorId: 'removeCard', output: null },
  { type: 'xstate.error.actor.removeCard', actorId: 'removeCard', error: SERVER_DOWN },
  { type: 'xstate.done.actor.addNote', actorId: 'addNote', output: NEW_NOTE },
  { type: 'xstate.error.actor.addNote', actorId: 'addNote', error: SERVER_DOWN },
  { type: 'xstate.done.actor.deleteProfile', actorId: 'deleteProfile', output: null },
  { type: 'xstate.error.actor.deleteProfile', actorId: 'deleteProfile', error: SERVER_DOWN },
  { type: 'xstate.done.actor.rememberProfileKind', actorId: 'rememberProfileKind', output: null },
  {
    type: 'xstate.error.actor.rememberProfileKind',
    actorId: 'rememberProfileKind',
    error: new Error('full'),
  },
];

const ACTORS = [
  'readProfileKind',
  'rememberProfileKind',
  'loadProfile',
  'addCard',
  'removeCard',
  'addNote',
  'deleteProfile',
] as const;

const start = (recording: Recording) =>
  customerProfileMachine.provide({
    actors: Object.fromEntries(ACTORS.map((src) => [src, pendingActor(src, recording)])),
  });

type Snapshot = { context: CustomerProfileContext; hasTag(tag: string): boolean };

const checks: Record<string, (snapshot: Snapshot, recording: Recording) => void> = {
  resolving: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked).toEqual([{ src: 'readProfileKind', input: undefined }]);
  },
  loading: (snapshot, recording) => {
    const { context } = snapshot;
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadProfile',
      input: { kind: context.kind, id: 7, hashid: 'g7h', pos_id: 'P-7' },
    });
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ status: 500 });
  },
  notFound: (snapshot) => {
    // Only the path's own kind is final: a stale stored kind was tried again as the path's.
    expect(snapshot.context.kind).toBe('guest');
    expect(snapshot.context.problem).toMatchObject({ status: 404 });
    expect(snapshot.context.profile).toBeNull();
  },
  viewing: (snapshot) => {
    expect(snapshot.context.profile).toEqual(GUEST_PROFILE);
    expect(snapshot.context.kind).toBe('guest');
  },
  'viewing.idle': (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.removing).toBeNull();
    const { noteErrors, noteDraft } = snapshot.context;
    if (noteErrors.body && noteDraft.trim() === '') {
      expect(noteErrors.body).toMatchObject({ code: 'required', message: 'Note is required' });
    }
  },
  'viewing.addingCard.editing': (snapshot) => {
    const { cardErrors, cardForm } = snapshot.context;
    const message = cardErrors.last_four_digits?.message;
    if (!message) return;
    // Four digits pass the schema: only the server can refuse them, and its message stays by the field.
    if (/^\d{4}$/.test(cardForm.last_four_digits)) expect(message).toBe('Last four digits is already linked');
    else expect(message).toMatch(/^Last four digits is (required|not valid)$/);
  },
  'viewing.addingCard.saving': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'addCard',
      input: { kind: 'guest', id: 7, card: { last_four_digits: '4242', card_brand: '', name_on_card: '' } },
    });
  },
  'viewing.removingCard': (snapshot, recording) => {
    expect(snapshot.context.removing).toEqual(CARD);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'removeCard',
      input: { kind: 'guest', id: 7, cardId: 5 },
    });
  },
  'viewing.savingNote': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'addNote',
      input: { kind: 'guest', id: 7, note: { body: 'Prefers the patio' } },
    });
  },
  'viewing.confirmingDelete': (snapshot) => {
    const { problem } = snapshot.context;
    if (problem) expect(problem.status).toBe(500);
  },
  'viewing.deleting': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'deleteProfile',
      input: { kind: 'guest', id: 7, hashid: 'g7h', pos_id: 'P-7' },
    });
  },
  'viewing.refreshing': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The figures already shown stay on screen while they are read again.
    expect(snapshot.context.profile).toEqual(GUEST_PROFILE);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadProfile',
      input: { kind: 'guest', id: 7, hashid: 'g7h', pos_id: 'P-7' },
    });
  },
  'viewing.openingSubscriber': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'rememberProfileKind', input: 'subscriber' });
  },
  deleted: (snapshot, recording) => {
    expect(recording.emitted.at(-1)).toEqual({ type: 'route.open', path: '/guest/analytics' });
  },
};

function replay(path: ModelPath, route: ProfileRoute = ROUTE): Recording {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), { input: route });
  actor.on('*', (event) => recording.emitted.push(event));
  actor.start();
  try {
    for (const step of path.steps) {
      if (step.event.type !== 'xstate.init') actor.send(step.event as CustomerProfileEvent);
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

/** Sends events to a fresh actor; answers the actor and what it invoked and emitted. */
function run(events: CustomerProfileEvent[], route: ProfileRoute = ROUTE) {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), { input: route });
  actor.on('*', (event) => recording.emitted.push(event));
  actor.start();
  for (const event of events) actor.send(event);
  return { actor, recording };
}

const kindRead = (output: string | null) =>
  ({ type: 'xstate.done.actor.readProfileKind', actorId: 'readProfileKind', output }) as CustomerProfileEvent;
const loaded = (output: LoadedProfile) =>
  ({ type: 'xstate.done.actor.loadProfile', actorId: 'loadProfile', output }) as CustomerProfileEvent;

const model = createTestModel(customerProfileMachine, { events: SAMPLES, input: ROUTE });
const { transitions: paths } = everyTransition(customerProfileMachine, model);

describe('customer profile machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'deleted',
      'failed',
      'loading',
      'notFound',
      'resolving',
      'viewing.addingCard.editing',
      'viewing.addingCard.saving',
      'viewing.confirmingDelete',
      'viewing.deleting',
      'viewing.idle',
      'viewing.openingSubscriber',
      'viewing.refreshing',
      'viewing.removingCard',
      'viewing.savingNote',
    ]);
  });

  it('loads the kind stored in local storage, else the path’s', () => {
    expect(resolvedKind('subscriber', 'guest')).toBe('subscriber');
    expect(resolvedKind(null, 'guest')).toBe('guest');
    expect(resolvedKind('"guest"', 'subscriber')).toBe('subscriber');
    const { recording } = run([kindRead('subscriber')]);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadProfile',
      input: { kind: 'subscriber', id: 7, hashid: 'g7h', pos_id: 'P-7' },
    });
  });

  it('tries the path’s kind once when the stored kind finds nothing, then shows not found', () => {
    const notFound = {
      type: 'xstate.error.actor.loadProfile',
      actorId: 'loadProfile',
      error: NOT_FOUND,
    } as CustomerProfileEvent;
    const { actor, recording } = run([kindRead('subscriber'), notFound]);
    expect(recording.invoked.map((call) => call.input)).toEqual([
      undefined,
      { kind: 'subscriber', id: 7, hashid: 'g7h', pos_id: 'P-7' },
      { kind: 'guest', id: 7, hashid: 'g7h', pos_id: 'P-7' },
    ]);
    actor.send(notFound);
    expect(actor.getSnapshot().value).toBe('notFound');
    actor.send({ type: 'profile.back' });
    expect(recording.emitted).toEqual([{ type: 'route.open', path: '/guest/analytics' }]);
  });

  it('opens the linked subscriber’s profile after storing the kind', () => {
    const { actor, recording } = run([kindRead(null), loaded(LOADED), { type: 'subscription.open' }]);
    actor.send({
      type: 'xstate.done.actor.rememberProfileKind',
      actorId: 'rememberProfileKind',
      output: null,
    });
    expect(recording.emitted).toEqual([{ type: 'route.open', path: '/subscriber/profile/P-7/s40h/40' }]);
    expect(actor.getSnapshot().matches({ viewing: 'idle' })).toBe(true);
  });

  it('goes back to the subscriber list after deleting a subscriber', () => {
    const subscriber: SubscriberProfile = {
      kind: 'subscriber',
      subscriber: {
        id: 40,
        hashid: 's40h',
        pos_id: null,
        email: 'ana@example.com',
        first_name: 'Ana',
        last_name: 'Lee',
        phone: '',
        zip: '',
        birthday: null,
        subscribed: true,
        SUBSCRIBED: 'True',
        guest_id: null,
        source_location_id: null,
        list_ids: [],
        unsubscribed_at: null,
        created_at: '2025-03-01T19:00:00.000Z',
        updated_at: '2025-03-01T19:00:00.000Z',
      },
      activity: ACTIVITY,
      metrics: null,
      lists: [],
    };
    const route: ProfileRoute = { kind: 'subscriber', id: 40, hashid: 's40h', pos_id: '' };
    const { actor, recording } = run(
      [
        kindRead(null),
        loaded({ profile: subscriber, cards: [], notes: [] }),
        { type: 'subscription.open' },
        { type: 'profile.delete' },
        { type: 'delete.confirm' },
        {
          type: 'xstate.done.actor.deleteProfile',
          actorId: 'deleteProfile',
          output: null,
        },
      ],
      route,
    );
    expect(recording.invoked.at(-1)).toEqual({
      src: 'deleteProfile',
      input: { kind: 'subscriber', id: 40, hashid: 's40h', pos_id: '' },
    });
    expect(actor.getSnapshot().value).toBe('deleted');
    expect(recording.emitted).toEqual([{ type: 'route.open', path: listPathOf('subscriber') }]);
  });

  it('adds a card and a note to the lists and removes a card', () => {
    const { actor } = run([
      kindRead(null),
      loaded(LOADED),
      { type: 'card.add' },
      { type: 'card.change', field: 'last_four_digits', value: '4242' },
      { type: 'dialog.submit' },
      { type: 'xstate.done.actor.addCard', actorId: 'addCard', output: NEW_CARD },
      { type: 'card.remove', card: CARD },
      { type: 'xstate.done.actor.removeCard', actorId: 'removeCard', output: null },
      { type: 'note.change', body: 'Prefers the patio' },
      { type: 'note.submit' },
      { type: 'xstate.done.actor.addNote', actorId: 'addNote', output: NEW_NOTE },
    ]);
    const { context } = actor.getSnapshot();
    expect(context.cards).toEqual([NEW_CARD]);
    expect(context.notes).toEqual([NEW_NOTE, NOTE]);
    expect(context).toMatchObject({ cardForm: EMPTY_CARD_FORM, noteDraft: '', notice: 'noteAdded' });
  });

  it('reads the profile again on refresh: a new visit and CLV replace the figures; a failure keeps them', () => {
    const later: LoadedProfile = {
      ...LOADED,
      profile: {
        ...GUEST_PROFILE,
        metrics: {
          ...METRICS,
          visits: 4,
          spend: 150.5,
          clv: {
            method: 'historical',
            fitted_at: '2026-01-10T02:00:00.000Z',
            calibration_end: '2026-01-09',
            horizon_years: 3,
            discount_rate: 0.1,
            figures: null,
          },
        },
      },
    };
    const { actor } = run([kindRead(null), loaded(LOADED), { type: 'profile.refresh' }, loaded(later)]);
    expect(actor.getSnapshot().matches({ viewing: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.profile).toEqual(later.profile);
    actor.send({ type: 'profile.refresh' });
    actor.send({ type: 'xstate.error.actor.loadProfile', actorId: 'loadProfile', error: SERVER_DOWN });
    expect(actor.getSnapshot().context).toMatchObject({ profile: later.profile, problem: { status: 500 } });
  });

  it('keeps the person’s flow paths with the profile, and none (not available) when the load brought none', () => {
    const path: FlowPath = {
      flow_id: 3,
      flow_name: 'Welcome new guests',
      version: 1,
      status: 'active',
      exit_reason: null,
      entered_at: '2026-01-02T17:00:00.000Z',
      left_at: null,
      steps: [
        {
          key: 'first-visit',
          kind: 'trigger',
          type: 'first_visit',
          entered_at: '2026-01-02T17:00:00.000Z',
          done_at: '2026-01-02T17:00:00.000Z',
          outcome: 'entered',
        },
        {
          key: 'wait-2-days',
          kind: 'delay',
          type: 'wait',
          entered_at: '2026-01-02T17:00:00.000Z',
          done_at: null,
          outcome: null,
        },
      ],
    };
    const { actor } = run([kindRead(null), loaded(LOADED)]);
    expect(actor.getSnapshot().context.flows).toBeNull();
    actor.send({ type: 'profile.refresh' });
    actor.send(loaded({ ...LOADED, flows: [path] }));
    expect(actor.getSnapshot().context.flows).toEqual([path]);
    actor.send({ type: 'profile.refresh' });
    actor.send(loaded({ ...LOADED, flows: [] }));
    expect(actor.getSnapshot().context.flows).toEqual([]);
  });

  it('refuses a card whose last four digits are not four digits, naming the field', () => {
    const { actor, recording } = run([
      kindRead(null),
      loaded(LOADED),
      { type: 'card.add' },
      { type: 'card.change', field: 'last_four_digits', value: '12' },
      { type: 'dialog.submit' },
    ]);
    expect(actor.getSnapshot().context.cardErrors).toEqual({
      last_four_digits: { code: 'not_valid', message: 'Last four digits is not valid' },
    });
    expect(recording.invoked.map((call) => call.src)).not.toContain('addCard');
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replay(path);
    });
  }
});
