import type { z } from 'zod';
import {
  assign,
  cancel,
  type DoneActorEvent,
  emit,
  enqueueActions,
  type ErrorActorEvent,
  raise,
  setup,
  type PromiseActorLogic,
  type StateMachine,
} from 'xstate';
import type { Page } from '../../schemas/common.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from '../support/api-problem.js';
import { placeholder } from '../support/placeholder.js';
import { requestIn } from './request.js';

// One statechart for every list screen: a list loaded (paged, searched, filtered), an add and an edit
// dialog checked with the shared zod schemas, a confirmed delete, an export, and a reload after changes.
// A screen describes itself with a ListDefinition; its wiring provides the calls by the names below.

/** What a list call answers: every item, or one page of them. */
export type ListAnswer<Item> = Item[] | Page<Item>;

/** The filters of a list that has none. */
export type NoFilters = Record<never, never>;

/** What the list call is asked: the page, the search text and the screen's own filters. */
export type ListQuery<Filters> = Filters & {
  /** Absent on lists that are not paged. */
  page?: number;
  page_size?: number;
  /** The search text, trimmed; absent when empty or the list is not searched. */
  q?: string;
  /** The column the list is ordered by (`-` first: descending); absent on lists that are not sorted. */
  ordering?: string;
  /** Where the page starts, from the last answer's next or previous link (keyset paging); absent: by number. */
  cursor?: string;
};

/** How a sorted list may be ordered: its sortable columns (the API's names) and where it starts. */
export interface ListSorting {
  /** The columns a user may order by, as the list call names them (`created_at`, `email`). */
  columns: readonly string[];
  /** The order the list starts in, e.g. `-created_at` (newest first). */
  initial: string;
  /** Columns that read best from the top down when first chosen (dates, amounts): descending first. */
  descendingFirst?: readonly string[];
}

/** The column an ordering sorts by, and whether it is descending. */
export function orderingParts(ordering: string): { column: string; descending: boolean } {
  return ordering.startsWith('-')
    ? { column: ordering.slice(1), descending: true }
    : { column: ordering, descending: false };
}

/** The ordering after a click on a column's header: the same column turns around; another starts its way. */
export function orderingAfterClick(sorting: ListSorting, current: string, column: string): string {
  const now = orderingParts(current);
  if (now.column === column) return now.descending ? column : `-${column}`;
  return sorting.descendingFirst?.includes(column) ? `-${column}` : column;
}

/** `updateItem`'s input: the item being edited and the checked changes. */
export interface UpdateRequest<Item, UpdateInput> {
  item: Item;
  changes: UpdateInput;
}

/** What a list screen tells the user after a change; screens add their own (`uploaded`, `exported`). */
export type ListNotice = 'created' | 'updated' | 'deleted' | 'exported' | 'exportFailed' | 'uploaded';

/** Spec §2: a list is refreshed 3 seconds after an add, an update or a CSV upload. */
export const LIST_REFRESH_MS = 3000;

/** One change to a dialog field, typed by the form. */
export type FieldChange<Form> = {
  [Field in keyof Form]: { type: 'field.change'; field: Field; value: Form[Field] };
}[keyof Form];

/** What a list screen's view (and its screen) sends. */
export type ListCommand<Item, Form, Filters> =
  | { type: 'list.retry' }
  /** Reload the current page `refreshDelay` from now (an upload finished); several in a row reload once. */
  | { type: 'list.refresh'; notice?: ListNotice }
  | { type: 'page.change'; page: number }
  | { type: 'search.change'; query: string }
  /** Order the list by another column or direction (see `orderingAfterClick`): its first page. */
  | { type: 'sort.change'; ordering: string }
  /** Other filters (another location, another date range): the first page of the new list. */
  | { type: 'filters.change'; filters: Partial<Filters> }
  | { type: 'item.add' }
  | { type: 'item.edit'; item: Item }
  | { type: 'item.delete'; item: Item }
  /** Open an item's own screen: the machine emits `item.opened` for the screen to navigate. */
  | { type: 'item.open'; item: Item }
  | FieldChange<Form>
  | { type: 'dialog.submit' }
  | { type: 'dialog.close' }
  | { type: 'delete.confirm' }
  | { type: 'export.start' }
  | { type: 'notice.dismiss' };

