import { createTestModel } from '@xstate/graph';
import { type AnyMachineSnapshot, createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  FILE_PAGING_DEFAULTS,
  FILE_PAGING_FALLBACKS,
  filePagingMachine,
  type FilePagingContext,
  type FilePagingEvent,
  type FilePagingInput,
  type FileUrlsAnswer,
} from '../../src/machines/file-paging.machine.js';
import { rowKey, type FileRow, type FileRows } from '../../src/machines/support/csv-rows.js';
import { LIMITS } from '../../src/schemas/constants.js';
import {
  describePath,
  pendingActor,
  reachedStates,
  type ModelPath,
  type Recording,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const INPUT: FilePagingInput = { kind: 'guest', filter: { location_id: [3], location_group_id: [] } };

/** A full page of file URLs (so a next page may follow), 1,100 rows in all: eleven files of 100. */
const FULL_PAGE: FileUrlsAnswer = {
  count: 1100,
  max_count: 100,
  urls: Array.from(
    { length: LIMITS.fileUrlsPerPage },
    (_, index) => `/api/bigdata/files/guest/${index + 1}/`,
  ),
};
/** An answer without a count: the spec's fallback totals apply. */
const NO_COUNT: FileUrlsAnswer = { urls: ['/api/bigdata/files/guest/1/'] };
/** Nothing for these locations. */
const NOTHING: FileUrlsAnswer = { count: 0, max_count: 100, urls: [] };

/** One file: Ana twice (same name and card), a guest who is already a subscriber (P-2), and Ben. */
const FILE: FileRows = {
  rows: [
    { customer_name: 'Ana Lee', last_four_digits: '1234', pos_id: 'P-1' },
    { customer_name: 'ana lee', last_four_digits: '1234', pos_id: 'P-9' },
    { customer_name: 'Cy Moss', last_four_digits: '4321', pos_id: 'P-2' },
    { customer_name: 'Ben Ode', last_four_digits: '0001', pos_id: 'P-3' },
  ],
  discarded: 1,
};
const PRESENT = ['P-2'];
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: FilePagingEvent[] = [
  { type: 'page.loadMore' },
  { type: 'page.retry' },
  { type: 'filter.change', filter: { location_id: [], location_group_id: [5] } },
  { type: 'xstate.done.actor.loadFileUrls', actorId: 'loadFileUrls', output: FULL_PAGE },
  { type: 'xstate.done.actor.loadFileUrls', actorId: 'loadFileUrls', output: NO_COUNT },
  { type: 'xstate.done.actor.loadFileUrls', actorId: 'loadFileUrls', output: NOTHING },
  { type: 'xstate.error.actor.loadFileUrls', actorId: 'loadFileUrls', error: SERVER_DOWN },
  { type: 'xstate.done.actor.loadFile', actorId: 'loadFile', output: FILE },
  { type: 'xstate.error.actor.loadFile', actorId: 'loadFile', error: SERVER_DOWN },
  { type: 'xstate.done.actor.findExisting', actorId: 'findExisting', output: PRESENT },
  { type: 'xstate.error.actor.findExisting', actorId: 'findExisting', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  filePagingMachine.provide({
    actors: {
      loadFileUrls: pendingActor('loadFileUrls', recording),
      loadFile: pendingActor('loadFile', recording),
      findExisting: pendingActor('findExisting', recording),
    },
  });

type Check = (snapshot: AnyMachineSnapshot & { context: FilePagingContext }, recording: Recording) => void;

/** Kept rows never repeat a person and never hold a guest who is already a subscriber. */
const rowsAreClean: Check = (snapshot) => {
  const rows: FileRow[] = snapshot.context.rows;
  expect(new Set(rows.map(rowKey)).size).toBe(rows.length);
  expect(rows.filter((row) => PRESENT.includes(row.pos_id))).toEqual([]);
  expect(snapshot.context.pending).toEqual([]);
};

const checks: Record<string, Check> = {
  loadingUrls: (snapshot, recording) => {
    const { context } = snapshot;
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFileUrls',
      input: { kind: 'guest', page: context.pageFile, ...context.filter },
    });
  },
  loadingFile: (snapshot, recording) => {
    const { context } = snapshot;
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFile',
      input: { kind: 'guest', url: context.urls[context.urlIndex] },
    });
  },
  checkingExisting: (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'findExisting',
      input: { kind: 'subscriber', pos_ids: ['P-1', 'P-9', 'P-2', 'P-3'] },
    });
  },
  ready: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.problem).toBeNull();
    rowsAreClean(snapshot, { invoked: [], emitted: [] });
  },
  complete: (snapshot) => {
    expect(snapshot.context.problem).toBeNull();
    rowsAreClean(snapshot, { invoked: [], emitted: [] });
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ status: 500, code: 'internal' });
    expect(snapshot.context.failedStep).not.toBeNull();
  },
};

function replay(path: ModelPath, input: FilePagingInput = INPUT): void {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), { input }).start();
  try {
    for (const step of path.steps) {
      if (step.event.type !== 'xstate.init') actor.send(step.event as FilePagingEvent);
      const snapshot = actor.getSnapshot();
      const keys = Object.keys(checks).filter((key) => snapshot.matches(key as never));
      expect(keys, `no check gives ${JSON.stringify(snapshot.value)} a meaning`).not.toEqual([]);
      for (const key of keys) checks[key]!(snapshot as never, recording);
    }
  } catch (error) {
    if (error instanceof Error) error.message = `${describePath(path)}: ${error.message}`;
    throw error;
  } finally {
    actor.stop();
  }
}

