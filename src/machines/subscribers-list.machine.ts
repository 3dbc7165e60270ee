import {
  assign,
  cancel,
  type DoneActorEvent,
  emit,
  enqueueActions,
  type ErrorActorEvent,
  raise,
  setup,
  spawnChild,
  stopChild,
} from 'xstate';
import type { Page } from '../schemas/common.js';
import { LIMITS } from '../schemas/constants.js';
import type { CustomerKind } from '../schemas/customers.js';
import {
  SubscriberCreateSchema,
  SubscriberProfileUpdateSchema,
  type Subscriber,
  type SubscriberCreate,
  type SubscriberProfileUpdate,
} from '../schemas/subscribers.js';
import { ALL_LOCATIONS, type LocationSelection } from './location-selection.machine.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

// Server calls start with spawnChild on entry and stop on exit; the search pause and the refresh after a
// change are delayed raises (what `invoke` and `after` do, in the form createTestModel accepts).

/** The text fields of the add and update dialogs. */
export type SubscriberTextField =
  'email' | 'first_name' | 'last_name' | 'phone' | 'zip' | 'birthday' | 'pos_id';

/** The subscriber dialog as typed. */
export type SubscriberForm = Record<SubscriberTextField, string> & { subscribed: boolean };

/** `GET /api/subscriptions/subscribers/` (and its export) filters: search text and the app's location choice. */
export interface SubscriberListQuery {
  page: number;
  page_size: number;
  q?: string;
  location_id?: number[];
  location_group_id?: number[];
}

/** `PUT /api/subscriptions/subscribers/{id}/profile/`. */
export interface SubscriberUpdateRequest {
  id: number;
  profile: SubscriberProfileUpdate;
}

/** What the subscribers screen's view (and the screen, for the location and uploads) sends. */
export type SubscribersListCommand =
  | { type: 'list.retry' }
  | { type: 'search.change'; query: string }
  | { type: 'page.change'; page: number }
  /** The app's location choice changed. */
  | { type: 'location.change'; selection: LocationSelection }
  | { type: 'subscriber.add' }
  | { type: 'subscriber.edit'; subscriber: Subscriber }
  | { type: 'profile.open'; subscriber: Subscriber }
  | { type: 'field.change'; field: SubscriberTextField; value: string }
  | { type: 'subscribed.change'; value: boolean }
  | { type: 'dialog.submit' }
  | { type: 'dialog.close' }
  | { type: 'export.start' }
  | { type: 'notice.dismiss' }
  /** A CSV upload finished (sent by the screen when the upload actor emits `upload.completed`). */
  | { type: 'upload.completed' };

/** Everything the subscribers list handles. */
export type SubscribersListEvent =
  | SubscribersListCommand
  /** Raised once typing has paused for `searchDelay`. */
  | { type: 'search.settled' }
  /** Raised `refreshDelay` after an add, an update or an upload. */
  | { type: 'refresh.due' }
  | DoneActorEvent<Page<Subscriber>, 'listSubscribers'>
  | ErrorActorEvent<unknown, 'listSubscribers'>
  | DoneActorEvent<Subscriber, 'createSubscriber'>
  | ErrorActorEvent<unknown, 'createSubscriber'>
  | DoneActorEvent<Subscriber, 'updateSubscriber'>
  | ErrorActorEvent<unknown, 'updateSubscriber'>
  | DoneActorEvent<unknown, 'exportSubscribers'>
  | ErrorActorEvent<unknown, 'exportSubscribers'>;

/** A message shown above the list. */
export type SubscribersNotice = 'created' | 'updated' | 'uploaded' | 'exportFailed';

/** The app's location choice when the screen opens; none (replay, the graph walk) means every location. */
export type SubscribersListInput = { selection?: LocationSelection } | undefined;

/** What the list asks of the screen: open a route (a profile) through the navigation machine. */
export interface SubscribersListEmitted {
  type: 'route.open';
  path: string;
}

/** What the subscribers list knows. */
export interface SubscribersListContext {
  page: number;
  pageSize: number;
  query: string;
  selection: LocationSelection;
  list: Page<Subscriber> | null;
  /** The subscriber being updated. */
  selected: Subscriber | null;
  form: SubscriberForm;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  notice: SubscribersNotice | null;
  /** A refresh came due while a dialog was open: the list reloads when it closes. */
  refreshPending: boolean;
  /** An export download is under way. */
  exporting: boolean;
}

/** The add dialog's starting values: subscribed, nothing typed. */
export const NEW_SUBSCRIBER_FORM: SubscriberForm = {
  email: '',
  first_name: '',
  last_name: '',
  phone: '',
  zip: '',
  birthday: '',
  pos_id: '',
  subscribed: true,
};

