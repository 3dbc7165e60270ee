import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import {
  CustomerKindSchema,
  NoteCreateSchema,
  ProfileCardCreateSchema,
  type CustomerKind,
  type Note,
  type NoteCreate,
  type ProfileCard,
  type ProfileCardCreate,
} from '../schemas/customers.js';
import type { SubscriberFlowPaths } from '../schemas/flows.js';
import type { GuestProfile } from '../schemas/guests.js';
import {
  SubscriberProfileUpdateSchema,
  type Subscriber,
  type SubscriberProfile,
} from '../schemas/subscribers.js';
import { profilePath } from './guest-list.machine.js';
import { requestIn } from './kit/request.js';
import {
  detailsFormOf,
  detailsUpdateOf,
  type DetailsChange,
  type DetailsForm,
  type DetailsUpdateRequest,
  type SourceLocation,
} from './profile-details.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** The profile a path names: /{guest|subscriber}/profile/{pos_id}/{hashid}/{id} ('-' for no POS id). */
export interface ProfileRoute {
  /** The kind the path starts with, used when storage holds none. */
  kind: CustomerKind;
  id: number;
  hashid: string;
  pos_id: string;
}

/** Which profile to load or delete, and as which kind. */
export interface ProfileRequest {
  kind: CustomerKind;
  id: number;
  hashid: string;
  pos_id: string;
}

/** A guest's or a subscriber's profile. */
export type AnyProfile = GuestProfile | SubscriberProfile;

/** One enrolment of the person in a flow, with the steps they passed. */
export type FlowPath = SubscriberFlowPaths['results'][number];

/** What loading a profile answers: the profile with its cards and notes. */
export interface LoadedProfile {
  profile: AnyProfile;
  cards: ProfileCard[];
  notes: Note[];
  /** A subscriber's: the company's locations, naming the source location and offering others. */
  locations?: SourceLocation[];
  /**
   * The subscriber's (or the guest's linked subscriber's) way through each flow, newest first; null or absent:
   * not available (no subscriber, or the flows are not the user's to read).
   */
  flows?: FlowPath[] | null;
}

/** `POST …/{id}/cards/`. */
export interface CardAddRequest {
  kind: CustomerKind;
  id: number;
  card: ProfileCardCreate;
}

/** `DELETE …/{id}/cards/{cardId}/`. */
export interface CardRemoveRequest {
  kind: CustomerKind;
  id: number;
  cardId: number;
}

/** `POST …/{id}/notes/`. */
export interface NoteAddRequest {
  kind: CustomerKind;
  id: number;
  note: NoteCreate;
}

/** The fields of the add-card dialog. */
export type CardField = 'last_four_digits' | 'card_brand' | 'name_on_card';

/** The add-card dialog as typed. */
export type CardForm = Record<CardField, string>;

/** The add-card dialog's starting values. */
export const EMPTY_CARD_FORM: CardForm = { last_four_digits: '', card_brand: '', name_on_card: '' };

/** What the profile's view sends. */
export type CustomerProfileCommand =
  | { type: 'profile.retry' }
  | { type: 'profile.refresh' }
  | { type: 'profile.back' }
  | { type: 'profile.delete' }
  | { type: 'delete.confirm' }
  | { type: 'dialog.close' }
  | { type: 'card.add' }
  | { type: 'card.change'; field: CardField; value: string }
  | { type: 'dialog.submit' }
  | { type: 'card.remove'; card: ProfileCard }
  | { type: 'note.change'; body: string }
  | { type: 'note.submit' }
  | { type: 'subscription.open' }
  | { type: 'details.edit' }
  | ({ type: 'details.change' } & DetailsChange)
  | { type: 'notice.dismiss' };

/** Everything the profile handles: commands and the calls' results. */
export type CustomerProfileEvent =
  | CustomerProfileCommand
  | DoneActorEvent<string | null, 'readProfileKind'>
  | ErrorActorEvent<unknown, 'readProfileKind'>
  | DoneActorEvent<LoadedProfile, 'loadProfile'>
  | ErrorActorEvent<unknown, 'loadProfile'>
  | DoneActorEvent<ProfileCard, 'addCard'>
  | ErrorActorEvent<unknown, 'addCard'>
  | DoneActorEvent<unknown, 'removeCard'>
  | ErrorActorEvent<unknown, 'removeCard'>
  | DoneActorEvent<Note, 'addNote'>
  | ErrorActorEvent<unknown, 'addNote'>
  | DoneActorEvent<unknown, 'deleteProfile'>
  | ErrorActorEvent<unknown, 'deleteProfile'>
  | DoneActorEvent<unknown, 'rememberProfileKind'>
  | ErrorActorEvent<unknown, 'rememberProfileKind'>
  | DoneActorEvent<Subscriber, 'updateDetails'>
  | ErrorActorEvent<unknown, 'updateDetails'>;

