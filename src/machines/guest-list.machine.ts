import {
  assign,
  cancel,
  type DoneActorEvent,
  emit,
  type ErrorActorEvent,
  raise,
  setup,
  spawnChild,
  stopChild,
} from 'xstate';
import type { Page } from '../schemas/common.js';
import { LIMITS } from '../schemas/constants.js';
import type { CustomerKind } from '../schemas/customers.js';
import type { Guest } from '../schemas/guests.js';
import type { LocationFilter } from './file-paging.machine.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

// Server calls and the storage write start with spawnChild on entry and stop on exit, and the search
// pause is a delayed raise cancelled on exit: what `invoke` and `after` do, in the form @xstate/graph's
// createTestModel accepts (see docs/client.md).

/** `GET /api/pos/guests/` and `GET /api/pos/guests/export/` filters. */
export interface GuestListQuery extends LocationFilter {
  page: number;
  page_size: number;
  q?: string;
}

/** `DELETE /api/pos/guests/{id}/?hashid&pos_id`. */
export interface GuestKey {
  id: number;
  hashid: string;
  pos_id: string;
}

/** The path of a guest's or subscriber's profile; an empty POS id is written '-' (a path needs a segment). */
export function profilePath(kind: CustomerKind, key: { id: number; hashid: string; pos_id: string | null }) {
  const posId = key.pos_id ? encodeURIComponent(key.pos_id) : '-';
  return `/${kind}/profile/${posId}/${encodeURIComponent(key.hashid)}/${key.id}`;
}

/** What the guest list's view sends, and what the screen sends when the location selection changes. */
export type GuestListCommand =
  | { type: 'list.retry' }
  | { type: 'search.change'; query: string }
  | { type: 'page.change'; page: number }
  | { type: 'filter.change'; filter: LocationFilter }
  | { type: 'guest.open'; guest: Guest }
  | { type: 'guest.delete'; guest: Guest }
  | { type: 'delete.confirm' }
  | { type: 'dialog.close' }
  | { type: 'export.start' }
  | { type: 'notice.dismiss' }
  /** Sent by the screen when a guest CSV upload has finished: the list reloads `refreshDelay` later. */
  | { type: 'upload.completed' };

/** Everything the guest list handles: commands, the search pause and the calls' results. */
export type GuestListEvent =
  | GuestListCommand
  /** Raised by the machine itself once typing has paused for `searchDelay`. */
  | { type: 'search.settled' }
  /** Raised `refreshDelay` after an upload finished. */
  | { type: 'refresh.due' }
  | DoneActorEvent<Page<Guest>, 'listGuests'>
  | ErrorActorEvent<unknown, 'listGuests'>
  | DoneActorEvent<unknown, 'deleteGuest'>
  | ErrorActorEvent<unknown, 'deleteGuest'>
  | DoneActorEvent<unknown, 'rememberProfileKind'>
  | ErrorActorEvent<unknown, 'rememberProfileKind'>
  | DoneActorEvent<unknown, 'exportGuests'>
  | ErrorActorEvent<unknown, 'exportGuests'>;

/** What the guest list starts from: the app's location selection as filters. */
export interface GuestListInput {
  filter: LocationFilter;
}

/** What the guest list tells the screen: go to a profile. */
export type GuestListEmitted = { type: 'route.open'; path: string };

/** What the guest list knows. */
export interface GuestListContext {
  page: number;
  pageSize: number;
  /** The search text as typed; the list is searched once typing pauses. */
  query: string;
  filter: LocationFilter;
  /** The page last loaded; kept while the next one loads. */
  list: Page<Guest> | null;
  /** The guest being opened or deleted. */
  selected: Guest | null;
  problem: ApiProblem | null;
  /** Why the export failed, shown above the list. */
  exportProblem: ApiProblem | null;
  notice: 'deleted' | 'exported' | null;
  /** An export download is under way; it runs beside the list, whatever the list does meanwhile. */
  exporting: boolean;
  /** A refresh fell due while a dialog was open: the list reloads when the dialog closes. */
  refreshPending: boolean;
}