function formOf(subscriber: Subscriber): SubscriberForm {
  return {
    email: subscriber.email,
    first_name: subscriber.first_name,
    last_name: subscriber.last_name,
    phone: subscriber.phone,
    zip: subscriber.zip,
    birthday: subscriber.birthday ?? '',
    pos_id: subscriber.pos_id ?? '',
    subscribed: subscriber.subscribed,
  };
}

/** What the add dialog sends: the form, and the selected location as the subscriber's source. */
function createRequestOf(context: SubscribersListContext) {
  const { pos_id, ...profile } = context.form;
  return {
    ...profile,
    pos_id,
    source_location_id: context.selection.kind === 'location' ? context.selection.id : null,
  };
}

/** What the update dialog sends: every profile field (the POS id is not changed here). */
function updateRequestOf(context: SubscribersListContext) {
  const { pos_id: _posId, ...profile } = context.form;
  return profile;
}

/** The list filters of the app's location choice: one location, one group, or none (every location). */
export function locationFilterOf(
  selection: LocationSelection,
): Pick<SubscriberListQuery, 'location_id' | 'location_group_id'> {
  if (selection.kind === 'location') return { location_id: [selection.id] };
  if (selection.kind === 'group') return { location_group_id: [selection.id] };
  return {};
}

/** The list call's filters for a page. */
export function listQueryOf(
  context: Pick<SubscribersListContext, 'page' | 'pageSize' | 'query' | 'selection'>,
) {
  const q = context.query.trim();
  return {
    page: context.page,
    page_size: context.pageSize,
    ...(q ? { q } : {}),
    ...locationFilterOf(context.selection),
  } satisfies SubscriberListQuery;
}

/**
 * The profile route of a subscriber or guest: `/{kind}/profile/{pos_id}/{hashid}/{id}`. A person the POS
 * does not know has no POS id; the path then carries `-` (the profile screen reads `-` as no POS id).
 */
export function profilePathOf(
  kind: CustomerKind,
  person: { id: number; hashid: string; pos_id: string | null },
): string {
  const posId = person.pos_id ? encodeURIComponent(person.pos_id) : '-';
  return `/${kind}/profile/${posId}/${encodeURIComponent(person.hashid)}/${person.id}`;
}

/**
 * /subscribers: the subscribers of the selected location or group, 8 to a page, searched once typing
 * pauses; an add and an update dialog checked with the shared schemas (the server's field errors, such
 * as a taken email, show next to the field); the list refreshes 3 seconds after an add, an update or a
 * finished CSV upload; opening a profile stores the kind and emits `route.open`; the export downloads a CSV of
 * the current filters.
 */
