import { createTestModel } from '@xstate/graph';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type EventFromLogic } from 'xstate';
import { z } from 'zod';
import {
  createListMachine,
  orderingAfterClick,
  LIST_REFRESH_MS,
  type ListQuery,
  type NoFilters,
  type UpdateRequest,
} from '../../src/machines/kit/list-machine.js';
import type { Page } from '../../src/schemas/common.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

// A list with every feature of the kit (paged, searched, filtered, add with the answer shown, edit,
// delete, open, export, refresh), as a restaurant's dishes; the screens use subsets of it.

interface Dish {
  id: number;
  name: string;
}
interface DishForm {
  name: string;
  featured: boolean;
}
interface DishFilters {
  location_id: number;
}
interface DishCreated {
  dish: Dish;
  code: string;
}
const DishInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required'),
  featured: z.boolean(),
});
type DishInput = z.infer<typeof DishInputSchema>;

const EMPTY: DishForm = { name: '', featured: false };
const dishesMachine = createListMachine<Dish, DishForm, DishFilters, DishInput, DishInput, DishCreated>({
  id: 'dishes',
  pageSize: 2,
  searchable: true,
  filters: { location_id: 0 },
  form: {
    empty: EMPTY,
    of: (dish) => ({ name: dish.name, featured: false }),
    create: DishInputSchema,
    update: DishInputSchema,
  },
  showCreated: true,
  refreshDelay: 1000,
  openable: true,
  exportable: true,
  sortable: { columns: ['name', 'created_at'], initial: '-created_at', descendingFirst: ['created_at'] },
});

const SOUP: Dish = { id: 3, name: 'Soup' };
const PAGE_ONE: Page<Dish> = {
  count: 3,
  next: '?page=2',
  previous: null,
  results: [{ id: 1, name: 'Ribs' }, SOUP],
};
const LAST_PAGE: Page<Dish> = { count: 3, next: null, previous: '?page=1', results: [SOUP] };
// The model's answer: its next link carries a keyset cursor, so the walk reaches loads made with one.
const CURSORED_PAGE: Page<Dish> = { ...LAST_PAGE, next: '/api/dishes/?page=2&cursor=after-soup' };
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const LIST_CHANGED = {
  status: 400,
  code: 'validation_failed',
  message: 'Invalid',
  fields: { cursor: 'the list changed since this link was made: start again from page 1' },
  fieldProblems: { cursor: { code: 'not_valid' } },
};
const TAKEN = {
  status: 400,
  code: 'validation_failed',
  message: 'Invalid',
  fields: { name: 'Name is in use' },
  fieldProblems: { name: { code: 'in_use' } },
};

type DishEvent = EventFromLogic<typeof dishesMachine>;