/** Sends events to a fresh actor and answers it with what it invoked. */
function run(events: FilePagingEvent[], input: FilePagingInput = INPUT) {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), { input }).start();
  for (const event of events) actor.send(event);
  return { actor, recording };
}

const urlsDone = (output: FileUrlsAnswer) =>
  ({ type: 'xstate.done.actor.loadFileUrls', actorId: 'loadFileUrls', output }) as FilePagingEvent;
const fileDone = (output: FileRows) =>
  ({ type: 'xstate.done.actor.loadFile', actorId: 'loadFile', output }) as FilePagingEvent;
const existingDone = (output: string[]) =>
  ({ type: 'xstate.done.actor.findExisting', actorId: 'findExisting', output }) as FilePagingEvent;

const model = createTestModel(filePagingMachine, { events: SAMPLES, input: INPUT });
const { transitions: paths } = everyTransition(filePagingMachine, model);

describe('file paging machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'checkingExisting',
      'complete',
      'failed',
      'loadingFile',
      'loadingUrls',
      'ready',
    ]);
  });

  it('starts from the spec defaults: page 1, end 100, total 100', () => {
    const { actor } = run([]);
    expect(actor.getSnapshot().context).toMatchObject(FILE_PAGING_DEFAULTS);
    actor.stop();
  });

  it('keeps the first file without repeats and without guests who are already subscribers', () => {
    const { actor } = run([urlsDone(FULL_PAGE), fileDone(FILE), existingDone(PRESENT)]);
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(context.rows.map((row) => row.pos_id)).toEqual(['P-1', 'P-3']);
    expect(context).toMatchObject({
      pageFile: 1,
      fileEndCount: 100,
      totalRowsCount: 1100,
      countKnown: true,
      rowsRead: 5,
      rowsDiscarded: 1,
      rowsRemoved: 2,
    });
    actor.stop();
  });

  it('reads the next file on "load more", then asks for the next page of URLs', () => {
    const events: FilePagingEvent[] = [urlsDone(FULL_PAGE)];
    for (let file = 0; file < LIMITS.fileUrlsPerPage; file += 1) {
      events.push(fileDone(FILE), existingDone(PRESENT), { type: 'page.loadMore' });
    }
    const { actor, recording } = run(events);
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().value).toBe('loadingUrls');
    expect(context.pageFile).toBe(2);
    expect(context.fileEndCount).toBe(1000);
    expect(recording.invoked.filter((call) => call.src === 'loadFile').map((call) => call.input)).toEqual(
      FULL_PAGE.urls.map((url) => ({ kind: 'guest', url })),
    );
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFileUrls',
      input: { kind: 'guest', page: 2, location_id: [3], location_group_id: [] },
    });
    // The eleventh file reaches the count: nothing more to load.
    actor.send(urlsDone({ ...FULL_PAGE, urls: ['/api/bigdata/files/guest/11/'] }));
    actor.send(fileDone(FILE));
    actor.send(existingDone(PRESENT));
    expect(actor.getSnapshot().value).toBe('complete');
    expect(actor.getSnapshot().context.fileEndCount).toBe(1100);
    actor.stop();
  });

  it('falls back to total 9200 and end 656 for guests without a server count', () => {
    const { actor } = run([urlsDone(NO_COUNT)]);
    expect(actor.getSnapshot().context).toMatchObject({
      ...FILE_PAGING_FALLBACKS.guest,
      totalRowsCount: 9200,
      fileEndCount: 656,
      countKnown: false,
    });
    actor.stop();
  });

  it('falls back to total 8200 and end 456 for subscribers, whose rows need no existing-records check', () => {
    const input: FilePagingInput = { kind: 'subscriber', filter: { location_id: [], location_group_id: [] } };
    const subscriberFile: FileRows = {
      rows: [
        { email: 'a@example.com', pos_id: '1' },
        { email: 'A@example.com ', pos_id: '2' },
      ],
      discarded: 0,
    };
    const { actor, recording } = run([urlsDone(NO_COUNT), fileDone(subscriberFile)], input);
    expect(actor.getSnapshot().context).toMatchObject({ totalRowsCount: 8200, fileEndCount: 456 });
    expect(actor.getSnapshot().context.rows).toEqual([{ email: 'a@example.com', pos_id: '1' }]);
    expect(recording.invoked.map((call) => call.src)).toEqual(['loadFileUrls', 'loadFile']);
    expect(actor.getSnapshot().value).toBe('complete');
    actor.stop();
  });

  it('keeps the rows read so far when a file fails, and the retry reads the same file', () => {
    const { actor, recording } = run([
      urlsDone(FULL_PAGE),
      fileDone(FILE),
      existingDone(PRESENT),
      { type: 'page.loadMore' },
      { type: 'xstate.error.actor.loadFile', actorId: 'loadFile', error: SERVER_DOWN },
    ]);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.rows).toHaveLength(2);
    actor.send({ type: 'page.retry' });
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFile',
      input: { kind: 'guest', url: FULL_PAGE.urls[1] },
    });
    actor.stop();
  });

  it('starts again from the defaults when the locations change', () => {
    const filter = { location_id: [], location_group_id: [5] };
    const { actor, recording } = run([
      urlsDone(FULL_PAGE),
      fileDone(FILE),
      existingDone(PRESENT),
      { type: 'filter.change', filter },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ ...FILE_PAGING_DEFAULTS, rows: [], filter });
    expect(recording.invoked.at(-1)).toEqual({
      src: 'loadFileUrls',
      input: { kind: 'guest', page: 1, ...filter },
    });
    actor.stop();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replay(path);
    });
  }
});