/** Everything a list machine handles: commands, its own timers and the calls' answers. */
export type ListEvent<Item, Form, Filters, Created = Item> =
  | ListCommand<Item, Form, Filters>
  /** Raised once typing has paused for `searchDelay`. */
  | { type: 'search.settled' }
  /** Raised `refreshDelay` after `list.refresh`. */
  | { type: 'refresh.due' }
  | DoneActorEvent<ListAnswer<Item>, 'loadList'>
  | ErrorActorEvent<unknown, 'loadList'>
  | DoneActorEvent<Created, 'createItem'>
  | ErrorActorEvent<unknown, 'createItem'>
  | DoneActorEvent<Item, 'updateItem'>
  | ErrorActorEvent<unknown, 'updateItem'>
  | DoneActorEvent<unknown, 'deleteItem'>
  | ErrorActorEvent<unknown, 'deleteItem'>
  | DoneActorEvent<unknown, 'exportList'>
  | ErrorActorEvent<unknown, 'exportList'>;

/**
 * What a list machine tells its screen: an item to open, and an item deleted with the delete call's answer
 * (a screen that offers undo has its call answer what it needs to restore the item).
 */
export type ListEmitted<Item> =
  { type: 'item.opened'; item: Item } | { type: 'item.deleted'; item: Item; answer: unknown };

/** What a list machine knows. */
export interface ListContext<Item, Form, Filters, Created = Item> {
  /** The page shown (1 on lists that are not paged). */
  page: number;
  /** Rows per page; null when the list is not paged. */
  pageSize: number | null;
  /** The search text as typed; the list is searched once typing pauses. */
  search: string;
  /** The order shown (`-created_at`); null on lists that are not sorted. */
  ordering: string | null;
  filters: Filters;
  /** The items last loaded (kept while the next page loads); null until the first answer. */
  items: Item[] | null;
  /** How many items match in all (every page). */
  total: number;
  /** True when the server labelled `total` an estimate (a large list; shown as "about …"). */
  totalEstimated: boolean;
  /** The cursor the shown page was asked with (null: by page number). */
  cursor: string | null;
  /** The cursors of the pages beside the shown one, from the answer's links (null: none, or by number). */
  adjacent: { next: string | null; previous: string | null };
  /** The item being edited, deleted or opened. */
  selected: Item | null;
  form: Form;
  fieldErrors: FieldErrors;
  /** Why the last call failed (the list, a save, a delete), shown where it failed. */
  problem: ApiProblem | null;
  notice: ListNotice | null;
  /** What the create call answered, while the dialog shows it (a token's secret, shown once). */
  created: Created | null;
  exporting: boolean;
  /** A refresh came due while a dialog was open: the list reloads when it closes. */
  refreshPending: boolean;
}

/** A list screen's dialog: its starting values, how an item fills it, and the schemas that check it. */
export interface ListFormDefinition<Item, Form, CreateInput, UpdateInput, Filters = NoFilters> {
  /** The add dialog's starting values. */
  empty: Form;
  /** The edit dialog's values for an item. */
  of: (item: Item) => Form;
  /** Checks the add dialog and makes `createItem`'s input; absent when the list has no add. */
  create?: z.ZodType<CreateInput>;
  /** Checks the edit dialog and makes `updateItem`'s changes; absent when the list has no edit. */
  update?: z.ZodType<UpdateInput>;
  /**
   * What `create` checks when the dialog is not all of it: the form and the list's filters (a new
   * subscriber's source is the selected location). The form alone when absent.
   */
  createInput?: (form: Form, filters: Filters) => unknown;
}

/** Everything that makes one list screen's machine. */
export interface ListDefinition<Item, Form, Filters, CreateInput, UpdateInput> {
  /** The machine's id: how the event log, replay and the visualiser name it. */
  id: string;
  /** Rows per page; null for a list loaded whole. */
  pageSize: number | null;
  /** Whether typing in the search box searches the list. */
  searchable: boolean;
  /** The filters the list starts with, unless the machine's input gives others. */
  filters: Filters;
  /** The dialogs; a list without one has no add and no edit. */
  form?: ListFormDefinition<Item, Form, CreateInput, UpdateInput, Filters>;
  /** Keep the create call's answer on screen until the dialog closes (a secret shown once). */
  showCreated?: boolean;
  /**
   * How long after `list.refresh`, an add or an update the list reloads again (ms): `LIST_REFRESH_MS` (the
   * spec's 3 s) when not given; 0 reloads on `list.refresh` at once and not again after a change.
   */
  refreshDelay?: number;
  /** Whether rows can be deleted (after a confirmation); true when not given. */
  deletable?: boolean;
  /** Whether `item.open` announces a row to open (a profile). */
  openable?: boolean;
  /** Whether the list can be exported (`export.start`, the `exportList` call). */
  exportable?: boolean;
  /** The columns the list can be ordered by (`sort.change`, the query's `ordering`); absent: the server's order. */
  sortable?: ListSorting;
}

