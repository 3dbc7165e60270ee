import { createTestModel } from '@xstate/graph';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import {
  exportFileName,
  exportShare,
  SEGMENT_EXPORTS_POLL_MS,
  segmentExportsMachine,
  type SegmentExportsEvent,
} from '../../src/machines/segment-exports.machine.js';
import type { SegmentExport, SegmentExportPage } from '../../src/schemas/segment-exports.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const BASE: SegmentExport = {
  id: 4,
  segment_id: 7,
  segment_name: 'Big spenders',
  status: 'running',
  rows_written: 100,
  total: 400,
  failure: null,
  created_at: '2026-11-26T10:00:00.000Z',
  finished_at: null,
  download_url: null,
  expires_at: '2026-12-03T10:00:00.000Z',
};
const RUNNING = BASE;
const DONE: SegmentExport = {
  ...BASE,
  status: 'done',
  rows_written: 400,
  finished_at: '2026-11-26T10:01:00.000Z',
  download_url: '/api/campaigns/segment-exports/4/download/',
};
const STARTED: SegmentExport = { ...BASE, id: 9, status: 'queued', rows_written: 0 };
const page = (results: SegmentExport[]): SegmentExportPage => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: SegmentExportsEvent[] = [
  { type: 'xstate.done.actor.loadExports', actorId: 'loadExports', output: page([RUNNING]) },
  { type: 'xstate.done.actor.loadExports', actorId: 'loadExports', output: page([DONE]) },
  { type: 'xstate.error.actor.loadExports', actorId: 'loadExports', error: SERVER_DOWN },
  { type: 'poll.due' },
  { type: 'exports.refresh' },
  { type: 'export.start', segmentId: 7 },
  { type: 'xstate.done.actor.startExport', actorId: 'startExport', output: STARTED },
  { type: 'xstate.error.actor.startExport', actorId: 'startExport', error: SERVER_DOWN },
  { type: 'export.download', item: DONE },
  { type: 'export.download', item: RUNNING },
  { type: 'xstate.done.actor.downloadExport', actorId: 'downloadExport', output: undefined },
  { type: 'xstate.error.actor.downloadExport', actorId: 'downloadExport', error: SERVER_DOWN },
  { type: 'notice.dismiss' },
];

const start = (recording: Recording) =>
  segmentExportsMachine.provide({
    actors: {
      loadExports: pendingActor('loadExports', recording),
      startExport: pendingActor('startExport', recording),
      downloadExport: pendingActor('downloadExport', recording),
    },
  });

const lastCall = (recording: Recording, src: string) =>
  recording.invoked.filter((call) => call.src === src).at(-1);

const checks: StateChecks = {
  'list.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(lastCall(recording, 'loadExports')).toBeDefined();
  },
  'list.waiting': (snapshot) => {
    // Looks again only while something still changes.
    expect(snapshot.hasTag('polling')).toBe(true);
    expect(snapshot.context.exports.some((item: SegmentExport) => item.status === 'running')).toBe(true);
    expect(snapshot.context.problem).toBeNull();
  },
  'list.idle': (snapshot) => {
    expect(snapshot.hasTag('polling')).toBe(false);
    expect(snapshot.context.loaded).toBe(true);
    expect(snapshot.context.exports).toEqual([DONE]);
  },
  'list.failed': (snapshot) => {
    expect(snapshot.context.problem?.code).toBe('internal');
  },
  'actions.ready': (snapshot) => {
    expect(snapshot.context.startingSegment).toBeNull();
    expect(snapshot.context.downloading).toBeNull();
    const { notice, noticeProblem } = snapshot.context;
    expect([null, 'started', 'startFailed', 'downloadFailed']).toContain(notice);
    // A failure's notice carries its problem; the others none.
    expect(noticeProblem?.code ?? null).toBe(
      notice === 'startFailed' || notice === 'downloadFailed' ? 'internal' : null,
    );
    expect(snapshot.hasTag('starting') || snapshot.hasTag('downloading')).toBe(false);
  },
  'actions.starting': (snapshot, recording) => {
    expect(snapshot.context.startingSegment).toBe(7);
    expect(lastCall(recording, 'startExport')?.input).toBe(7);
    expect(snapshot.context.notice).toBeNull();
  },
  'actions.downloading': (snapshot, recording) => {
    // Only a finished export is downloaded, saved under its segment's name.
    expect(lastCall(recording, 'downloadExport')?.input).toEqual({ id: 4, fileName: 'Big-spenders-4.csv' });
    expect(snapshot.context.downloading).toEqual({ id: 4, fileName: 'Big-spenders-4.csv' });
  },
};

const model = createTestModel(segmentExportsMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(segmentExportsMachine, model);

describe('segment exports machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'actions.downloading',
      'actions.ready',
      'actions.starting',
      'list.failed',
      'list.idle',
      'list.loading',
      'list.waiting',
    ]);
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`takes each of the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }

  it('looks at the list again after the pause while an export runs, and stops once none does', () => {
    vi.useFakeTimers();
    try {
      const recording: Recording = { invoked: [], emitted: [] };
      const actor = createActor(start(recording)).start();
      actor.send({ type: 'xstate.done.actor.loadExports', actorId: 'loadExports', output: page([RUNNING]) });
      expect(recording.invoked.filter((call) => call.src === 'loadExports')).toHaveLength(1);
      vi.advanceTimersByTime(SEGMENT_EXPORTS_POLL_MS);
      expect(recording.invoked.filter((call) => call.src === 'loadExports')).toHaveLength(2);
      actor.send({ type: 'xstate.done.actor.loadExports', actorId: 'loadExports', output: page([DONE]) });
      vi.advanceTimersByTime(SEGMENT_EXPORTS_POLL_MS * 5);
      expect(recording.invoked.filter((call) => call.src === 'loadExports')).toHaveLength(2);
      expect((actor.getSnapshot() as AnyMachineSnapshot).matches({ list: 'idle' })).toBe(true);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('looks again when an export starts, even with a look under way', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording)).start();
    actor.send({ type: 'export.start', segmentId: 7 });
    actor.send({ type: 'xstate.done.actor.startExport', actorId: 'startExport', output: STARTED });
    expect(recording.invoked.filter((call) => call.src === 'loadExports')).toHaveLength(2);
    expect((actor.getSnapshot() as AnyMachineSnapshot).context.exports).toEqual([STARTED]);
    actor.stop();
  });

  it('measures progress against the cached size', () => {
    expect(exportShare(RUNNING)).toBe(25);
    expect(exportShare(DONE)).toBe(100);
    expect(exportShare({ ...RUNNING, total: null })).toBeNull();
    expect(exportShare({ ...RUNNING, total: 0 })).toBeNull();
    expect(exportFileName({ ...DONE, segment_name: '  ¡Olé! VIP / 2026 ' })).toBe('Olé-VIP-2026-4.csv');
  });
});