const SAMPLES: DishEvent[] = [
  { type: 'item.edit', item: SOUP },
  { type: 'item.delete', item: SOUP },
  { type: 'item.open', item: SOUP },
  { type: 'field.change', field: 'name', value: 'Soup' },
  { type: 'page.change', page: 2 },
  { type: 'search.change', query: ' soup ' },
  { type: 'sort.change', ordering: 'name' },
  // A column the list does not offer: refused, so the list call never sees it.
  { type: 'sort.change', ordering: '-price' },
  { type: 'filters.change', filters: { location_id: 7 } },
  { type: 'list.refresh', notice: 'uploaded' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: CURSORED_PAGE },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: LIST_CHANGED },
  { type: 'xstate.done.actor.createItem', actorId: 'createItem', output: { dish: SOUP, code: 'X1' } },
  { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: TAKEN },
  { type: 'xstate.done.actor.updateItem', actorId: 'updateItem', output: SOUP },
  { type: 'xstate.error.actor.updateItem', actorId: 'updateItem', error: TAKEN },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: SERVER_DOWN },
  { type: 'xstate.done.actor.exportList', actorId: 'exportList', output: null },
  { type: 'xstate.error.actor.exportList', actorId: 'exportList', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  dishesMachine.provide({
    actors: {
      loadList: pendingActor<Page<Dish>, ListQuery<DishFilters>>('loadList', recording),
      createItem: pendingActor('createItem', recording),
      updateItem: pendingActor('updateItem', recording),
      deleteItem: pendingActor('deleteItem', recording),
      exportList: pendingActor('exportList', recording),
    },
  });

/** The query the list call must have been given for a context: independent of the kit's own queryOf. */
function expectedQuery(context: {
  page: number;
  search: string;
  filters: DishFilters;
  ordering: string | null;
  cursor: string | null;
}) {
  const q = context.search.trim();
  return {
    location_id: context.filters.location_id,
    page: context.page,
    page_size: 2,
    ...(q ? { q } : {}),
    ordering: context.ordering,
    ...(context.cursor === null ? {} : { cursor: context.cursor }),
  };
}

const checks: StateChecks = {
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    const load = recording.invoked.filter((call) => call.src === 'loadList').at(-1);
    expect(load?.input).toEqual(expectedQuery(snapshot.context));
  },
  'listing.failed': (snapshot) => {
    // A refused cursor is shown only for a load that sent none (a server mistake); otherwise page 1 loads.
    if (snapshot.context.problem?.fields.cursor) expect(snapshot.context.cursor).toBeNull();
    else expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual(CURSORED_PAGE.results);
    expect(snapshot.context.total).toBe(3);
    expect(snapshot.context.selected).toBeNull();
    expect(snapshot.context.form).toEqual(EMPTY);
  },
  'listing.debouncing': (snapshot) => {
    expect(snapshot.context.search).toBe(' soup ');
  },
  'creating.open': (snapshot) => {
    expect(snapshot.context.selected).toBeNull();
    if (snapshot.context.fieldErrors.name) {
      expect(['Name is required', 'Name is in use']).toContain(snapshot.context.fieldErrors.name?.message);
    }
  },
  'creating.saving': (snapshot, recording) => {
    const input = { name: snapshot.context.form.name.trim(), featured: false };
    expect(recording.invoked.at(-1)).toEqual({ src: 'createItem', input });
  },
  'creating.created': (snapshot) => {
    expect(snapshot.context.created).toEqual({ dish: SOUP, code: 'X1' });
  },
  'editing.open': (snapshot) => {
    expect(snapshot.context.selected).toEqual(SOUP);
  },
  'editing.saving': (snapshot, recording) => {
    const changes = { name: snapshot.context.form.name.trim(), featured: false };
    expect(recording.invoked.at(-1)).toEqual({ src: 'updateItem', input: { item: SOUP, changes } });
  },
  'deleting.confirming': (snapshot) => {
    expect(snapshot.context.selected).toEqual(SOUP);
  },
  'deleting.removing': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: SOUP });
  },
};

// States differ by value and context, except the notice: which notice shows never changes where an
// event leads (the notice test below follows it), and counting it would multiply the walk by seven.
const model = createTestModel(dishesMachine, {
  events: SAMPLES,
  serializeState: (snapshot) => JSON.stringify([snapshot.value, { ...snapshot.context, notice: null }]),
});
const { transitions: paths } = everyTransition(dishesMachine, model);

describe('list kit machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(
      expect.arrayContaining([
        'creating.created',
        'creating.open',
        'creating.saving',
        'deleting.confirming',
        'deleting.removing',
        'editing.open',
        'editing.saving',
        'listing.browsing',
        'listing.debouncing',
        'listing.failed',
        'listing.loading',
      ]),
    );
  });

  it('loads the list again with a notice after every change', () => {
    for (const path of paths) {
      for (const step of path.steps) {
        const done = /^xstate\.done\.actor\.(update|delete)Item$/.exec(step.event.type);
        if (!done) continue;
        expect(step.state.matches({ listing: 'loading' })).toBe(true);
        expect(step.state.context.notice).toBe(`${done[1]}d`);
      }
    }
  });

  it('loads page 1 again, showing no error, when the list refuses a cursor because it changed', () => {
    let followed = 0;
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        const before = index === 0 ? null : path.steps[index - 1]!.state;
        const refused =
          step.event.type === 'xstate.error.actor.loadList' && step.event.error === LIST_CHANGED;
        if (!refused || !before?.matches({ listing: 'loading' }) || before.context.cursor === null) return;
        followed += 1;
        expect(step.state.matches({ listing: 'loading' })).toBe(true);
        expect(step.state.context).toMatchObject({ page: 1, cursor: null, problem: null });
      });
    }
    expect(followed).toBeGreaterThan(0);
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});