/** What a list machine may start from: other filters than the definition's (the app's location selection). */
export interface ListInput<Filters> {
  filters?: Partial<Filters>;
}

/** The keyset cursor a page link carries, or null (a link by page number, or no link). */
export function cursorOfLink(link: string | null): string | null {
  return link ? new URL(link, 'http://local').searchParams.get('cursor') : null;
}

/** The rows of an answer, whichever shape it has, with its total and the cursors of the pages beside it. */
function rowsOf<Item>(answer: ListAnswer<Item>) {
  if (Array.isArray(answer)) {
    return {
      items: answer,
      total: answer.length,
      totalEstimated: false,
      adjacent: { next: null, previous: null },
    };
  }
  return {
    items: answer.results,
    total: answer.count,
    totalEstimated: answer.count_estimated === true,
    adjacent: { next: cursorOfLink(answer.next), previous: cursorOfLink(answer.previous) },
  };
}

/**
 * The machine of a list screen, made from its definition. States:
 * - `listing.loading` → `listing.browsing` (or `listing.failed`, retried with `list.retry`; a refused page
 *   cursor, the list having changed, loads page 1 again instead); typing
 *   waits in `listing.debouncing`; a page, search or filter change loads again;
 * - `creating.open` → `creating.saving` (→ `creating.created` when the answer is shown) and
 *   `editing.open` → `editing.saving`: the dialog is checked with the definition's schemas before a
 *   call, and the server's field errors come back into it;
 * - `deleting.confirming` → `deleting.removing`;
 * and after any change the list loads again with a notice. The calls are placeholders the wiring
 * provides: `loadList` (query → items or a page), `createItem`, `updateItem` ({item, changes}),
 * `deleteItem` (the item) and `exportList` (the query without paging).
 */
export function createListMachine<
  Item,
  Form extends object,
  Filters extends object,
  CreateInput = never,
  UpdateInput = never,
  Created = Item,
>(
  definition: ListDefinition<Item, Form, Filters, CreateInput, UpdateInput>,
): ListMachine<Item, Form, Filters, CreateInput, UpdateInput, Created> {
  return buildListMachine(definition as unknown as ErasedDefinition) as unknown as ListMachine<
    Item,
    Form,
    Filters,
    CreateInput,
    UpdateInput,
    Created
  >;
}

// The machine is built once with the item, form and filter types erased (XState's types cannot follow
// type parameters through setup), and createListMachine gives it back the screen's types.
type Item = object;
type Form = Record<string, unknown>;
type Filters = Record<string, unknown>;
type Created = object;
type CreateInput = unknown;
type UpdateInput = unknown;
type ErasedDefinition = ListDefinition<Item, Form, Filters, CreateInput, UpdateInput>;

