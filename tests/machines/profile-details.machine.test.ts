import { createTestModel } from '@xstate/graph';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  customerProfileMachine,
  type CustomerProfileEvent,
  type LoadedProfile,
  type ProfileRoute,
} from '../../src/machines/customer-profile.machine.js';
import type { CustomerActivity } from '../../src/schemas/customers.js';
import type { Subscriber, SubscriberProfile } from '../../src/schemas/subscribers.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition } from './support/walk.js';

// The details of a subscriber's profile: shown from the loaded profile, edited in a dialog checked by the
// update call's schema, saved through `updateDetails`, then the profile loads again.

const ROUTE: ProfileRoute = { kind: 'subscriber', id: 40, hashid: 's40h', pos_id: '' };

const NO_ACTIVITY: CustomerActivity = {
  visits: 0,
  total_spend: 0,
  average_check: 0,
  first_visit_at: null,
  last_visit_at: null,
  favourite_items: [],
  locations_visited: [],
  recent_visits: [],
};

const SUBSCRIBER: Subscriber = {
  id: 40,
  hashid: 's40h',
  pos_id: null,
  email: 'ana@example.com',
  first_name: 'Ana',
  last_name: 'Lee',
  phone: '+15035554585',
  zip: '97201',
  birthday: '1988-07-14',
  subscribed: false,
  SUBSCRIBED: 'False',
  guest_id: null,
  source_location_id: 3,
  list_ids: [],
  unsubscribed_at: null,
  created_at: '2025-03-01T19:00:00.000Z',
  updated_at: '2025-03-01T19:00:00.000Z',
};
const PROFILE: SubscriberProfile = {
  kind: 'subscriber',
  subscriber: SUBSCRIBER,
  activity: NO_ACTIVITY,
  metrics: null,
  lists: [],
};
const LOCATIONS = [
  { id: 3, name: 'Harbor' },
  { id: 4, name: 'Pier' },
];
const LOADED: LoadedProfile = { profile: PROFILE, cards: [], notes: [], locations: LOCATIONS };
const SAVED: Subscriber = { ...SUBSCRIBER, zip: '97202', source_location_id: 4 };
const RELOADED: LoadedProfile = { ...LOADED, profile: { ...PROFILE, subscriber: SAVED } };

const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const EMAIL_TAKEN = {
  status: 400,
  code: 'invalid',
  message: 'Invalid input',
  fields: { email: 'Email already exists' },
  fieldProblems: { email: { code: 'in_use' } },
};

const kindRead = {
  type: 'xstate.done.actor.readProfileKind',
  actorId: 'readProfileKind',
  output: null,
} as const;
const loaded = (output: LoadedProfile) =>
  ({ type: 'xstate.done.actor.loadProfile', actorId: 'loadProfile', output }) as CustomerProfileEvent;

const SAMPLES: CustomerProfileEvent[] = [
  kindRead,
  loaded(LOADED),
  { type: 'details.edit' },
  { type: 'details.change', field: 'zip', value: '972' },
  { type: 'details.change', field: 'zip', value: '97202' },
  { type: 'details.change', field: 'source_location_id', value: 4 },
  { type: 'dialog.submit' },
  { type: 'dialog.close' },
  { type: 'xstate.done.actor.updateDetails', actorId: 'updateDetails', output: SAVED },
  { type: 'xstate.error.actor.updateDetails', actorId: 'updateDetails', error: EMAIL_TAKEN },
  { type: 'xstate.error.actor.loadProfile', actorId: 'loadProfile', error: SERVER_DOWN },
];

// Every call the machine makes: the walk also passes through the card, note and delete states, whose calls
// would otherwise fail outside any test as unprovided actors.
const ACTORS = [
  'readProfileKind',
  'rememberProfileKind',
  'loadProfile',
  'addCard',
  'removeCard',
  'addNote',
  'deleteProfile',
  'updateDetails',
] as const;

const start = (recording: Recording) =>
  customerProfileMachine.provide({
    actors: Object.fromEntries(ACTORS.map((src) => [src, pendingActor(src, recording)])),
  });

function run(events: CustomerProfileEvent[]) {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), { input: ROUTE });
  actor.start();
  for (const event of events) actor.send(event);
  return { actor, recording };
}

