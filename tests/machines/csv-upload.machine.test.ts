import { createTestModel } from '@xstate/graph';
import { createActor, fromCallback, SimulatedClock, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  csvUploadMachine,
  fileProblemOf,
  uploadPercent,
  type CsvUploadEvent,
  type UploadRequest,
} from '../../src/machines/csv-upload.machine.js';
import { LIMITS } from '../../src/schemas/constants.js';
import type { ImportJob } from '../../src/schemas/imports.js';
import {
  describePath,
  pendingActor,
  reachedStates,
  type ModelPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

function job(status: ImportJob['status'], changes: Partial<ImportJob> = {}): ImportJob {
  return {
    id: 41,
    kind: 'subscriber',
    status,
    file_name: 'march.csv',
    bytes: 2048,
    processed: 0,
    read: 0,
    imported: 0,
    updated: 0,
    duplicates: 0,
    invalid: 0,
    errors: [],
    checks: null,
    failure: null,
    failure_code: null,
    rejected_url: '/api/imports/41/rejected/',
    created_at: '2026-03-05T14:07:00.000Z',
    finished_at: null,
    ...changes,
  };
}

const FILE = { file_name: 'march.csv', size: 2048 };
const NOT_CSV = { file_name: 'march.xlsx', size: 2048 };
const RUNNING = job('running', { processed: 120 });
const DONE = job('done', {
  processed: 300,
  read: 300,
  imported: 280,
  updated: 10,
  duplicates: 6,
  invalid: 4,
  errors: [{ line: 7, field: 'email', code: 'invalid', params: {}, message: 'Email is not valid' }],
  finished_at: '2026-03-05T14:07:09.000Z',
});
const FAILED = job('failed', { failure: 'The file has no email column', failure_code: 'failed' });
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: CsvUploadEvent[] = [
  { type: 'dialog.open' },
  { type: 'dialog.close' },
  { type: 'upload.fileChosen', file: NOT_CSV },
  { type: 'upload.fileChosen', file: FILE },
  { type: 'upload.start' },
  { type: 'upload.cancel' },
  { type: 'upload.again' },
  { type: 'upload.progress', loaded: 1024, total: 2048 },
  { type: 'upload.answered', job: RUNNING },
  { type: 'upload.answered', job: DONE },
  { type: 'upload.answered', job: FAILED },
  { type: 'upload.failed', error: SERVER_DOWN },
  { type: 'poll.due' },
  { type: 'xstate.done.actor.fetchJob', actorId: 'fetchJob', output: RUNNING },
  { type: 'xstate.done.actor.fetchJob', actorId: 'fetchJob', output: DONE },
  { type: 'xstate.done.actor.fetchJob', actorId: 'fetchJob', output: FAILED },
  { type: 'xstate.error.actor.fetchJob', actorId: 'fetchJob', error: SERVER_DOWN },
  { type: 'rejected.download' },
  { type: 'xstate.done.actor.downloadRejected', actorId: 'downloadRejected', output: null },
  { type: 'xstate.error.actor.downloadRejected', actorId: 'downloadRejected', error: SERVER_DOWN },
];

/** The upload stand-in: records its input and reports nothing (the path sends its reports). */
function pendingUpload(recording: Recording) {
  return fromCallback<EventObject, UploadRequest>(({ input }) => {
    recording.invoked.push({ src: 'uploadFile', input });
  });
}

const start = (recording: Recording) =>
  csvUploadMachine.provide({
    actors: {
      uploadFile: pendingUpload(recording),
      fetchJob: pendingActor('fetchJob', recording),
      downloadRejected: pendingActor('downloadRejected', recording),
    },
    // The path sends the poll event itself.
    delays: { pollDelay: 2 ** 30 },
  });

/** The model walks a subscriber upload. */
const INPUT = { kind: 'subscriber' as const };

const checks: StateChecks = {
  closed: (snapshot) => {
    expect(snapshot.context.file).toBeNull();
    expect(snapshot.context.job).toBeNull();
  },
  choosing: (snapshot) => {
    const { file, fileProblem } = snapshot.context;
    expect(snapshot.context.job).toBeNull();
    if (file === NOT_CSV) expect(fileProblem).toBe('notCsv');
    if (file === FILE) expect(fileProblem).toBeNull();
  },
  uploading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.filter((call) => call.src === 'uploadFile').at(-1)?.input).toEqual({
      kind: 'subscriber',
      file: FILE,
    });
    expect(uploadPercent(snapshot.context)).toBe(snapshot.context.sent === 1024 ? 50 : 0);
  },
  processing: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.job).toEqual(RUNNING);
  },
  'processing.fetching': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'fetchJob', input: RUNNING.id });
  },
  'processing.waiting': () => undefined,
  reporting: (snapshot, recording) => {
    expect(snapshot.context.job).toEqual(DONE);
    // Entering the report tells the screen the import finished, once.
    expect(recording.emitted.filter((event) => event.type === 'upload.completed')).toEqual([
      { type: 'upload.completed', job: DONE },
    ]);
  },
  'reporting.downloading': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'downloadRejected',
      input: { url: '/api/imports/41/rejected/', fileName: 'rejected-march.csv' },
    });
  },
  'reporting.idle': (snapshot) => {
    const { downloadProblem } = snapshot.context;
    if (downloadProblem) expect(downloadProblem.code).toBe('internal');
  },
  failed: (snapshot) => {
    const { job: failedJob, problem } = snapshot.context;
    // Either the server failed the job (its reason) or a call failed (the problem).
    expect(failedJob?.failure === 'The file has no email column' || problem?.code === 'internal').toBe(true);
  },
};