function buildListMachine(definition: ErasedDefinition) {
  const { id, form: dialog } = definition;
  // Each feature's events exist only on lists that have it, so the model and the visualiser show no more.
  const paged = definition.pageSize !== null;
  const filtered = Object.keys(definition.filters).length > 0;
  const refreshDelay = definition.refreshDelay ?? LIST_REFRESH_MS;
  const deletable = definition.deletable ?? true;
  // Spec §2: a list is refreshed 3 s after an add or update (and an upload); it also reloads at once, so the
  // change shows, and the later refresh picks up what the server finishes after answering.
  // With no delay the reload at once is the refresh.
  const afterChange = refreshDelay > 0 ? (['scheduleRefresh'] as const) : ([] as const);
  const empty: Form = dialog?.empty ?? {};
  // Closing a dialog returns to the list, which loads again if a refresh or other filters came meanwhile.
  const closeToList = [
    { guard: 'refreshIsPending' as const, target: `#${id}.listing.loading`, actions: 'closeDialog' as const },
    { target: `#${id}.listing.browsing`, actions: 'closeDialog' as const },
  ];
  type Context = ListContext<Item, Form, Filters, Created>;
  const queryOf = (context: Context): ListQuery<Filters> => {
    const search = context.search.trim();
    return {
      ...context.filters,
      ...(context.pageSize === null ? {} : { page: context.page, page_size: context.pageSize }),
      ...(definition.searchable && search ? { q: search } : {}),
      ...(context.ordering === null ? {} : { ordering: context.ordering }),
      ...(context.cursor === null ? {} : { cursor: context.cursor }),
    };
  };
  // An export is the whole filtered, searched list: every page, in the order exports stream (by id).
  const exportQueryOf = (context: Context): ListQuery<Filters> => {
    const {
      page: _page,
      page_size: _pageSize,
      ordering: _ordering,
      cursor: _cursor,
      ...query
    } = queryOf(context);
    return query;
  };
  const sorting = definition.sortable;
  const closed = { selected: null, form: empty, fieldErrors: {}, problem: null, created: null };
  const checkWith = (schema: z.ZodType | undefined, form: unknown) =>
    schema ? schema.safeParse(form) : ({ success: false, error: null } as const);
  const createCandidate = (context: Context): unknown =>
    dialog?.createInput ? dialog.createInput(context.form, context.filters) : context.form;

  const listSetup = setup({
    types: {
      context: {} as Context,
      events: {} as ListEvent<Item, Form, Filters, Created>,
      // The assertion names the input type for XState (every field of it is optional).
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      input: {} as ListInput<Filters>,
      emitted: {} as ListEmitted<Item>,
    },
    actors: {
      /** The list call (query → items or a page). */
      loadList: placeholder<ListAnswer<Item>, ListQuery<Filters>>(),
      /** The create call (the add dialog's checked input). */
      createItem: placeholder<Created, CreateInput>(),
      /** The update call (the item and the edit dialog's checked changes). */
      updateItem: placeholder<Item, UpdateRequest<Item, UpdateInput>>(),
      /** The delete call (the item). */
      deleteItem: placeholder<unknown, Item>(),
      /** The export call (the query without paging): a file the browser downloads. */
      exportList: placeholder<unknown, ListQuery<Filters>>(),
    },
    delays: {
      /** How long typing pauses before the list is searched. */
      searchDelay: 300,
      refreshDelay,
    },
    guards: {
      createIsValid: ({ context }) => checkWith(dialog?.create, createCandidate(context)).success,
      updateIsValid: ({ context }) => checkWith(dialog?.update, context.form).success,
      refreshIsPending: ({ context }) => context.refreshPending,
      // Only a load that sent a cursor: one without a cursor cannot have it refused, so this never loops.
      cursorWasRefused: ({ context }, failure: { error: unknown }) => {
        const problem = problemOf(failure.error);
        return context.cursor !== null && problem.status === 400 && 'cursor' in problem.fields;
      },
      // Only the definition's columns: an ordering the server does not know would fail the whole list.
      orderingIsKnown: (_, ordering: string) =>
        sorting !== undefined && sorting.columns.includes(orderingParts(ordering).column),
    },
    actions: {
      keepList: assign((_, answer: ListAnswer<Item>) => ({ ...rowsOf(answer), problem: null })),
      keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
      keepServerErrors: assign((_, failure: { error: unknown }) => {
        const problem = problemOf(failure.error);
        return { problem, fieldErrors: problem.fields };
      }),
      keepSearch: assign((_, search: string) => ({ search })),
      keepOrdering: assign((_, ordering: string) => ({ ordering, page: 1, cursor: null, notice: null })),
      keepFilters: assign(({ context }, filters: Partial<Filters>) => ({
        filters: { ...context.filters, ...filters },
        page: 1,
        cursor: null,
        notice: null,
      })),
      firstPage: assign({ page: 1, cursor: null }),
      // The page beside the shown one is read by its link's cursor (fast however deep); others by number.
      goToPage: assign(({ context }, requested: number) => {
        const page = Math.max(1, Math.floor(requested));
        const cursor =
          page === context.page + 1
            ? context.adjacent.next
            : page === context.page - 1
              ? context.adjacent.previous
              : null;
        return { page, cursor: page === 1 ? null : cursor, notice: null };
      }),
      openCreate: assign({ ...closed, notice: null }),
      openItem: assign((_, item: Item) => ({
        ...closed,
        selected: item,
        form: dialog ? dialog.of(item) : empty,
        notice: null,
      })),
      closeDialog: assign({ ...closed, refreshPending: false }),
      changeField: assign(({ context }, change: { field: keyof Form; value: unknown }) => ({
        form: { ...context.form, [change.field]: change.value },
        fieldErrors: withoutField(context.fieldErrors, String(change.field)),
      })),
      showCreateErrors: assign(({ context }) => {
        const result = checkWith(dialog?.create, createCandidate(context));
        return { fieldErrors: result.error ? fieldErrorsOf(result.error) : {}, problem: null };
      }),
      showUpdateErrors: assign(({ context }) => {
        const result = checkWith(dialog?.update, context.form);
        return { fieldErrors: result.error ? fieldErrorsOf(result.error) : {}, problem: null };
      }),
      keepCreated: assign((_, created: Created) => ({ created })),
      clearProblem: assign({ problem: null }),
      notice: assign((_, notice: ListNotice) => ({ notice })),
      dismissNotice: assign({ notice: null }),
      // Deleting the only row of a later page would leave an empty page: show the one before.
      stepBackFromEmptyPage: assign(({ context }) =>
        context.page > 1 && context.items?.length === 1
          ? { page: context.page - 1, cursor: context.page === 2 ? null : context.adjacent.previous }
          : {},
      ),
      scheduleRefresh: enqueueActions(({ enqueue }) => {
        enqueue.cancel('refreshTimer');
        enqueue.raise({ type: 'refresh.due' }, { delay: 'refreshDelay', id: 'refreshTimer' });
      }),
      markRefreshPending: assign({ refreshPending: true }),
      startExport: enqueueActions(({ context, enqueue }) => {
        enqueue.assign({ exporting: true, notice: null });
        enqueue.spawnChild('exportList', { id: 'exportList', input: exportQueryOf(context) });
      }),
      exportFinished: assign({ exporting: false }),
      announceOpened: emit((_, item: Item) => ({ type: 'item.opened' as const, item })),
      announceDeleted: emit(({ context }, answer: unknown) => ({
        type: 'item.deleted' as const,
        // Entered only with the item to delete selected.
        item: context.selected as Item,
        answer,
      })),
    },
  });
  const request = requestIn(listSetup);

  return listSetup.createMachine({
    id,
    context: ({ input }) => ({
      page: 1,
      pageSize: definition.pageSize,
      search: '',
      ordering: sorting?.initial ?? null,
      filters: { ...definition.filters, ...input?.filters },
      items: null,
      total: 0,
      totalEstimated: false,
      cursor: null,
      adjacent: { next: null, previous: null },
      selected: null,
      form: empty,
      fieldErrors: {},
      problem: null,
      notice: null,
      created: null,
      exporting: false,
      refreshPending: false,
    }),
    initial: 'listing',
    on: {
      'list.refresh': [
        {
          guard: ({ event }) => event.notice !== undefined,
          actions: ['scheduleRefresh', { type: 'notice', params: ({ event }) => event.notice! }],
        },
        { actions: 'scheduleRefresh' },
      ],
      // Outside the list (a dialog open) a due refresh waits for the dialog to close.
      'refresh.due': { actions: 'markRefreshPending' },
      ...(filtered
        ? {
            // Another location or date range while a dialog is open: the dialog keeps what was typed, and
            // the new list's first page loads when it closes (the list itself answers in `listing`).
            'filters.change': {
              actions: [{ type: 'keepFilters', params: ({ event }) => event.filters }, 'markRefreshPending'],
            },
          }
        : {}),
      ...(definition.exportable
        ? {
            // The export runs at the root, so paging or searching meanwhile does not cancel it.
            'xstate.done.actor.exportList': {
              actions: ['exportFinished', { type: 'notice', params: 'exported' }],
            },
            'xstate.error.actor.exportList': {
              actions: ['exportFinished', { type: 'notice', params: 'exportFailed' }],
            },
          }
        : {}),
    },
    states: {
      listing: {
        initial: 'loading',
        on: {
          ...(definition.searchable
            ? {
                // Typing restarts the wait (and drops a load under way): the list is searched once typing pauses.
                'search.change': {
                  target: '.debouncing',
                  reenter: true,
                  actions: { type: 'keepSearch', params: ({ event }) => event.query },
                },
              }
            : {}),
          'notice.dismiss': { actions: 'dismissNotice' },
          'refresh.due': { target: '.loading' },
          ...(sorting
            ? {
                // Another column or direction: the first page in the new order.
                'sort.change': {
                  guard: { type: 'orderingIsKnown', params: ({ event }) => event.ordering },
                  target: '.loading',
                  actions: { type: 'keepOrdering', params: ({ event }) => event.ordering },
                },
              }
            : {}),
          ...(filtered
            ? {
                // Another location or date range: its first page.
                'filters.change': {
                  target: '.loading',
                  actions: { type: 'keepFilters', params: ({ event }) => event.filters },
                },
              }
            : {}),
        },
        states: {
          loading: {
            tags: ['busy'],
            ...request('loadList', {
              input: ({ context }) => queryOf(context),
              done: {
                target: 'browsing',
                actions: {
                  type: 'keepList',
                  params: ({ event }) => event.output,
                },
              },
              error: [
                // A page link whose boundary row is gone (the list changed): page 1 again, no error shown.
                {
                  guard: { type: 'cursorWasRefused', params: ({ event }) => ({ error: event.error }) },
                  target: 'loading',
                  reenter: true,
                  actions: ['firstPage', 'clearProblem'],
                },
                {
                  target: 'failed',
                  actions: {
                    type: 'keepProblem',
                    params: ({ event }) => ({ error: event.error }),
                  },
                },
              ],
            }),
          },
          failed: {
            on: { 'list.retry': { target: 'loading', actions: 'clearProblem' } },
          },
          browsing: {
            on: {
              ...(paged
                ? {
                    'page.change': {
                      target: 'loading',
                      actions: { type: 'goToPage', params: ({ event }) => event.page },
                    },
                  }
                : {}),
              ...(dialog?.create ? { 'item.add': { target: `#${id}.creating`, actions: 'openCreate' } } : {}),
              ...(dialog?.update
                ? {
                    'item.edit': {
                      target: `#${id}.editing`,
                      actions: { type: 'openItem', params: ({ event }) => event.item },
                    },
                  }
                : {}),
              ...(deletable
                ? {
                    'item.delete': {
                      target: `#${id}.deleting`,
                      actions: { type: 'openItem', params: ({ event }) => event.item },
                    },
                  }
                : {}),
              ...(definition.openable
                ? { 'item.open': { actions: { type: 'announceOpened', params: ({ event }) => event.item } } }
                : {}),
              ...(definition.exportable
                ? { 'export.start': { guard: ({ context }) => !context.exporting, actions: 'startExport' } }
                : {}),
            },
          },
          debouncing: {
            entry: raise({ type: 'search.settled' }, { delay: 'searchDelay', id: 'searchPause' }),
            exit: cancel('searchPause'),
            on: { 'search.settled': { target: 'loading', actions: 'firstPage' } },
          },
        },
      },
      ...(dialog?.create
        ? {
            creating: {
              initial: 'open',
              states: {
                open: {
                  on: {
                    'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
                    'dialog.submit': [
                      { guard: 'createIsValid', target: 'saving', actions: 'clearProblem' },
                      { actions: 'showCreateErrors' },
                    ],
                    'dialog.close': closeToList,
                  },
                },
                saving: {
                  tags: ['busy'],
                  ...request('createItem', {
                    // The erased create input is `unknown`, so the mapper's argument is named here.
                    input: ({ context }: { context: Context }) =>
                      dialog?.create?.parse(createCandidate(context)),
                    done: definition.showCreated
                      ? {
                          target: 'created',
                          actions: {
                            type: 'keepCreated',
                            params: ({ event }) => event.output,
                          },
                        }
                      : {
                          target: `#${id}.listing.loading`,
                          actions: ['closeDialog', { type: 'notice', params: 'created' }, ...afterChange],
                        },
                    error: {
                      target: 'open',
                      actions: {
                        type: 'keepServerErrors',
                        params: ({ event }) => ({ error: event.error }),
                      },
                    },
                  }),
                },
                // The answer stays on screen (a secret shown once) until the user closes the dialog.
                ...(definition.showCreated
                  ? {
                      created: {
                        on: {
                          'dialog.close': {
                            target: `#${id}.listing.loading`,
                            actions: ['closeDialog', { type: 'notice', params: 'created' }, ...afterChange],
                          },
                        },
                      },
                    }
                  : {}),
              },
            },
          }
        : {}),
      ...(dialog?.update
        ? {
            editing: {
              initial: 'open',
              states: {
                open: {
                  on: {
                    'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
                    'dialog.submit': [
                      { guard: 'updateIsValid', target: 'saving', actions: 'clearProblem' },
                      { actions: 'showUpdateErrors' },
                    ],
                    'dialog.close': closeToList,
                  },
                },
                saving: {
                  tags: ['busy'],
                  ...request('updateItem', {
                    // The edit dialog opens only with a row selected.
                    input: ({ context }) => ({
                      item: context.selected as Item,
                      changes: dialog?.update?.parse(context.form),
                    }),
                    done: {
                      target: `#${id}.listing.loading`,
                      actions: ['closeDialog', { type: 'notice', params: 'updated' }, ...afterChange],
                    },
                    error: {
                      target: 'open',
                      actions: {
                        type: 'keepServerErrors',
                        params: ({ event }) => ({ error: event.error }),
                      },
                    },
                  }),
                },
              },
            },
          }
        : {}),
      ...(deletable
        ? {
            deleting: {
              initial: 'confirming',
              states: {
                confirming: {
                  on: {
                    'delete.confirm': { target: 'removing', actions: 'clearProblem' },
                    'dialog.close': closeToList,
                  },
                },
                removing: {
                  tags: ['busy'],
                  ...request('deleteItem', {
                    input: ({ context }) => context.selected,
                    done: {
                      target: `#${id}.listing.loading`,
                      actions: [
                        {
                          type: 'announceDeleted',
                          params: ({ event }: { event: { output: unknown } }) => event.output,
                        },
                        'stepBackFromEmptyPage',
                        'closeDialog',
                        { type: 'notice', params: 'deleted' },
                      ],
                    },
                    error: {
                      target: 'confirming',
                      actions: {
                        type: 'keepProblem',
                        params: ({ event }) => ({ error: event.error }),
                      },
                    },
                  }),
                },
              },
            },
          }
        : {}),
    },
  });
}