/** What the profile tells the screen: go to another page. */
export type CustomerProfileEmitted = { type: 'route.open'; path: string };

/** A change the profile confirms with a short notice. */
export type ProfileNotice = 'cardAdded' | 'cardRemoved' | 'noteAdded' | 'detailsSaved';

/** What the profile knows. */
export interface CustomerProfileContext {
  route: ProfileRoute;
  /** The kind being loaded: from storage, else the path's. */
  kind: CustomerKind;
  profile: AnyProfile | null;
  cards: ProfileCard[];
  notes: Note[];
  cardForm: CardForm;
  cardErrors: FieldErrors;
  /** The card being removed. */
  removing: ProfileCard | null;
  noteDraft: string;
  noteErrors: FieldErrors;
  /** The details dialog of a subscriber's profile. */
  detailsForm: DetailsForm | null;
  detailsErrors: FieldErrors;
  /** The company's locations (subscriber profiles only). */
  locations: SourceLocation[];
  /** The person's flow enrolments, newest first; null: not available. */
  flows: FlowPath[] | null;
  problem: ApiProblem | null;
  notice: ProfileNotice | null;
}

/** The list a kind's profile belongs to: where "back" and a deletion lead. */
export function listPathOf(kind: CustomerKind): string {
  return kind === 'guest' ? '/guest/analytics' : '/subscribers';
}

/** The kind storage holds, or the path's when it holds none (or something else). */
export function resolvedKind(stored: unknown, fallback: CustomerKind): CustomerKind {
  const parsed = CustomerKindSchema.safeParse(stored);
  return parsed.success ? parsed.data : fallback;
}

/** True for a failed load the server answered 404: no such profile in this company. */
function isNotFoundEvent(event: CustomerProfileEvent): boolean {
  return event.type === 'xstate.error.actor.loadProfile' && problemOf(event.error).status === 404;
}

function requestOf(context: CustomerProfileContext): ProfileRequest {
  return {
    kind: context.kind,
    id: context.route.id,
    hashid: context.route.hashid,
    pos_id: context.route.pos_id,
  };
}