/** Runs a path on a real actor started with the input (the machine takes one), like replayPath. */
function replay(path: ModelPath): void {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), { input: INPUT });
  actor.on('*', (event) => recording.emitted.push(event));
  actor.start();
  try {
    for (const step of path.steps) {
      if (step.event.type !== 'xstate.init') actor.send(step.event as CsvUploadEvent);
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      const keys = Object.keys(checks).filter((key) => snapshot.matches(key));
      expect(keys, `no check gives ${JSON.stringify(snapshot.value)} a meaning`).not.toEqual([]);
      for (const key of keys) checks[key]!(snapshot, recording);
    }
  } catch (error) {
    if (error instanceof Error) error.message = `${describePath(path)}: ${error.message}`;
    throw error;
  } finally {
    actor.stop();
  }
}

const model = createTestModel(csvUploadMachine, { events: SAMPLES, input: INPUT });
const { transitions: paths } = everyTransition(csvUploadMachine, model);

describe('csv upload machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'choosing',
      'closed',
      'failed',
      'processing.fetching',
      'processing.waiting',
      'reporting.downloading',
      'reporting.idle',
      'uploading',
    ]);
  });

  it('refuses files that are not CSV, empty or too large before sending anything', () => {
    expect(fileProblemOf({ file_name: 'a.CSV', size: 10 })).toBeNull();
    expect(fileProblemOf({ file_name: 'a.txt', size: 10 })).toBe('notCsv');
    expect(fileProblemOf({ file_name: 'a.csv', size: 0 })).toBe('empty');
    expect(fileProblemOf({ file_name: 'a.csv', size: LIMITS.uploadMaxBytes + 1 })).toBe('tooLarge');
    const next = paths.filter((path) =>
      path.steps.some((step, index) => step.event.type === 'upload.start' && index > 0),
    );
    for (const path of next) {
      path.steps.forEach((step, index) => {
        if (step.event.type !== 'upload.start' || index === 0) return;
        const before = path.steps[index - 1]!.state.context as { file: unknown };
        if (step.state.matches('uploading')) expect(before.file).toEqual(FILE);
      });
    }
  });

  it('follows the job about every second until it is done (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = createActor(
      csvUploadMachine.provide({
        actors: {
          uploadFile: pendingUpload(recording),
          fetchJob: pendingActor('fetchJob', recording),
          downloadRejected: pendingActor('downloadRejected', recording),
        },
      }),
      { clock, input: { kind: 'guest' } },
    );
    const completed: unknown[] = [];
    actor.on('upload.completed', (event) => completed.push(event.job));
    actor.start();
    actor.send({ type: 'dialog.open' });
    actor.send({ type: 'upload.fileChosen', file: FILE });
    actor.send({ type: 'upload.start' });
    expect(recording.invoked).toEqual([{ src: 'uploadFile', input: { kind: 'guest', file: FILE } }]);
    actor.send({ type: 'upload.answered', job: RUNNING });
    const polls = () => recording.invoked.filter((call) => call.src === 'fetchJob').length;
    clock.increment(999);
    expect(polls()).toBe(0);
    clock.increment(1);
    expect(polls()).toBe(1);
    actor.send({ type: 'xstate.done.actor.fetchJob', actorId: 'fetchJob', output: RUNNING } as never);
    clock.increment(1000);
    expect(polls()).toBe(2);
    actor.send({ type: 'xstate.done.actor.fetchJob', actorId: 'fetchJob', output: DONE } as never);
    clock.increment(5000);
    expect(polls()).toBe(2);
    expect(actor.getSnapshot().matches({ reporting: 'idle' })).toBe(true);
    expect(completed).toEqual([DONE]);
    actor.stop();
  });

  it('stops following a job when cancelled (simulated clock)', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const clock = new SimulatedClock();
    const actor = createActor(start(recording).provide({ delays: { pollDelay: 1000 } }), {
      clock,
      input: INPUT,
    }).start();
    actor.send({ type: 'dialog.open' });
    actor.send({ type: 'upload.fileChosen', file: FILE });
    actor.send({ type: 'upload.start' });
    actor.send({ type: 'upload.answered', job: RUNNING });
    actor.send({ type: 'upload.cancel' });
    clock.increment(5000);
    expect(recording.invoked.filter((call) => call.src === 'fetchJob')).toEqual([]);
    expect(actor.getSnapshot().value).toBe('choosing');
    actor.stop();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replay(path);
    });
  }
});
