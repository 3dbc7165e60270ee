import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import type { LocationFilter } from '../../src/machines/file-paging.machine.js';
import {
  EMPTY_INVITE_FORM,
  guestsToInviteMachine,
  type GuestsToInviteEvent,
} from '../../src/machines/guests-to-invite.machine.js';
import type { GuestFileRow } from '../../src/machines/support/csv-rows.js';
import { SubscriberCreateSchema, type Subscriber } from '../../src/schemas/subscribers.js';
import { ApiRequestError } from '../../src/services/api-client.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type ModelPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const ALL: LocationFilter = { location_id: [], location_group_id: [] };
const NORTH: LocationFilter = { location_id: [7], location_group_id: [] };
const INPUT = { filter: ALL };
const GUEST: GuestFileRow = { customer_name: 'Ana María Ruiz', last_four_digits: '8872', pos_id: 'P-1007' };

const ADDED: Subscriber = {
  id: 41,
  hashid: 'h41',
  pos_id: 'P-1007',
  email: 'ana@example.com',
  first_name: 'Ana',
  last_name: 'María Ruiz',
  phone: '',
  zip: '',
  birthday: null,
  subscribed: true,
  SUBSCRIBED: 'True',
  guest_id: 9,
  source_location_id: null,
  list_ids: [],
  unsubscribed_at: null,
  created_at: '2026-11-25T10:00:00.000Z',
  updated_at: '2026-11-25T10:00:00.000Z',
};

const SAMPLES: GuestsToInviteEvent[] = [
  { type: 'xstate.done.actor.countToInvite', actorId: 'countToInvite', output: 18_240 },
  { type: 'xstate.error.actor.countToInvite', actorId: 'countToInvite', error: new Error('offline') },
  { type: 'xstate.done.actor.exportToInvite', actorId: 'exportToInvite', output: undefined },
  { type: 'xstate.error.actor.exportToInvite', actorId: 'exportToInvite', error: new Error('offline') },
  { type: 'export.start' },
  { type: 'count.retry' },
  { type: 'count.refresh' },
  { type: 'filter.change', filter: NORTH },
  { type: 'subscriber.add', guest: GUEST },
  { type: 'field.change', field: 'email', value: 'ana@example.com' },
  { type: 'dialog.submit' },
  { type: 'dialog.close' },
  { type: 'xstate.done.actor.addSubscriber', actorId: 'addSubscriber', output: ADDED },
  {
    type: 'xstate.error.actor.addSubscriber',
    actorId: 'addSubscriber',
    error: new ApiRequestError(
      400,
      'invalid',
      'Invalid input',
      { email: 'Email already exists' },
      {
        email: { code: 'in_use' },
      },
    ),
  },
];

/** The machine with calls that record each ask and never settle (the path sends their answers). */
const start = (recording: Recording) =>
  guestsToInviteMachine.provide({
    actors: {
      countToInvite: pendingActor('countToInvite', recording),
      exportToInvite: pendingActor('exportToInvite', recording),
      addSubscriber: pendingActor('addSubscriber', recording),
    },
  });

/** The last call made of one actor. */
const lastCall = (recording: Recording, src: string) =>
  recording.invoked.filter((call) => call.src === src).at(-1);