type ErasedListMachine = ReturnType<typeof buildListMachine>;

/** The actors a list machine's wiring provides, typed by the screen. */
type ListActors<ItemType, FiltersType, CreateType, UpdateType, CreatedType> =
  | {
      src: 'loadList';
      // A list loaded whole answers its items, a paged one a page: the wiring provides either.
      logic:
        | PromiseActorLogic<ItemType[], ListQuery<FiltersType>>
        | PromiseActorLogic<Page<ItemType>, ListQuery<FiltersType>>;
      id: string | undefined;
    }
  | { src: 'createItem'; logic: PromiseActorLogic<CreatedType, CreateType>; id: string | undefined }
  | {
      src: 'updateItem';
      logic: PromiseActorLogic<ItemType, UpdateRequest<ItemType, UpdateType>>;
      id: string | undefined;
    }
  | { src: 'deleteItem'; logic: PromiseActorLogic<unknown, ItemType>; id: string | undefined }
  | { src: 'exportList'; logic: PromiseActorLogic<unknown, ListQuery<FiltersType>>; id: string | undefined };

/** Where a list machine can be (a list without an add or an edit dialog never reaches those states). */
export type ListStateValue =
  | { listing: 'loading' | 'failed' | 'browsing' | 'debouncing' }
  | { creating: 'open' | 'saving' | 'created' }
  | { editing: 'open' | 'saving' }
  | { deleting: 'confirming' | 'removing' };

/** The machine a list definition makes: the kit's statechart with the screen's types. */
export type ListMachine<
  ItemType,
  FormType extends object,
  FiltersType extends object,
  CreateType,
  UpdateType,
  CreatedType = ItemType,
> =
  ErasedListMachine extends StateMachine<
    infer _Context,
    infer _Event,
    infer Children,
    infer _Actors,
    infer Actions,
    infer Guards,
    infer Delays,
    infer _Value,
    infer Tags,
    infer _Input,
    infer Output,
    infer _Emitted,
    infer Meta,
    infer Schema
  >
    ? StateMachine<
        ListContext<ItemType, FormType, FiltersType, CreatedType>,
        ListEvent<ItemType, FormType, FiltersType, CreatedType>,
        Children,
        ListActors<ItemType, FiltersType, CreateType, UpdateType, CreatedType>,
        Actions,
        Guards,
        Delays,
        ListStateValue,
        Tags,
        ListInput<FiltersType>,
        Output,
        ListEmitted<ItemType>,
        Meta,
        Schema
      >
    : never;
