import { createTestModel } from '@xstate/graph';
import { createActor, fromCallback, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  exportPercent,
  segmentDashboardMachine,
  type SegmentDashboardEvent,
  type SegmentExportRequest,
} from '../../src/machines/segment-dashboard.machine.js';
import type { SegmentDashboardV2 } from '../../src/schemas/segment-dashboard.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { zeroCache } from './support/segment-fixtures.js';
import { everyTransition } from './support/walk.js';

const ZERO_CACHE = zeroCache(7);

/** A dashboard of 400 cached members (the export's total). */
const READY: SegmentDashboardV2 = {
  segment: { id: 7, name: 'Regulars' },
  segmentcache: { ...ZERO_CACHE, id: 3, all_customers: 400, computed_at: '2026-11-26T10:00:00.000Z' },
  computing: false,
  distributions: {
    members: 400,
    visits: [{ min: 0, max: 0, count: 400 }],
    spend: [{ min: 0, max: 0, count: 400 }],
    locations: [],
  },
};
/** The same segment while its figures are being computed: no total for the export. */
const COMPUTING: SegmentDashboardV2 = { ...READY, segmentcache: ZERO_CACHE, computing: true };
const AT_HOME = { location_id: [3], location_group_id: [] };
const EVERYWHERE = { location_id: [], location_group_id: [] };
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: SegmentDashboardEvent[] = [
  { type: 'xstate.done.actor.loadDashboard', actorId: 'loadDashboard', output: READY },
  { type: 'xstate.done.actor.loadDashboard', actorId: 'loadDashboard', output: COMPUTING },
  { type: 'xstate.error.actor.loadDashboard', actorId: 'loadDashboard', error: SERVER_DOWN },
  { type: 'dashboard.retry' },
  { type: 'dashboard.reload' },
  { type: 'filter.change', filter: AT_HOME },
  { type: 'export.start' },
  { type: 'export.progress', rows: 100 },
  { type: 'export.saved', rows: 400 },
  { type: 'export.failed', error: SERVER_DOWN },
  { type: 'export.cancel' },
  { type: 'export.dismiss' },
];

/** The export stand-in: records its input and reports nothing (the path sends its reports). */
function pendingExport(recording: Recording) {
  return fromCallback<EventObject, SegmentExportRequest>(({ input }) => {
    recording.invoked.push({ src: 'exportCsv', input });
  });
}

const start = (recording: Recording) =>
  segmentDashboardMachine.provide({
    actors: { loadDashboard: pendingActor('loadDashboard', recording), exportCsv: pendingExport(recording) },
  });

const INPUT = { segmentId: 7, filter: EVERYWHERE };

const checks: StateChecks = {
  'figures.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // Each load asks for the segment with the filter chosen last.
    expect(recording.invoked.filter((call) => call.src === 'loadDashboard').at(-1)?.input).toEqual({
      segmentId: 7,
      filter: snapshot.context.filter,
    });
  },
  'figures.ready': (snapshot) => {
    expect([READY, COMPUTING]).toContain(snapshot.context.dashboard);
    expect(snapshot.context.problem).toBeNull();
  },
  'figures.failed': (snapshot) => {
    expect(snapshot.context.problem?.code).toBe('internal');
  },
  'export.idle': (snapshot) => {
    expect(snapshot.context.exportRows).toBe(0);
    expect(snapshot.context.exportProblem).toBeNull();
  },
  'export.exporting': (snapshot, recording) => {
    // Only a known dashboard starts an export, and the file is named after the segment.
    expect(snapshot.context.dashboard).not.toBeNull();
    expect(recording.invoked.filter((call) => call.src === 'exportCsv').at(-1)?.input).toEqual({
      segmentId: 7,
      fileName: 'segment-7.csv',
    });
    const rows = snapshot.context.exportRows;
    expect([0, 100]).toContain(rows);
    // 100 of the 400 cached members is 25 %; while computing there is no total to compare with.
    expect(exportPercent(snapshot.context)).toBe(
      snapshot.context.dashboard!.computing ? null : rows === 100 ? 25 : 0,
    );
  },
  'export.saved': (snapshot) => {
    expect(snapshot.context.exportRows).toBe(400);
  },
  'export.failed': (snapshot) => {
    expect(snapshot.context.exportProblem?.code).toBe('internal');
  },
};

const model = createTestModel(segmentDashboardMachine, { events: SAMPLES, input: INPUT });
const { transitions: paths } = everyTransition(segmentDashboardMachine, model);

describe('segment dashboard machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'export.exporting',
      'export.failed',
      'export.idle',
      'export.saved',
      'figures.failed',
      'figures.loading',
      'figures.ready',
    ]);
  });

  it('gives every state of every transition its meaning on a real actor', () => {
    for (const path of paths) replayPath(path, start, checks, INPUT);
  });

  it('never starts an export before the dashboard is known', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording), { input: INPUT }).start();
    actor.send({ type: 'export.start' });
    expect((actor.getSnapshot() as AnyMachineSnapshot).matches({ export: 'idle' })).toBe(true);
    expect(recording.invoked.map((call) => call.src)).toEqual(['loadDashboard']);
    actor.stop();
  });

  it('keeps the export running while the picker loads the figures again, and stops it on cancel', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    let stopped = 0;
    const actor = createActor(
      segmentDashboardMachine.provide({
        actors: {
          loadDashboard: pendingActor('loadDashboard', recording),
          exportCsv: fromCallback<EventObject, SegmentExportRequest>(() => () => {
            stopped += 1;
          }),
        },
      }),
      { input: INPUT },
    ).start();
    actor.send({ type: 'xstate.done.actor.loadDashboard', actorId: 'loadDashboard', output: READY } as never);
    actor.send({ type: 'export.start' });
    actor.send({ type: 'filter.change', filter: AT_HOME });
    const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
    expect(snapshot.matches({ figures: 'loading', export: 'exporting' })).toBe(true);
    expect(stopped).toBe(0);
    actor.send({ type: 'export.cancel' });
    expect(stopped).toBe(1);
    expect((actor.getSnapshot() as AnyMachineSnapshot).matches({ export: 'idle' })).toBe(true);
    actor.stop();
  });
});
