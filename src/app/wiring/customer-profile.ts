import { forkJoin } from 'rxjs';
import { z } from 'zod';
import { fromPromise } from 'xstate';
import {
  customerProfileMachine,
  type CardAddRequest,
  type CardRemoveRequest,
  type AnyProfile,
  type FlowPath,
  type LoadedProfile,
  type NoteAddRequest,
  type ProfileRequest,
} from '../../machines/customer-profile.machine.js';
import type { DetailsUpdateRequest } from '../../machines/profile-details.js';
import {
  NoteSchema,
  ProfileCardSchema,
  type CustomerKind,
  type Note,
  type ProfileCard,
} from '../../schemas/customers.js';
import { SubscriberFlowPathsSchema } from '../../schemas/flows.js';
import { GuestProfileSchema } from '../../schemas/guests.js';
import { SubscriberProfileSchema, SubscriberSchema, type Subscriber } from '../../schemas/subscribers.js';
import { apiRequest } from '../../services/api-client.js';
import { readText, STORAGE_KEYS } from '../../services/storage.js';
import { answerOf } from './answer.js';
import { rememberProfileKind } from './guests.js';
import { everyLocation } from './locations.js';

/** Where a kind's profile lives under /api. */
function basePath(kind: CustomerKind, id: number): string {
  return kind === 'guest' ? `/pos/guests/${id}/` : `/subscriptions/subscribers/${id}/`;
}

/** The stored profile kind as text; a JSON string ('"guest"') is read as its value. */
export function storedProfileKind(): string | null {
  const text = readText('local', STORAGE_KEYS.profileKind);
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : text;
  } catch {
    return text;
  }
}

/** Any list answered as an array or as a page (`{results}`), read as an array. */
function listOf<Item extends z.ZodTypeAny>(item: Item) {
  return z.union([z.array(item), z.object({ results: z.array(item) }).transform((page) => page.results)]);
}

/**
 * The profile for its kind, then its cards and notes, and for a subscriber the company's locations (the source
 * location's name and the choices of the details dialog); a profile that is not there asks nothing more.
 */
async function loadProfile(input: ProfileRequest, signal: AbortSignal): Promise<LoadedProfile> {
  const base = basePath(input.kind, input.id);
  const key = { hashid: input.hashid, pos_id: input.pos_id };
  const profile = await answerOf<AnyProfile>(
    input.kind === 'guest'
      ? apiRequest({ method: 'GET', path: base, query: key, schema: GuestProfileSchema })
      : apiRequest({ method: 'GET', path: base, query: key, schema: SubscriberProfileSchema }),
    signal,
  );
  const extras = {
    cards: apiRequest({ method: 'GET', path: `${base}cards/`, schema: listOf(ProfileCardSchema) }),
    notes: apiRequest({ method: 'GET', path: `${base}notes/`, schema: listOf(NoteSchema) }),
  };
  if (profile.kind === 'guest') {
    const [loaded, flows] = await Promise.all([
      answerOf(forkJoin(extras), signal),
      flowPathsOf(profile.subscription?.subscriber_id ?? null, signal),
    ]);
    return { profile, ...loaded, flows };
  }
  const [{ cards, notes, page }, flows] = await Promise.all([
    answerOf(forkJoin({ ...extras, page: everyLocation() }), signal),
    flowPathsOf(profile.subscriber.id, signal),
  ]);
  const locations = page.results.map((location) => ({ id: location.id, name: location.name }));
  return { profile, cards, notes, locations, flows };
}

/**
 * `GET /customers/subscribers/{id}/flows/`: the person's way through each flow; null without a subscriber or when
 * the call is refused (a plan without flows), so the rest of the profile still shows.
 */
async function flowPathsOf(subscriberId: number | null, signal: AbortSignal): Promise<FlowPath[] | null> {
  if (subscriberId === null) return null;
  return answerOf(
    apiRequest({
      method: 'GET',
      path: `/customers/subscribers/${subscriberId}/flows/`,
      schema: SubscriberFlowPathsSchema,
    }),
    signal,
  ).then(
    (answer) => answer.results,
    () => null,
  );
}

/** The profile screen's machine with local storage and the guests' or subscribers' profile calls. */
export const customerProfileLogic = customerProfileMachine.provide({
  actors: {
    readProfileKind: fromPromise<string | null>(async () => storedProfileKind()),
    rememberProfileKind: fromPromise<unknown, CustomerKind>(async ({ input }) => rememberProfileKind(input)),
    loadProfile: fromPromise<LoadedProfile, ProfileRequest>(({ input, signal }) =>
      loadProfile(input, signal),
    ),
    addCard: fromPromise<ProfileCard, CardAddRequest>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'POST',
          path: `${basePath(input.kind, input.id)}cards/`,
          body: input.card,
          schema: ProfileCardSchema,
        }),
        signal,
      ),
    ),
    removeCard: fromPromise<unknown, CardRemoveRequest>(({ input, signal }) =>
      answerOf(
        apiRequest({ method: 'DELETE', path: `${basePath(input.kind, input.id)}cards/${input.cardId}/` }),
        signal,
      ),
    ),
    addNote: fromPromise<Note, NoteAddRequest>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'POST',
          path: `${basePath(input.kind, input.id)}notes/`,
          body: input.note,
          schema: NoteSchema,
        }),
        signal,
      ),
    ),
    updateDetails: fromPromise<Subscriber, DetailsUpdateRequest>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'PUT',
          path: `/subscriptions/subscribers/${input.id}/profile/`,
          body: input.changes,
          schema: SubscriberSchema,
        }),
        signal,
      ),
    ),
    deleteProfile: fromPromise<unknown, ProfileRequest>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'DELETE',
          path: basePath(input.kind, input.id),
          query: { hashid: input.hashid, pos_id: input.pos_id },
        }),
        signal,
      ),
    ),
  },
});