/** A list machine whose calls answer at once from the given answers, recording each call's input. */
function running(answers: { pages?: Page<Dish>[] } = {}) {
  const calls: { src: string; input: unknown }[] = [];
  const pages = [...(answers.pages ?? [PAGE_ONE])];
  const answered =
    <Output, Input>(src: string, output: (input: Input) => Output) =>
    () =>
      fromPromise<Output, Input>(({ input }) => {
        calls.push({ src, input });
        return Promise.resolve(output(input));
      });
  const actor = createActor(
    dishesMachine.provide({
      actors: {
        loadList: answered<Page<Dish>, ListQuery<DishFilters>>('loadList', () => pages.shift() ?? PAGE_ONE)(),
        createItem: answered<DishCreated, DishInput>('createItem', (input) => ({
          dish: { id: 9, name: input.name },
          code: 'K-9',
        }))(),
        updateItem: answered<Dish, UpdateRequest<Dish, DishInput>>('updateItem', ({ item }) => item)(),
        deleteItem: answered<unknown, Dish>('deleteItem', () => null)(),
        exportList: answered<unknown, ListQuery<DishFilters>>('exportList', () => null)(),
      },
    }),
    { input: { filters: { location_id: 4 } } },
  );
  const emitted: unknown[] = [];
  actor.on('item.opened', (event) => emitted.push(event));
  actor.start();
  return { actor, calls, emitted, loads: () => calls.filter((call) => call.src === 'loadList') };
}