const checks: StateChecks = {
  'total.counting': (snapshot, recording) => {
    // Every count asks the server for the filter in force, and shows no stale total meanwhile.
    expect(lastCall(recording, 'countToInvite')).toEqual({
      src: 'countToInvite',
      input: snapshot.context.filter,
    });
    expect(snapshot.context.total).toBeNull();
  },
  'total.ready': (snapshot) => {
    // A total shown is the server's whole count, never the rows read so far.
    expect(snapshot.context.total).toBe(18_240);
  },
  'total.exporting': (snapshot, recording) => {
    expect(lastCall(recording, 'exportToInvite')).toEqual({
      src: 'exportToInvite',
      input: snapshot.context.filter,
    });
    expect(snapshot.context.notice).toBeNull();
  },
  'total.failed': (snapshot) => {
    expect(snapshot.context.problem).not.toBeNull();
  },
  'adding.closed': (snapshot) => {
    expect(snapshot.context.guest).toBeNull();
    expect(snapshot.context.form).toEqual(EMPTY_INVITE_FORM);
    expect(snapshot.context.fieldErrors).toEqual({});
  },
  'adding.open': (snapshot) => {
    // The dialog holds the guest's names split from the POS name and the guest's own POS id.
    expect(snapshot.context.guest).toEqual(GUEST);
    expect(snapshot.context.form).toMatchObject({
      first_name: 'Ana',
      last_name: 'María Ruiz',
      pos_id: 'P-1007',
      subscribed: true,
    });
  },
  'adding.saving': (snapshot, recording) => {
    // Only a form the shared schema accepts is sent, with the POS id that links the guest.
    const call = lastCall(recording, 'addSubscriber');
    expect(call?.input).toEqual(SubscriberCreateSchema.parse(snapshot.context.form));
    expect(call?.input).toMatchObject({ email: 'ana@example.com', pos_id: 'P-1007' });
  },
};

const model = createTestModel(guestsToInviteMachine, { events: SAMPLES, input: INPUT });
const { transitions: paths } = everyTransition(guestsToInviteMachine, model);

/** The paths whose last step is this event, taken from this state. */
const pathsBy = (eventType: string, from: object) =>
  paths.filter(
    (path) =>
      path.steps.at(-1)?.event.type === eventType &&
      (path.steps.at(-2)?.state as { matches(value: object): boolean } | undefined)?.matches(from),
  );

describe('guests to invite machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'adding.closed',
      'adding.open',
      'adding.saving',
      'total.counting',
      'total.exporting',
      'total.failed',
      'total.ready',
    ]);
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

  it('refuses a guest without an email before any call, naming the field', () => {
    const [path] = pathsBy('dialog.submit', { adding: 'open' }).filter(
      (candidate) => candidate.state.context.form.email === '',
    );
    expect(path).toBeDefined();
    const recording = replayPath(path as ModelPath, start, checks, INPUT);
    expect(path!.state.matches({ adding: 'open' })).toBe(true);
    expect(path!.state.context.fieldErrors.email?.code).toBe('required');
    expect(lastCall(recording, 'addSubscriber')).toBeUndefined();
  });

  it('names a new subscriber, announces it and counts the guests to invite again', () => {
    const [path] = pathsBy('xstate.done.actor.addSubscriber', { total: 'ready' });
    expect(path).toBeDefined();
    const recording = replayPath(path as ModelPath, start, checks, INPUT);
    expect(path!.state.context.added).toBe('Ana María Ruiz');
    expect(path!.state.matches({ adding: 'closed', total: 'counting' })).toBe(true);
    expect(recording.emitted).toContainEqual({ type: 'subscriber.added', subscriber: ADDED });
  });

  it('counts again after an export when a guest was added during it', () => {
    const [path] = pathsBy('xstate.done.actor.exportToInvite', { total: 'exporting' }).filter(
      (candidate) => candidate.steps.at(-2)?.state.context.recountDue,
    );
    expect(path).toBeDefined();
    const recording = replayPath(path as ModelPath, start, checks, INPUT);
    expect(path!.state.matches({ total: 'counting' })).toBe(true);
    expect(path!.state.context.notice).toBe('exported');
    expect(recording.invoked.at(-1)?.src).toBe('countToInvite');
  });

  it("keeps the dialog open with the server's field errors beside their fields", () => {
    const [path] = pathsBy('xstate.error.actor.addSubscriber', { adding: 'saving' });
    expect(path).toBeDefined();
    expect(path!.state.matches({ adding: 'open' })).toBe(true);
    expect(path!.state.context.fieldErrors.email).toEqual({
      code: 'in_use',
      message: 'Email already exists',
    });
    expect(path!.state.context.form.email).toBe('ana@example.com');
    expect(path!.state.context.added).toBeNull();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`takes each of the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});