// The profile screen's types, actors, guards and actions.
const customerProfileSetup = setup({
  types: {
    context: {} as CustomerProfileContext,
    events: {} as CustomerProfileEvent,
    emitted: {} as CustomerProfileEmitted,
    input: {} as ProfileRoute,
  },
  actors: {
    /** Reads the stored profile kind (local storage). */
    readProfileKind: placeholder<string | null>(),
    /** Stores the profile kind before opening the linked subscriber. */
    rememberProfileKind: placeholder<unknown, CustomerKind>(),
    /** `GET …/{id}/?hashid&pos_id` with `…/cards/` and `…/notes/`. */
    loadProfile: placeholder<LoadedProfile, ProfileRequest>(),
    /** `POST …/{id}/cards/`. */
    addCard: placeholder<ProfileCard, CardAddRequest>(),
    /** `DELETE …/{id}/cards/{cardId}/`. */
    removeCard: placeholder<unknown, CardRemoveRequest>(),
    /** `POST …/{id}/notes/`. */
    addNote: placeholder<Note, NoteAddRequest>(),
    /** `DELETE …/{id}/?hashid&pos_id`. */
    deleteProfile: placeholder<unknown, ProfileRequest>(),
    /** `PUT /subscriptions/subscribers/{id}/profile/`. */
    updateDetails: placeholder<Subscriber, DetailsUpdateRequest>(),
  },
  guards: {
    isNotFound: ({ event }) => isNotFoundEvent(event),
    // A stale stored kind (another profile was opened last) finds nothing: try the path's kind once.
    mayTryPathKind: ({ context, event }) => isNotFoundEvent(event) && context.kind !== context.route.kind,
    cardIsValid: ({ context }) => ProfileCardCreateSchema.safeParse(context.cardForm).success,
    noteIsValid: ({ context }) => NoteCreateSchema.safeParse({ body: context.noteDraft }).success,
    isSubscriberProfile: ({ context }) => context.profile?.kind === 'subscriber',
    detailsAreValid: ({ context }) =>
      context.detailsForm !== null && detailsUpdateOf(context.detailsForm).success,
    hasLinkedSubscriber: ({ context }) =>
      context.profile?.kind === 'guest' && context.profile.subscription !== null,
  },
  actions: {
    keepKind: assign(({ context }, stored: string | null) => ({
      kind: resolvedKind(stored, context.route.kind),
    })),
    usePathKind: assign(({ context }) => ({ kind: context.route.kind })),
    keepLoaded: assign((_, loaded: LoadedProfile) => ({
      // The answer says what it is: cards, notes and deletion then use the kind that loaded.
      kind: loaded.profile.kind,
      profile: loaded.profile,
      cards: loaded.cards,
      notes: loaded.notes,
      locations: loaded.locations ?? [],
      flows: loaded.flows ?? null,
      problem: null,
    })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    clearProblem: assign({ problem: null }),
    openCardForm: assign({ cardForm: EMPTY_CARD_FORM, cardErrors: {}, problem: null, notice: null }),
    closeCardForm: assign({ cardForm: EMPTY_CARD_FORM, cardErrors: {}, problem: null }),
    changeCard: assign(({ context }, change: { field: CardField; value: string }) => ({
      cardForm: { ...context.cardForm, [change.field]: change.value },
      cardErrors: withoutField(context.cardErrors, change.field),
    })),
    showCardErrors: assign(({ context }) => {
      const result = ProfileCardCreateSchema.safeParse(context.cardForm);
      return { cardErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null };
    }),
    keepCardServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, cardErrors: problem.fields };
    }),
    addCardToList: assign(({ context }, card: ProfileCard) => ({
      // An answer repeated (a retried call) replaces its card rather than listing it twice.
      cards: [...context.cards.filter((kept) => kept.id !== card.id), card],
      cardForm: EMPTY_CARD_FORM,
      cardErrors: {},
      notice: 'cardAdded' as const,
    })),
    markRemoving: assign((_, card: ProfileCard) => ({ removing: card, problem: null, notice: null })),
    dropRemovedCard: assign(({ context }) => ({
      cards: context.cards.filter((card) => card.id !== context.removing?.id),
      removing: null,
      notice: 'cardRemoved' as const,
    })),
    forgetRemoving: assign({ removing: null }),
    changeNote: assign((_, body: string) => ({ noteDraft: body, noteErrors: {} })),
    showNoteErrors: assign(({ context }) => {
      const result = NoteCreateSchema.safeParse({ body: context.noteDraft });
      return { noteErrors: result.success ? {} : fieldErrorsOf(result.error), notice: null };
    }),
    keepNoteServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, noteErrors: problem.fields };
    }),
    addNoteToList: assign(({ context }, note: Note) => ({
      notes: [note, ...context.notes.filter((kept) => kept.id !== note.id)],
      noteDraft: '',
      noteErrors: {},
      notice: 'noteAdded' as const,
    })),
    openDetailsForm: assign(({ context }) => ({
      detailsForm: context.profile?.kind === 'subscriber' ? detailsFormOf(context.profile.subscriber) : null,
      detailsErrors: {},
      problem: null,
      notice: null,
    })),
    closeDetailsForm: assign({ detailsForm: null, detailsErrors: {}, problem: null }),
    changeDetails: assign(({ context }, change: DetailsChange) => ({
      detailsForm: context.detailsForm && { ...context.detailsForm, [change.field]: change.value },
      detailsErrors: withoutField(context.detailsErrors, change.field),
    })),
    showDetailsErrors: assign(({ context }) => {
      const result = context.detailsForm ? detailsUpdateOf(context.detailsForm) : null;
      return { detailsErrors: result && !result.success ? fieldErrorsOf(result.error) : {}, problem: null };
    }),
    keepDetailsServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, detailsErrors: problem.fields };
    }),
    announceDetailsSaved: assign({ notice: 'detailsSaved' as const }),
    startChange: assign({ problem: null, notice: null }),
    dismissNotice: assign({ notice: null, problem: null }),
    goBack: emit(({ context }) => ({ type: 'route.open' as const, path: listPathOf(context.kind) })),
    goBackToPathList: emit(({ context }) => ({
      type: 'route.open' as const,
      path: listPathOf(context.route.kind),
    })),
    openLinkedSubscriber: emit(({ context }) => {
      const linked = context.profile?.kind === 'guest' ? context.profile.subscription : null;
      const path = linked
        ? profilePath('subscriber', {
            id: linked.subscriber_id,
            hashid: linked.hashid,
            // Older answers do not name the subscriber's POS id: a linked subscriber shares the guest's.
            pos_id:
              linked.pos_id !== undefined
                ? linked.pos_id
                : context.profile?.kind === 'guest'
                  ? context.profile.guest.pos_id
                  : null,
          })
        : listPathOf('subscriber');
      return { type: 'route.open' as const, path };
    }),
  },
});
const request = requestIn(customerProfileSetup);