describe('list kit machine (scenarios)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts from the filters its input gives', async () => {
    const { actor, loads } = running();
    await vi.runAllTimersAsync();
    expect(loads()).toEqual([
      { src: 'loadList', input: { location_id: 4, page: 1, page_size: 2, ordering: '-created_at' } },
    ]);
    expect(actor.getSnapshot().context.items).toEqual(PAGE_ONE.results);
  });

  it('searches once typing pauses, from the first page, with the text trimmed', async () => {
    const { actor, loads } = running();
    await vi.runAllTimersAsync();
    actor.send({ type: 'page.change', page: 2 });
    await vi.runAllTimersAsync();
    actor.send({ type: 'search.change', query: ' so' });
    await vi.advanceTimersByTimeAsync(100);
    actor.send({ type: 'search.change', query: ' soup ' });
    await vi.advanceTimersByTimeAsync(299);
    expect(loads()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).toEqual({
      location_id: 4,
      page: 1,
      page_size: 2,
      q: 'soup',
      ordering: '-created_at',
    });
    expect(loads()).toHaveLength(3);
  });

  it('keeps the add dialog open with its field errors until the form is valid, then shows the answer', async () => {
    const { actor, calls } = running();
    await vi.runAllTimersAsync();
    actor.send({ type: 'item.add' });
    actor.send({ type: 'dialog.submit' });
    expect(actor.getSnapshot().matches({ creating: 'open' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      name: { code: 'required', message: 'Name is required' },
    });
    actor.send({ type: 'field.change', field: 'name', value: '  Pho ' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    actor.send({ type: 'dialog.submit' });
    await vi.runAllTimersAsync();
    expect(calls.find((call) => call.src === 'createItem')?.input).toEqual({ name: 'Pho', featured: false });
    expect(actor.getSnapshot().matches({ creating: 'created' })).toBe(true);
    expect(actor.getSnapshot().context.created).toEqual({ dish: { id: 9, name: 'Pho' }, code: 'K-9' });
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().context.created).toBeNull();
    expect(actor.getSnapshot().context.notice).toBe('created');
  });

  it('shows the page before when the only row of the last page is deleted', async () => {
    const { actor, loads } = running({ pages: [PAGE_ONE, LAST_PAGE] });
    await vi.runAllTimersAsync();
    actor.send({ type: 'page.change', page: 2 });
    await vi.runAllTimersAsync();
    actor.send({ type: 'item.delete', item: SOUP });
    actor.send({ type: 'delete.confirm' });
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).toMatchObject({ page: 1 });
    expect(actor.getSnapshot().context.notice).toBe('deleted');
  });

  it("follows the answer's cursors to the pages beside the shown one, by number elsewhere, and shows an estimate", async () => {
    const first: Page<Dish> = {
      count: 1_200_000,
      count_estimated: true,
      next: '/api/dishes/?page=2&cursor=after-ribs',
      previous: null,
      results: [{ id: 1, name: 'Ribs' }, SOUP],
    };
    const second: Page<Dish> = {
      count: 1_200_000,
      count_estimated: true,
      next: '/api/dishes/?page=3&cursor=after-stew',
      previous: '/api/dishes/?page=1',
      results: [{ id: 5, name: 'Stew' }],
    };
    const third: Page<Dish> = { ...second, previous: '/api/dishes/?page=2&cursor=before-tart' };
    const { actor, loads } = running({ pages: [first, second, third, first, first] });
    await vi.runAllTimersAsync();
    expect(actor.getSnapshot().context).toMatchObject({ total: 1_200_000, totalEstimated: true });
    actor.send({ type: 'page.change', page: 2 });
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).toMatchObject({ page: 2, cursor: 'after-ribs' });
    actor.send({ type: 'page.change', page: 3 });
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).toMatchObject({ page: 3, cursor: 'after-stew' });
    actor.send({ type: 'page.change', page: 2 });
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).toMatchObject({ page: 2, cursor: 'before-tart' });
    // A page further away is read by its number; a new search starts again from page 1 without a cursor.
    actor.send({ type: 'page.change', page: 40 });
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).not.toHaveProperty('cursor');
    actor.send({ type: 'search.change', query: 'soup' });
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).toMatchObject({ page: 1, q: 'soup' });
    expect(loads().at(-1)?.input).not.toHaveProperty('cursor');
    // The search's answer (PAGE_ONE) carries no label: its total is exact.
    expect(actor.getSnapshot().context.totalEstimated).toBe(false);
  });

  it('holds a refresh that comes due while a dialog is open until the dialog closes', async () => {
    const { actor, loads } = running();
    await vi.runAllTimersAsync();
    actor.send({ type: 'item.edit', item: SOUP });
    actor.send({ type: 'list.refresh', notice: 'uploaded' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(loads()).toHaveLength(1);
    expect(actor.getSnapshot().context.refreshPending).toBe(true);
    actor.send({ type: 'dialog.close' });
    await vi.runAllTimersAsync();
    expect(loads()).toHaveLength(2);
    expect(actor.getSnapshot().context.notice).toBe('uploaded');
  });

  it('reloads at once after an update and again a refresh delay later', async () => {
    const { actor, loads } = running();
    await vi.runAllTimersAsync();
    actor.send({ type: 'item.edit', item: SOUP });
    actor.send({ type: 'dialog.submit' });
    await vi.advanceTimersByTimeAsync(0);
    expect(loads()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(loads()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await vi.runAllTimersAsync();
    expect(loads()).toHaveLength(3);
    expect(actor.getSnapshot().context.notice).toBe('updated');
  });

  it('refreshes 3 s after an add when the list names no delay of its own (spec §2)', async () => {
    const plain = createListMachine<Dish, DishForm, NoFilters, DishInput, DishInput>({
      id: 'plainDishes',
      pageSize: null,
      searchable: false,
      filters: {},
      form: { empty: EMPTY, of: (dish) => ({ name: dish.name, featured: false }), create: DishInputSchema },
    });
    let loads = 0;
    const actor = createActor(
      plain.provide({
        actors: {
          loadList: fromPromise<Dish[], ListQuery<NoFilters>>(() => {
            loads += 1;
            return Promise.resolve([SOUP]);
          }),
          createItem: fromPromise<Dish, DishInput>(({ input }) =>
            Promise.resolve({ id: 10, name: input.name }),
          ),
        },
      }),
      { input: {} },
    ).start();
    await vi.runAllTimersAsync();
    actor.send({ type: 'item.add' });
    actor.send({ type: 'field.change', field: 'name', value: 'Pho' });
    actor.send({ type: 'dialog.submit' });
    await vi.advanceTimersByTimeAsync(0);
    expect(loads).toBe(2);
    await vi.advanceTimersByTimeAsync(LIST_REFRESH_MS - 1);
    expect(loads).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads).toBe(3);
    actor.stop();
  });

  it('reloads once after several refreshes in a row', async () => {
    const { actor, loads } = running();
    await vi.runAllTimersAsync();
    actor.send({ type: 'list.refresh' });
    await vi.advanceTimersByTimeAsync(600);
    actor.send({ type: 'list.refresh' });
    await vi.advanceTimersByTimeAsync(999);
    expect(loads()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.runAllTimersAsync();
    expect(loads()).toHaveLength(2);
  });

  it('goes to the first page of other filters, and keeps an open dialog until it closes', async () => {
    const { actor, loads } = running();
    await vi.runAllTimersAsync();
    actor.send({ type: 'page.change', page: 2 });
    await vi.runAllTimersAsync();
    actor.send({ type: 'filters.change', filters: { location_id: 8 } });
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).toEqual({ location_id: 8, page: 1, page_size: 2, ordering: '-created_at' });
    actor.send({ type: 'item.edit', item: SOUP });
    actor.send({ type: 'field.change', field: 'name', value: 'Soup of the day' });
    actor.send({ type: 'filters.change', filters: { location_id: 9 } });
    await vi.runAllTimersAsync();
    expect(actor.getSnapshot().matches({ editing: 'open' })).toBe(true);
    expect(actor.getSnapshot().context.form.name).toBe('Soup of the day');
    expect(loads()).toHaveLength(3);
    actor.send({ type: 'dialog.close' });
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).toEqual({ location_id: 9, page: 1, page_size: 2, ordering: '-created_at' });
  });

  it('exports the filtered, searched list without paging and keeps it running while the page changes', async () => {
    const { actor, calls } = running();
    await vi.runAllTimersAsync();
    actor.send({ type: 'search.change', query: 'ribs' });
    await vi.runAllTimersAsync();
    actor.send({ type: 'export.start' });
    expect(actor.getSnapshot().context.exporting).toBe(true);
    actor.send({ type: 'export.start' });
    actor.send({ type: 'page.change', page: 2 });
    await vi.runAllTimersAsync();
    const exports = calls.filter((call) => call.src === 'exportList');
    expect(exports).toHaveLength(1);
    expect(exports[0]?.input).toEqual({ location_id: 4, q: 'ribs' });
    expect(actor.getSnapshot().context.exporting).toBe(false);
    expect(actor.getSnapshot().context.notice).toBe('exported');
  });

  it('orders by a column from the first page; a second click turns the order around; unknown columns are refused', async () => {
    const { actor, loads } = running();
    await vi.runAllTimersAsync();
    actor.send({ type: 'page.change', page: 2 });
    await vi.runAllTimersAsync();
    const sorting = {
      columns: ['name', 'created_at'],
      initial: '-created_at',
      descendingFirst: ['created_at'],
    };
    actor.send({ type: 'sort.change', ordering: orderingAfterClick(sorting, '-created_at', 'name') });
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).toMatchObject({ page: 1, ordering: 'name' });
    actor.send({ type: 'sort.change', ordering: orderingAfterClick(sorting, 'name', 'name') });
    await vi.runAllTimersAsync();
    expect(loads().at(-1)?.input).toMatchObject({ page: 1, ordering: '-name' });
    expect(orderingAfterClick(sorting, '-name', 'created_at')).toBe('-created_at');
    expect(orderingAfterClick(sorting, '-created_at', 'created_at')).toBe('created_at');
    const before = loads().length;
    actor.send({ type: 'sort.change', ordering: 'price' });
    await vi.runAllTimersAsync();
    expect(loads()).toHaveLength(before);
    expect(actor.getSnapshot().context.ordering).toBe('-name');
  });

  it('announces the row to open and stays on the list', async () => {
    const { actor, emitted } = running();
    await vi.runAllTimersAsync();
    actor.send({ type: 'item.open', item: SOUP });
    expect(emitted).toEqual([{ type: 'item.opened', item: SOUP }]);
    expect(actor.getSnapshot().matches({ listing: 'browsing' })).toBe(true);
  });
});