const checks: StateChecks = {
  // States outside the details dialog (the walk passes through them) have their meaning in
  // customer-profile.machine.test.ts; here they only must not touch the dialog.
  resolving: () => undefined,
  'viewing.addingCard': (snapshot) => expect(snapshot.context.detailsForm).toBeNull(),
  'viewing.confirmingDelete': (snapshot) => expect(snapshot.context.detailsForm).toBeNull(),
  'viewing.savingNote': (snapshot) => expect(snapshot.context.detailsForm).toBeNull(),
  'viewing.removingCard': (snapshot) => expect(snapshot.context.detailsForm).toBeNull(),
  'viewing.deleting': (snapshot) => expect(snapshot.context.detailsForm).toBeNull(),
  'viewing.openingSubscriber': (snapshot) => expect(snapshot.context.detailsForm).toBeNull(),
  'viewing.refreshing': (snapshot) => expect(snapshot.context.detailsForm).toBeNull(),
  deleted: () => undefined,
  notFound: () => undefined,
  loading: () => undefined,
  failed: (snapshot) => expect(snapshot.context.problem).toMatchObject({ status: 500 }),
  'viewing.idle': (snapshot) => {
    expect(snapshot.context.detailsForm).toBeNull();
    expect(snapshot.context.locations).toEqual(LOCATIONS);
  },
  'viewing.editingDetails.editing': (snapshot) => {
    const { detailsForm, detailsErrors } = snapshot.context;
    // The phone starts in the national form, which the spec's phone rule accepts.
    expect(detailsForm.phone).toBe('(503) 555-4585');
    if (detailsErrors.zip) expect(detailsErrors.zip.message).toBe('Zip code is not valid');
    if (detailsErrors.email) expect(detailsErrors.email.message).toBe('Email already exists');
  },
  'viewing.editingDetails.saving': (snapshot, recording) => {
    const call = recording.invoked.at(-1);
    expect(call?.src).toBe('updateDetails');
    expect(call?.input).toMatchObject({
      id: 40,
      changes: { email: 'ana@example.com', birthday: '1988-07-14' },
    });
    expect(snapshot.hasTag('busy')).toBe(true);
  },
  'viewing.editingDetails.reloading': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadProfile',
      input: { kind: 'subscriber', id: 40, hashid: 's40h', pos_id: '' },
    });
    expect(snapshot.context.detailsForm).toBeNull();
  },
};

const model = createTestModel(customerProfileMachine, { events: SAMPLES, input: ROUTE });
const { transitions: paths } = everyTransition(customerProfileMachine, model);

describe('customer profile machine: a subscriber’s details', () => {
  it('reaches every state of the details dialog', () => {
    expect(reachedStates(paths)).toEqual(
      expect.arrayContaining([
        'viewing.editingDetails.editing',
        'viewing.editingDetails.saving',
        'viewing.editingDetails.reloading',
      ]),
    );
  });

  it('keeps each state’s meaning on every transition', () => {
    for (const path of paths) replayPath(path, start, checks, ROUTE);
  });

  it('saves every field through the update call and shows the profile loaded again', () => {
    const { actor, recording } = run([
      kindRead,
      loaded(LOADED),
      { type: 'details.edit' },
      { type: 'details.change', field: 'zip', value: '97202' },
      { type: 'details.change', field: 'source_location_id', value: 4 },
      { type: 'details.change', field: 'subscribed', value: true },
      { type: 'dialog.submit' },
    ]);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateDetails',
      input: {
        id: 40,
        changes: {
          email: 'ana@example.com',
          first_name: 'Ana',
          last_name: 'Lee',
          phone: '(503) 555-4585',
          zip: '97202',
          birthday: '1988-07-14',
          subscribed: true,
          source_location_id: 4,
        },
      },
    });
    actor.send({ type: 'xstate.done.actor.updateDetails', actorId: 'updateDetails', output: SAVED });
    expect(recording.invoked.at(-1)?.src).toBe('loadProfile');
    actor.send(loaded(RELOADED));
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ viewing: 'idle' })).toBe(true);
    expect(snapshot.context.profile).toEqual(RELOADED.profile);
    expect(snapshot.context.notice).toBe('detailsSaved');
  });

  it('refuses a zip code that is not five digits without calling the server', () => {
    const { actor, recording } = run([
      kindRead,
      loaded(LOADED),
      { type: 'details.edit' },
      { type: 'details.change', field: 'zip', value: '972' },
      { type: 'dialog.submit' },
    ]);
    expect(actor.getSnapshot().context.detailsErrors).toEqual({
      zip: { code: 'not_valid', message: 'Zip code is not valid' },
    });
    expect(recording.invoked.map((call) => call.src)).not.toContain('updateDetails');
  });

  it('offers no details dialog on a guest’s profile', () => {
    const guestLoaded = {
      ...LOADED,
      profile: { kind: 'guest' },
    } as unknown as LoadedProfile;
    const { actor } = run([kindRead, loaded(guestLoaded), { type: 'details.edit' }]);
    expect(actor.getSnapshot().matches({ viewing: 'idle' })).toBe(true);
  });
});