/**
 * One profile screen for /guest/profile/… and /subscriber/profile/… (spec sections 2 and 4): the kind
 * comes from local storage ('guest' or 'subscriber'), or from the path when storage has none; a stored
 * kind that finds nothing is tried once more as the path's kind. Shows the person's visits with their
 * cards and notes; cards are added (validated) and removed, notes added; the person is deleted after a
 * confirmation and the screen goes back to the list. A profile that is not there (404) is a not-found
 * state with a way back.
 */
export const customerProfileMachine = customerProfileSetup.createMachine({
  id: 'customerProfile',
  context: ({ input }) => ({
    route: input,
    kind: input.kind,
    profile: null,
    cards: [],
    notes: [],
    cardForm: EMPTY_CARD_FORM,
    cardErrors: {},
    removing: null,
    noteDraft: '',
    noteErrors: {},
    detailsForm: null,
    detailsErrors: {},
    locations: [],
    flows: null,
    problem: null,
    notice: null,
  }),
  initial: 'resolving',
  states: {
    resolving: {
      tags: ['busy'],
      ...request('readProfileKind', {
        done: {
          target: 'loading',
          actions: { type: 'keepKind', params: ({ event }) => event.output },
        },
        // Storage unavailable: the path says which kind.
        error: { target: 'loading', actions: 'usePathKind' },
      }),
    },
    loading: {
      tags: ['busy'],
      ...request('loadProfile', {
        input: ({ context }) => requestOf(context),
        done: {
          target: 'viewing',
          actions: { type: 'keepLoaded', params: ({ event }) => event.output },
        },
        error: [
          {
            guard: 'mayTryPathKind',
            target: 'loading',
            reenter: true,
            actions: 'usePathKind',
          },
          {
            guard: 'isNotFound',
            target: 'notFound',
            actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'failed',
            actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      }),
    },
    failed: {
      on: {
        'profile.retry': { target: 'loading', actions: 'clearProblem' },
        'profile.back': { actions: 'goBackToPathList' },
      },
    },
    notFound: {
      on: { 'profile.back': { actions: 'goBackToPathList' } },
    },
    viewing: {
      initial: 'idle',
      // Back leaves the screen from anywhere in the profile, a dialog or a call under way included.
      on: { 'notice.dismiss': { actions: 'dismissNotice' }, 'profile.back': { actions: 'goBack' } },
      states: {
        idle: {
          on: {
            'card.add': { target: 'addingCard', actions: 'openCardForm' },
            'card.remove': {
              target: 'removingCard',
              actions: { type: 'markRemoving', params: ({ event }) => event.card },
            },
            'note.change': { actions: { type: 'changeNote', params: ({ event }) => event.body } },
            'note.submit': [
              { guard: 'noteIsValid', target: 'savingNote', actions: 'startChange' },
              { actions: 'showNoteErrors' },
            ],
            'profile.delete': { target: 'confirmingDelete', actions: 'startChange' },
            'profile.refresh': { target: 'refreshing', actions: 'startChange' },
            'subscription.open': { guard: 'hasLinkedSubscriber', target: 'openingSubscriber' },
            'details.edit': {
              guard: 'isSubscriberProfile',
              target: 'editingDetails',
              actions: 'openDetailsForm',
            },
          },
        },
        // Reads the profile again (new checks, a new CLV fit); the figures on screen stay until the answer.
        refreshing: {
          tags: ['busy'],
          ...request('loadProfile', {
            input: ({ context }) => requestOf(context),
            done: { target: 'idle', actions: { type: 'keepLoaded', params: ({ event }) => event.output } },
            error: {
              target: 'idle',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
        // A subscriber's details: the add dialog's fields, saved through the update call, then the profile reloads.
        editingDetails: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'details.change': { actions: { type: 'changeDetails', params: ({ event }) => event } },
                'dialog.submit': [
                  { guard: 'detailsAreValid', target: 'saving', actions: 'clearProblem' },
                  { actions: 'showDetailsErrors' },
                ],
                'dialog.close': { target: '#customerProfile.viewing.idle', actions: 'closeDetailsForm' },
              },
            },
            saving: {
              tags: ['busy'],
              ...request('updateDetails', {
                input: ({ context }) => ({
                  id: context.route.id,
                  changes: SubscriberProfileUpdateSchema.parse(context.detailsForm),
                }),
                done: { target: 'reloading', actions: 'closeDetailsForm' },
                error: {
                  target: 'editing',
                  actions: {
                    type: 'keepDetailsServerErrors',
                    params: ({ event }) => ({ error: event.error }),
                  },
                },
              }),
            },
            reloading: {
              tags: ['busy'],
              ...request('loadProfile', {
                input: ({ context }) => requestOf(context),
                done: {
                  target: '#customerProfile.viewing.idle',
                  actions: [
                    { type: 'keepLoaded', params: ({ event }) => event.output },
                    'announceDetailsSaved',
                  ],
                },
                // Saved, but the new answer did not come: say so; the old profile stays on screen.
                error: {
                  target: '#customerProfile.viewing.idle',
                  actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
                },
              }),
            },
          },
        },
        addingCard: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'card.change': { actions: { type: 'changeCard', params: ({ event }) => event } },
                'dialog.submit': [
                  { guard: 'cardIsValid', target: 'saving', actions: 'clearProblem' },
                  { actions: 'showCardErrors' },
                ],
                'dialog.close': { target: '#customerProfile.viewing.idle', actions: 'closeCardForm' },
              },
            },
            saving: {
              tags: ['busy'],
              ...request('addCard', {
                input: ({ context }) => ({
                  kind: context.kind,
                  id: context.route.id,
                  card: ProfileCardCreateSchema.parse(context.cardForm),
                }),
                done: {
                  target: '#customerProfile.viewing.idle',
                  actions: { type: 'addCardToList', params: ({ event }) => event.output },
                },
                error: {
                  target: 'editing',
                  actions: { type: 'keepCardServerErrors', params: ({ event }) => ({ error: event.error }) },
                },
              }),
            },
          },
        },
        removingCard: {
          tags: ['busy'],
          ...request('removeCard', {
            input: ({ context }) => ({
              kind: context.kind,
              id: context.route.id,
              cardId: context.removing?.id ?? 0,
            }),
            done: { target: 'idle', actions: 'dropRemovedCard' },
            error: {
              target: 'idle',
              actions: [
                { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
                'forgetRemoving',
              ],
            },
          }),
        },
        savingNote: {
          tags: ['busy'],
          ...request('addNote', {
            input: ({ context }) => ({
              kind: context.kind,
              id: context.route.id,
              note: NoteCreateSchema.parse({ body: context.noteDraft }),
            }),
            done: {
              target: 'idle',
              actions: { type: 'addNoteToList', params: ({ event }) => event.output },
            },
            error: {
              target: 'idle',
              actions: { type: 'keepNoteServerErrors', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
        confirmingDelete: {
          on: {
            'delete.confirm': { target: 'deleting', actions: 'clearProblem' },
            'dialog.close': { target: 'idle', actions: 'clearProblem' },
          },
        },
        deleting: {
          tags: ['busy'],
          ...request('deleteProfile', {
            input: ({ context }) => requestOf(context),
            done: { target: '#customerProfile.deleted', actions: 'goBack' },
            error: {
              target: 'confirmingDelete',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
        openingSubscriber: {
          tags: ['busy'],
          ...request('rememberProfileKind', {
            input: 'subscriber' as const,
            done: { target: 'idle', actions: 'openLinkedSubscriber' },
            // Without storage the subscriber path's own kind still loads the right profile.
            error: { target: 'idle', actions: 'openLinkedSubscriber' },
          }),
        },
      },
    },
    deleted: {},
  },
});