export const subscribersListMachine = setup({
  types: {
    context: {} as SubscribersListContext,
    events: {} as SubscribersListEvent,
    input: undefined as SubscribersListInput,
    emitted: {} as SubscribersListEmitted,
  },
  actors: {
    /** `GET /api/subscriptions/subscribers/`. */
    listSubscribers: placeholder<Page<Subscriber>, SubscriberListQuery>(),
    /** `POST /api/subscriptions/subscribers/`. */
    createSubscriber: placeholder<Subscriber, SubscriberCreate>(),
    /** `PUT /api/subscriptions/subscribers/{id}/profile/`. */
    updateSubscriber: placeholder<Subscriber, SubscriberUpdateRequest>(),
    /** `GET /api/subscriptions/subscribers/export/`, saved as a file. */
    exportSubscribers: placeholder<unknown, Omit<SubscriberListQuery, 'page' | 'page_size'>>(),
  },
  delays: {
    /** How long typing pauses before the list is searched. */
    searchDelay: 300,
    /** Spec section 4: a list is refreshed 3 seconds after add, update or CSV upload. */
    refreshDelay: 3000,
  },
  guards: {
    newSubscriberIsValid: ({ context }) => SubscriberCreateSchema.safeParse(createRequestOf(context)).success,
    changesAreValid: ({ context }) =>
      SubscriberProfileUpdateSchema.safeParse(updateRequestOf(context)).success,
    refreshIsPending: ({ context }) => context.refreshPending,
    notExporting: ({ context }) => !context.exporting,
  },
  actions: {
    /** Stores which profile kind the profile screen loads (provided by src/app: local storage). */
    storeProfileKind: (_, _kind: CustomerKind) => undefined,
    /** Asks the screen to navigate (it forwards the path to the navigation machine). */
    openRoute: emit((_, path: string) => ({ type: 'route.open' as const, path })),
    keepList: assign((_, list: Page<Subscriber>) => ({ list, problem: null, refreshPending: false })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    keepQuery: assign((_, query: string) => ({ query })),
    keepSelection: assign((_, selection: LocationSelection) => ({ selection, page: 1 })),
    firstPage: assign({ page: 1 }),
    goToPage: assign((_, page: number) => ({ page: Math.max(1, Math.floor(page)), notice: null })),
    openAdd: assign({
      selected: null,
      form: NEW_SUBSCRIBER_FORM,
      fieldErrors: {},
      problem: null,
      notice: null,
    }),
    openSubscriber: assign((_, subscriber: Subscriber) => ({
      selected: subscriber,
      form: formOf(subscriber),
      fieldErrors: {},
      problem: null,
      notice: null,
    })),
    closeDialog: assign({ selected: null, form: NEW_SUBSCRIBER_FORM, fieldErrors: {}, problem: null }),
    changeField: assign(({ context }, change: { field: SubscriberTextField; value: string }) => ({
      form: { ...context.form, [change.field]: change.value },
      fieldErrors: withoutField(context.fieldErrors, change.field),
    })),
    changeSubscribed: assign(({ context }, value: boolean) => ({
      form: { ...context.form, subscribed: value },
      fieldErrors: withoutField(context.fieldErrors, 'subscribed'),
    })),
    showCreateErrors: assign(({ context }) => {
      const result = SubscriberCreateSchema.safeParse(createRequestOf(context));
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null };
    }),
    showUpdateErrors: assign(({ context }) => {
      const result = SubscriberProfileUpdateSchema.safeParse(updateRequestOf(context));
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null };
    }),
    clearProblem: assign({ problem: null }),
    // The updated row shows at once; the refresh 3 seconds later brings the server's ordering and counts.
    replaceRow: assign(({ context }, subscriber: Subscriber) => ({
      list: context.list && {
        ...context.list,
        results: context.list.results.map((row) => (row.id === subscriber.id ? subscriber : row)),
      },
    })),
    notice: assign((_, notice: SubscribersNotice) => ({ notice })),
    dismissNotice: assign({ notice: null }),
    markRefreshPending: assign({ refreshPending: true }),
    // A later change restarts the wait, so one refresh follows a burst of changes.
    scheduleRefresh: enqueueActions(({ enqueue }) => {
      enqueue.cancel('refreshTimer');
      enqueue.raise({ type: 'refresh.due' }, { delay: 'refreshDelay', id: 'refreshTimer' });
    }),
    startExport: spawnChild('exportSubscribers', {
      id: 'exportSubscribers',
      input: ({ context }) => {
        const { page: _page, page_size: _size, ...filters } = listQueryOf(context);
        return filters;
      },
    }),
    markExporting: assign({ exporting: true }),
    exportFinished: assign({ exporting: false }),
  },
}).createMachine({
  id: 'subscribersList',
  context: ({ input }) => ({
    page: 1,
    pageSize: LIMITS.subscribersPageSize,
    query: '',
    // Started without input (the graph walk, replay) the list shows every location.
    selection: input?.selection ?? ALL_LOCATIONS,
    list: null,
    selected: null,
    form: NEW_SUBSCRIBER_FORM,
    fieldErrors: {},
    problem: null,
    notice: null,
    refreshPending: false,
    exporting: false,
  }),
  initial: 'listing',
  on: {
    // With a dialog open, a new location or a due refresh waits until the dialog closes.
    'location.change': {
      actions: [{ type: 'keepSelection', params: ({ event }) => event.selection }, 'markRefreshPending'],
    },
    'refresh.due': { actions: 'markRefreshPending' },
    'upload.completed': { actions: [{ type: 'notice', params: 'uploaded' }, 'scheduleRefresh'] },
    // The export runs beside whatever the list does; its child outlives state changes.
    'xstate.done.actor.exportSubscribers': { actions: 'exportFinished' },
    'xstate.error.actor.exportSubscribers': {
      actions: ['exportFinished', { type: 'notice', params: 'exportFailed' }],
    },
  },
  states: {
    listing: {
      initial: 'loading',
      on: {
        'search.change': {
          target: '.debouncing',
          reenter: true,
          actions: { type: 'keepQuery', params: ({ event }) => event.query },
        },
        'location.change': {
          target: '.loading',
          reenter: true,
          actions: { type: 'keepSelection', params: ({ event }) => event.selection },
        },
        'refresh.due': { target: '.loading', reenter: true },
      },
      states: {
        loading: {
          tags: ['busy'],
          entry: spawnChild('listSubscribers', {
            id: 'listSubscribers',
            input: ({ context }) => listQueryOf(context),
          }),
          exit: stopChild('listSubscribers'),
          on: {
            'xstate.done.actor.listSubscribers': {
              target: 'browsing',
              actions: { type: 'keepList', params: ({ event }) => event.output },
            },
            'xstate.error.actor.listSubscribers': {
              target: 'failed',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          on: { 'list.retry': { target: 'loading', actions: 'clearProblem' } },
        },
        browsing: {
          on: {
            'page.change': {
              target: 'loading',
              actions: { type: 'goToPage', params: ({ event }) => event.page },
            },
            'subscriber.add': { target: '#subscribersList.adding', actions: 'openAdd' },
            'subscriber.edit': {
              target: '#subscribersList.updating',
              actions: { type: 'openSubscriber', params: ({ event }) => event.subscriber },
            },
            'profile.open': {
              actions: [
                { type: 'storeProfileKind', params: 'subscriber' },
                { type: 'openRoute', params: ({ event }) => profilePathOf('subscriber', event.subscriber) },
              ],
            },
            'export.start': {
              guard: 'notExporting',
              actions: ['markExporting', 'startExport', 'dismissNotice'],
            },
            'notice.dismiss': { actions: 'dismissNotice' },
          },
        },
        debouncing: {
          entry: raise({ type: 'search.settled' }, { delay: 'searchDelay', id: 'searchPause' }),
          exit: cancel('searchPause'),
          on: { 'search.settled': { target: 'loading', actions: 'firstPage' } },
        },
      },
    },
    adding: {
      initial: 'open',
      states: {
        open: {
          on: {
            'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
            'subscribed.change': {
              actions: { type: 'changeSubscribed', params: ({ event }) => event.value },
            },
            'dialog.submit': [
              { guard: 'newSubscriberIsValid', target: 'saving', actions: 'clearProblem' },
              { actions: 'showCreateErrors' },
            ],
            'dialog.close': [
              {
                guard: 'refreshIsPending',
                target: '#subscribersList.listing.loading',
                actions: 'closeDialog',
              },
              { target: '#subscribersList.listing.browsing', actions: 'closeDialog' },
            ],
          },
        },
        saving: {
          tags: ['busy'],
          entry: spawnChild('createSubscriber', {
            id: 'createSubscriber',
            input: ({ context }) => SubscriberCreateSchema.parse(createRequestOf(context)),
          }),
          exit: stopChild('createSubscriber'),
          on: {
            'xstate.done.actor.createSubscriber': [
              {
                guard: 'refreshIsPending',
                target: '#subscribersList.listing.loading',
                actions: ['closeDialog', { type: 'notice', params: 'created' }],
              },
              {
                target: '#subscribersList.listing.browsing',
                actions: ['closeDialog', { type: 'notice', params: 'created' }, 'scheduleRefresh'],
              },
            ],
            'xstate.error.actor.createSubscriber': {
              target: 'open',
              actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    updating: {
      initial: 'open',
      states: {
        open: {
          on: {
            'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
            'subscribed.change': {
              actions: { type: 'changeSubscribed', params: ({ event }) => event.value },
            },
            'dialog.submit': [
              { guard: 'changesAreValid', target: 'saving', actions: 'clearProblem' },
              { actions: 'showUpdateErrors' },
            ],
            'dialog.close': [
              {
                guard: 'refreshIsPending',
                target: '#subscribersList.listing.loading',
                actions: 'closeDialog',
              },
              { target: '#subscribersList.listing.browsing', actions: 'closeDialog' },
            ],
          },
        },
        saving: {
          tags: ['busy'],
          entry: spawnChild('updateSubscriber', {
            id: 'updateSubscriber',
            input: ({ context }) => ({
              id: context.selected?.id ?? 0,
              profile: SubscriberProfileUpdateSchema.parse(updateRequestOf(context)),
            }),
          }),
          exit: stopChild('updateSubscriber'),
          on: {
            'xstate.done.actor.updateSubscriber': [
              {
                guard: 'refreshIsPending',
                target: '#subscribersList.listing.loading',
                actions: ['closeDialog', { type: 'notice', params: 'updated' }],
              },
              {
                target: '#subscribersList.listing.browsing',
                actions: [
                  { type: 'replaceRow', params: ({ event }) => event.output },
                  'closeDialog',
                  { type: 'notice', params: 'updated' },
                  'scheduleRefresh',
                ],
              },
            ],
            'xstate.error.actor.updateSubscriber': {
              target: 'open',
              actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});