function queryOf(context: GuestListContext): GuestListQuery {
  const q = context.query.trim();
  return { page: context.page, page_size: context.pageSize, ...context.filter, ...(q ? { q } : {}) };
}

/**
 * The guest list of /guest/analytics (spec sections 2 and 7): 10 guests a page, searched as one types,
 * filtered by the app's location selection; opening a guest stores the profile kind 'guest' and goes to
 * /guest/profile/{pos_id}/{hashid}/{id}; a guest is deleted after a confirmation and the list reloads;
 * the export downloads the filtered list as CSV.
 */
export const guestListMachine = setup({
  types: {
    context: {} as GuestListContext,
    events: {} as GuestListEvent,
    emitted: {} as GuestListEmitted,
    input: {} as GuestListInput,
  },
  actors: {
    /** `GET /api/pos/guests/`. */
    listGuests: placeholder<Page<Guest>, GuestListQuery>(),
    /** `DELETE /api/pos/guests/{id}/?hashid&pos_id`. */
    deleteGuest: placeholder<unknown, GuestKey>(),
    /** Stores which kind of profile the profile screen loads (local storage). */
    rememberProfileKind: placeholder<unknown, CustomerKind>(),
    /** `GET /api/pos/guests/export/`, saved as a file. */
    exportGuests: placeholder<unknown, GuestListQuery>(),
  },
  guards: {
    notExporting: ({ context }) => !context.exporting,
    refreshPending: ({ context }) => context.refreshPending,
  },
  delays: {
    /** How long typing pauses before the list is searched. */
    searchDelay: 300,
    /** Spec section 4: a list is refreshed 3 seconds after a CSV upload. */
    refreshDelay: 3000,
  },
  actions: {
    keepList: assign((_, list: Page<Guest>) => ({ list, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepExportProblem: assign((_, failure: { error: unknown }) => ({
      exportProblem: problemOf(failure.error),
      notice: null,
    })),
    keepQuery: assign((_, query: string) => ({ query })),
    keepFilter: assign((_, filter: LocationFilter) => ({
      filter,
      page: 1,
      notice: null,
      exportProblem: null,
    })),
    firstPage: assign({ page: 1 }),
    goToPage: assign((_, page: number) => ({ page: Math.max(1, Math.floor(page)), notice: null })),
    select: assign((_, guest: Guest) => ({ selected: guest, problem: null, notice: null })),
    unselect: assign({ selected: null, problem: null }),
    clearProblem: assign({ problem: null, exportProblem: null }),
    noticeDeleted: assign({ notice: 'deleted' as const }),
    noticeExported: assign({ notice: 'exported' as const, exportProblem: null }),
    markExporting: assign({ exporting: true }),
    exportFinished: assign({ exporting: false }),
    markRefreshPending: assign({ refreshPending: true }),
    clearRefreshPending: assign({ refreshPending: false }),
    startExport: spawnChild('exportGuests', { id: 'exportGuests', input: ({ context }) => queryOf(context) }),
    dismissNotice: assign({ notice: null, exportProblem: null }),
    // Deleting the only row of a later page would leave an empty page: show the one before.
    stepBackFromEmptyPage: assign(({ context }) => ({
      page: context.page > 1 && context.list?.results.length === 1 ? context.page - 1 : context.page,
    })),
    openProfile: emit(({ context }) => ({
      type: 'route.open' as const,
      path: context.selected ? profilePath('guest', context.selected) : '/guest/analytics',
    })),
  },
}).createMachine({
  id: 'guestList',
  context: ({ input }) => ({
    page: 1,
    pageSize: LIMITS.guestsPageSize,
    query: '',
    filter: input.filter,
    list: null,
    selected: null,
    problem: null,
    exportProblem: null,
    notice: null,
    exporting: false,
    refreshPending: false,
  }),
  initial: 'listing',
  on: {
    // A later upload restarts the wait, so one refresh follows the last of several uploads.
    'upload.completed': {
      actions: [
        cancel('refreshTimer'),
        raise({ type: 'refresh.due' }, { delay: 'refreshDelay', id: 'refreshTimer' }),
      ],
    },
    // Outside the list (a dialog open, a profile opening) a due refresh waits for the dialog to close.
    'refresh.due': { actions: 'markRefreshPending' },
    // The export's child is spawned at the root, so searching or paging meanwhile does not cancel it.
    'xstate.done.actor.exportGuests': { actions: ['exportFinished', 'noticeExported'] },
    'xstate.error.actor.exportGuests': {
      actions: [
        'exportFinished',
        { type: 'keepExportProblem', params: ({ event }) => ({ error: event.error }) },
      ],
    },
    // Another location or group: its first page (a dialog open for the old list closes).
    'filter.change': {
      target: '.listing.loading',
      actions: [{ type: 'keepFilter', params: ({ event }) => event.filter }, 'unselect'],
    },
  },
  states: {
    listing: {
      initial: 'loading',
      on: {
        // Typing restarts the wait (and drops a load under way): the list is searched once typing pauses.
        'search.change': {
          target: '.debouncing',
          reenter: true,
          actions: { type: 'keepQuery', params: ({ event }) => event.query },
        },
        'notice.dismiss': { actions: 'dismissNotice' },
        // The current page again with the uploaded rows; a refresh due during a delete is dropped (it reloads).
        'refresh.due': { target: '.loading' },
      },
      states: {
        loading: {
          tags: ['busy'],
          entry: [
            'clearRefreshPending',
            spawnChild('listGuests', { id: 'listGuests', input: ({ context }) => queryOf(context) }),
          ],
          exit: stopChild('listGuests'),
          on: {
            'xstate.done.actor.listGuests': {
              target: 'browsing',
              actions: { type: 'keepList', params: ({ event }) => event.output },
            },
            'xstate.error.actor.listGuests': {
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
            'guest.open': {
              target: '#guestList.opening',
              actions: { type: 'select', params: ({ event }) => event.guest },
            },
            'guest.delete': {
              target: '#guestList.deleting',
              actions: { type: 'select', params: ({ event }) => event.guest },
            },
            'export.start': {
              guard: 'notExporting',
              actions: ['clearProblem', 'markExporting', 'startExport'],
            },
          },
        },
        debouncing: {
          entry: raise({ type: 'search.settled' }, { delay: 'searchDelay', id: 'searchPause' }),
          exit: cancel('searchPause'),
          on: { 'search.settled': { target: 'loading', actions: 'firstPage' } },
        },
      },
    },
    opening: {
      tags: ['busy'],
      entry: spawnChild('rememberProfileKind', { id: 'rememberProfileKind', input: 'guest' as const }),
      exit: stopChild('rememberProfileKind'),
      on: {
        'xstate.done.actor.rememberProfileKind': {
          target: 'listing.browsing',
          actions: ['openProfile', 'unselect'],
        },
        // Without storage the profile falls back to the path's kind, which is 'guest' too.
        'xstate.error.actor.rememberProfileKind': {
          target: 'listing.browsing',
          actions: ['openProfile', 'unselect'],
        },
      },
    },
    deleting: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'delete.confirm': { target: 'removing', actions: 'clearProblem' },
            'dialog.close': [
              // A refresh that fell due while the dialog was open happens now.
              { guard: 'refreshPending', target: '#guestList.listing.loading', actions: 'unselect' },
              { target: '#guestList.listing.browsing', actions: 'unselect' },
            ],
          },
        },
        removing: {
          tags: ['busy'],
          entry: spawnChild('deleteGuest', {
            id: 'deleteGuest',
            input: ({ context }) => ({
              id: context.selected?.id ?? 0,
              hashid: context.selected?.hashid ?? '',
              pos_id: context.selected?.pos_id ?? '',
            }),
          }),
          exit: stopChild('deleteGuest'),
          on: {
            'xstate.done.actor.deleteGuest': {
              target: '#guestList.listing.loading',
              actions: ['stepBackFromEmptyPage', 'unselect', 'noticeDeleted'],
            },
            'xstate.error.actor.deleteGuest': {
              target: 'confirming',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});
