import {
  assign,
  cancel,
  type DoneActorEvent,
  type ErrorActorEvent,
  raise,
  setup,
  spawnChild,
  stopChild,
} from 'xstate';
import type { Page } from '../schemas/common.js';
import { LIMITS } from '../schemas/constants.js';
import {
  SubscriberListWriteSchema,
  type Subscriber,
  type SubscriberList,
  type SubscriberListWrite,
} from '../schemas/subscribers.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

// Server calls start with spawnChild on entry and stop on exit; the search pause is a delayed raise
// cancelled on exit (what `invoke` and `after` do, in the form createTestModel accepts).

/** `GET /api/subscriptions/subscribers/list/`. */
export interface ListsQuery {
  page: number;
  page_size: number;
}

/** `PUT /api/subscriptions/subscribers/list/{id}/`. */
export interface ListRenameRequest {
  id: number;
  body: SubscriberListWrite;
}

/** `GET /api/subscriptions/subscribers/list/{id}/members/`. */
export interface MembersQuery {
  listId: number;
  page: number;
  page_size: number;
}

/** `POST …/list/{id}/members/` or `…/members/remove/`. */
export interface MembersChangeRequest {
  listId: number;
  subscriber_ids: number[];
}

/** `GET /api/subscriptions/subscribers/?q=` for the add-members picker. */
export interface CandidatesQuery {
  page: number;
  page_size: number;
  q?: string;
}

/** What the subscriber-lists view sends. */
export type SubscriberListsCommand =
  | { type: 'lists.retry' }
  | { type: 'page.change'; page: number }
  | { type: 'list.create' }
  | { type: 'list.rename'; list: SubscriberList }
  | { type: 'list.delete'; list: SubscriberList }
  | { type: 'list.open'; list: SubscriberList }
  | { type: 'name.change'; value: string }
  | { type: 'dialog.submit' }
  | { type: 'dialog.close' }
  | { type: 'delete.confirm' }
  | { type: 'members.close' }
  | { type: 'members.retry' }
  | { type: 'members.page'; page: number }
  | { type: 'member.remove'; subscriber: Subscriber }
  | { type: 'picker.open' }
  | { type: 'search.change'; query: string }
  | { type: 'candidates.retry' }
  | { type: 'candidates.page'; page: number }
  | { type: 'candidate.toggle'; id: number }
  | { type: 'notice.dismiss' };

/** Everything the subscriber lists screen handles. */
export type SubscriberListsEvent =
  | SubscriberListsCommand
  /** Raised once typing in the picker has paused for `searchDelay`. */
  | { type: 'search.settled' }
  | DoneActorEvent<Page<SubscriberList>, 'listLists'>
  | ErrorActorEvent<unknown, 'listLists'>
  | DoneActorEvent<SubscriberList, 'createList'>
  | ErrorActorEvent<unknown, 'createList'>
  | DoneActorEvent<SubscriberList, 'renameList'>
  | ErrorActorEvent<unknown, 'renameList'>
  | DoneActorEvent<unknown, 'deleteList'>
  | ErrorActorEvent<unknown, 'deleteList'>
  | DoneActorEvent<Page<Subscriber>, 'listMembers'>
  | ErrorActorEvent<unknown, 'listMembers'>
  | DoneActorEvent<unknown, 'removeMembers'>
  | ErrorActorEvent<unknown, 'removeMembers'>
  | DoneActorEvent<Page<Subscriber>, 'searchCandidates'>
  | ErrorActorEvent<unknown, 'searchCandidates'>
  | DoneActorEvent<unknown, 'addMembers'>
  | ErrorActorEvent<unknown, 'addMembers'>;

/** A message shown above the lists or the members. */
export type SubscriberListsNotice = 'created' | 'renamed' | 'deleted' | 'membersAdded' | 'memberRemoved';

/** What the subscriber lists screen knows. */
export interface SubscriberListsContext {
  page: number;
  pageSize: number;
  lists: Page<SubscriberList> | null;
  /** The list being renamed, deleted or viewed. */
  selected: SubscriberList | null;
  name: string;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  notice: SubscriberListsNotice | null;
  membersPage: number;
  members: Page<Subscriber> | null;
  /** The member being taken off the list. */
  removing: Subscriber | null;
  query: string;
  candidatesPage: number;
  candidates: Page<Subscriber> | null;
  /** Subscribers ticked in the picker, in the order they were ticked. */
  picked: number[];
}

const PICKER_RESET = { query: '', candidatesPage: 1, candidates: null, picked: [] as number[] };

/**
 * /subscriber-list: the company's subscriber lists (name, members, `created` as a long date-time) with
 * create, rename and confirmed delete; a list opens onto its members (8 to a page) where one member at a
 * time is taken off, and a picker searches subscribers as one types and adds the ticked ones.
 */
export const subscriberListsMachine = setup({
  types: {
    context: {} as SubscriberListsContext,
    events: {} as SubscriberListsEvent,
  },
  actors: {
    /** `GET /api/subscriptions/subscribers/list/`. */
    listLists: placeholder<Page<SubscriberList>, ListsQuery>(),
    /** `POST /api/subscriptions/subscribers/list/`. */
    createList: placeholder<SubscriberList, SubscriberListWrite>(),
    /** `PUT /api/subscriptions/subscribers/list/{id}/`. */
    renameList: placeholder<SubscriberList, ListRenameRequest>(),
    /** `DELETE /api/subscriptions/subscribers/list/{id}/`. */
    deleteList: placeholder<unknown, number>(),
    /** `GET …/list/{id}/members/`. */
    listMembers: placeholder<Page<Subscriber>, MembersQuery>(),
    /** `POST …/list/{id}/members/remove/`. */
    removeMembers: placeholder<unknown, MembersChangeRequest>(),
    /** `GET /api/subscriptions/subscribers/?q=`. */
    searchCandidates: placeholder<Page<Subscriber>, CandidatesQuery>(),
    /** `POST …/list/{id}/members/`. */
    addMembers: placeholder<unknown, MembersChangeRequest>(),
  },
  delays: {
    /** How long typing pauses before the picker searches. */
    searchDelay: 300,
  },
  guards: {
    nameIsValid: ({ context }) => SubscriberListWriteSchema.safeParse({ name: context.name }).success,
    somethingPicked: ({ context }) => context.picked.length > 0,
  },
  actions: {
    keepLists: assign((_, lists: Page<SubscriberList>) => ({ lists, problem: null })),
    keepMembers: assign((_, members: Page<Subscriber>) => ({ members, problem: null })),
    keepCandidates: assign((_, candidates: Page<Subscriber>) => ({ candidates, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    clearProblem: assign({ problem: null }),
    goToPage: assign((_, page: number) => ({ page: Math.max(1, Math.floor(page)), notice: null })),
    goToMembersPage: assign((_, page: number) => ({
      membersPage: Math.max(1, Math.floor(page)),
      notice: null,
    })),
    goToCandidatesPage: assign((_, page: number) => ({ candidatesPage: Math.max(1, Math.floor(page)) })),
    openCreate: assign({ selected: null, name: '', fieldErrors: {}, problem: null, notice: null }),
    openList: assign((_, list: SubscriberList) => ({
      selected: list,
      name: list.name,
      fieldErrors: {},
      problem: null,
      notice: null,
    })),
    openMembers: assign((_, list: SubscriberList) => ({
      selected: list,
      membersPage: 1,
      members: null,
      problem: null,
      notice: null,
    })),
    closeDialog: assign({ name: '', fieldErrors: {}, problem: null }),
    forgetSelected: assign({ selected: null, members: null, removing: null, ...PICKER_RESET }),
    changeName: assign(({ context }, value: string) => ({
      name: value,
      fieldErrors: withoutField(context.fieldErrors, 'name'),
    })),
    showNameErrors: assign(({ context }) => {
      const result = SubscriberListWriteSchema.safeParse({ name: context.name });
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null };
    }),
    notice: assign((_, notice: SubscriberListsNotice) => ({ notice })),
    dismissNotice: assign({ notice: null }),
    // Deleting the only row of a later page would leave an empty page: show the one before.
    stepBackFromEmptyPage: assign(({ context }) => ({
      page: context.page > 1 && context.lists?.results.length === 1 ? context.page - 1 : context.page,
    })),
    stepBackFromEmptyMembersPage: assign(({ context }) => ({
      membersPage:
        context.membersPage > 1 && context.members?.results.length === 1
          ? context.membersPage - 1
          : context.membersPage,
    })),
    markRemoving: assign((_, subscriber: Subscriber) => ({
      removing: subscriber,
      notice: null,
      problem: null,
    })),
    forgetRemoving: assign({ removing: null }),
    openPicker: assign({ ...PICKER_RESET, problem: null, notice: null }),
    closePicker: assign({ ...PICKER_RESET, problem: null }),
    keepQuery: assign((_, query: string) => ({ query })),
    firstCandidatesPage: assign({ candidatesPage: 1 }),
    toggleCandidate: assign(({ context }, id: number) => ({
      picked: context.picked.includes(id)
        ? context.picked.filter((one) => one !== id)
        : [...context.picked, id],
    })),
  },
}).createMachine({
  id: 'subscriberLists',
  context: {
    page: 1,
    pageSize: LIMITS.defaultPageSize,
    lists: null,
    selected: null,
    name: '',
    fieldErrors: {},
    problem: null,
    notice: null,
    membersPage: 1,
    members: null,
    removing: null,
    ...PICKER_RESET,
  },
  initial: 'lists',
  states: {
    lists: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          entry: spawnChild('listLists', {
            id: 'listLists',
            input: ({ context }) => ({ page: context.page, page_size: context.pageSize }),
          }),
          exit: stopChild('listLists'),
          on: {
            'xstate.done.actor.listLists': {
              target: 'browsing',
              actions: { type: 'keepLists', params: ({ event }) => event.output },
            },
            'xstate.error.actor.listLists': {
              target: 'failed',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          on: { 'lists.retry': { target: 'loading', actions: 'clearProblem' } },
        },
        browsing: {
          on: {
            'page.change': {
              target: 'loading',
              actions: { type: 'goToPage', params: ({ event }) => event.page },
            },
            'list.create': { target: '#subscriberLists.creating', actions: 'openCreate' },
            'list.rename': {
              target: '#subscriberLists.renaming',
              actions: { type: 'openList', params: ({ event }) => event.list },
            },
            'list.delete': {
              target: '#subscriberLists.deleting',
              actions: { type: 'openList', params: ({ event }) => event.list },
            },
            'list.open': {
              target: '#subscriberLists.members',
              actions: { type: 'openMembers', params: ({ event }) => event.list },
            },
            'notice.dismiss': { actions: 'dismissNotice' },
          },
        },
      },
    },
    creating: {
      initial: 'open',
      states: {
        open: {
          on: {
            'name.change': { actions: { type: 'changeName', params: ({ event }) => event.value } },
            'dialog.submit': [
              { guard: 'nameIsValid', target: 'saving', actions: 'clearProblem' },
              { actions: 'showNameErrors' },
            ],
            'dialog.close': { target: '#subscriberLists.lists.browsing', actions: 'closeDialog' },
          },
        },
        saving: {
          tags: ['busy'],
          entry: spawnChild('createList', {
            id: 'createList',
            input: ({ context }) => SubscriberListWriteSchema.parse({ name: context.name }),
          }),
          exit: stopChild('createList'),
          on: {
            'xstate.done.actor.createList': {
              target: '#subscriberLists.lists.loading',
              actions: ['closeDialog', { type: 'notice', params: 'created' }],
            },
            'xstate.error.actor.createList': {
              target: 'open',
              actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    renaming: {
      initial: 'open',
      states: {
        open: {
          on: {
            'name.change': { actions: { type: 'changeName', params: ({ event }) => event.value } },
            'dialog.submit': [
              { guard: 'nameIsValid', target: 'saving', actions: 'clearProblem' },
              { actions: 'showNameErrors' },
            ],
            'dialog.close': {
              target: '#subscriberLists.lists.browsing',
              actions: ['closeDialog', 'forgetSelected'],
            },
          },
        },
        saving: {
          tags: ['busy'],
          entry: spawnChild('renameList', {
            id: 'renameList',
            input: ({ context }) => ({
              id: context.selected?.id ?? 0,
              body: SubscriberListWriteSchema.parse({ name: context.name }),
            }),
          }),
          exit: stopChild('renameList'),
          on: {
            'xstate.done.actor.renameList': {
              target: '#subscriberLists.lists.loading',
              actions: ['closeDialog', 'forgetSelected', { type: 'notice', params: 'renamed' }],
            },
            'xstate.error.actor.renameList': {
              target: 'open',
              actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    deleting: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'delete.confirm': { target: 'removing', actions: 'clearProblem' },
            'dialog.close': {
              target: '#subscriberLists.lists.browsing',
              actions: ['closeDialog', 'forgetSelected'],
            },
          },
        },
        removing: {
          tags: ['busy'],
          entry: spawnChild('deleteList', {
            id: 'deleteList',
            input: ({ context }) => context.selected?.id ?? 0,
          }),
          exit: stopChild('deleteList'),
          on: {
            'xstate.done.actor.deleteList': {
              target: '#subscriberLists.lists.loading',
              actions: [
                'stepBackFromEmptyPage',
                'closeDialog',
                'forgetSelected',
                { type: 'notice', params: 'deleted' },
              ],
            },
            'xstate.error.actor.deleteList': {
              target: 'confirming',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    members: {
      initial: 'loading',
      on: {
        // Back to the lists, reloaded: member counts may have changed.
        'members.close': { target: '#subscriberLists.lists.loading', actions: 'forgetSelected' },
      },
      states: {
        loading: {
          tags: ['busy'],
          entry: spawnChild('listMembers', {
            id: 'listMembers',
            input: ({ context }) => ({
              listId: context.selected?.id ?? 0,
              page: context.membersPage,
              page_size: LIMITS.subscribersPageSize,
            }),
          }),
          exit: stopChild('listMembers'),
          on: {
            'xstate.done.actor.listMembers': {
              target: 'browsing',
              actions: { type: 'keepMembers', params: ({ event }) => event.output },
            },
            'xstate.error.actor.listMembers': {
              target: 'failed',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          on: { 'members.retry': { target: 'loading', actions: 'clearProblem' } },
        },
        browsing: {
          on: {
            'members.page': {
              target: 'loading',
              actions: { type: 'goToMembersPage', params: ({ event }) => event.page },
            },
            'member.remove': {
              target: 'removing',
              actions: { type: 'markRemoving', params: ({ event }) => event.subscriber },
            },
            'picker.open': { target: 'picking', actions: 'openPicker' },
            'notice.dismiss': { actions: 'dismissNotice' },
          },
        },
        removing: {
          tags: ['busy'],
          entry: spawnChild('removeMembers', {
            id: 'removeMembers',
            input: ({ context }) => ({
              listId: context.selected?.id ?? 0,
              subscriber_ids: context.removing ? [context.removing.id] : [],
            }),
          }),
          exit: stopChild('removeMembers'),
          on: {
            'xstate.done.actor.removeMembers': {
              target: 'loading',
              actions: [
                'stepBackFromEmptyMembersPage',
                'forgetRemoving',
                { type: 'notice', params: 'memberRemoved' },
              ],
            },
            'xstate.error.actor.removeMembers': {
              target: 'browsing',
              actions: [
                'forgetRemoving',
                { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
        picking: {
          initial: 'searching',
          on: {
            'search.change': {
              target: '.debouncing',
              reenter: true,
              actions: { type: 'keepQuery', params: ({ event }) => event.query },
            },
            'candidate.toggle': { actions: { type: 'toggleCandidate', params: ({ event }) => event.id } },
            'dialog.close': { target: 'browsing', actions: 'closePicker' },
          },
          states: {
            searching: {
              tags: ['busy'],
              entry: spawnChild('searchCandidates', {
                id: 'searchCandidates',
                input: ({ context }) => ({
                  page: context.candidatesPage,
                  page_size: LIMITS.subscribersPageSize,
                  ...(context.query.trim() ? { q: context.query.trim() } : {}),
                }),
              }),
              exit: stopChild('searchCandidates'),
              on: {
                'xstate.done.actor.searchCandidates': {
                  target: 'choosing',
                  actions: { type: 'keepCandidates', params: ({ event }) => event.output },
                },
                'xstate.error.actor.searchCandidates': {
                  target: 'failed',
                  actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            failed: {
              on: { 'candidates.retry': { target: 'searching', actions: 'clearProblem' } },
            },
            debouncing: {
              entry: raise({ type: 'search.settled' }, { delay: 'searchDelay', id: 'searchPause' }),
              exit: cancel('searchPause'),
              on: { 'search.settled': { target: 'searching', actions: 'firstCandidatesPage' } },
            },
            choosing: {
              on: {
                'candidates.page': {
                  target: 'searching',
                  actions: { type: 'goToCandidatesPage', params: ({ event }) => event.page },
                },
                'dialog.submit': { guard: 'somethingPicked', target: 'saving', actions: 'clearProblem' },
              },
            },
            saving: {
              tags: ['busy'],
              entry: spawnChild('addMembers', {
                id: 'addMembers',
                input: ({ context }) => ({
                  listId: context.selected?.id ?? 0,
                  subscriber_ids: context.picked,
                }),
              }),
              exit: stopChild('addMembers'),
              on: {
                // Ticking or typing waits while the chosen ones are being added.
                'candidate.toggle': {},
                'search.change': {},
                'dialog.close': {},
                'members.close': {},
                'xstate.done.actor.addMembers': {
                  target: '#subscriberLists.members.loading',
                  actions: ['closePicker', { type: 'notice', params: 'membersAdded' }],
                },
                'xstate.error.actor.addMembers': {
                  target: 'choosing',
                  actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
          },
        },
      },
    },
  },
});
