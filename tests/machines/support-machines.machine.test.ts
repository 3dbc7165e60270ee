import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { type AnyMachineSnapshot, createActor } from 'xstate';
import {
  type ChartBoxes,
  supportMachinesMachine,
  type SupportMachinesEvent,
} from '../../src/machines/support-machines.machine.js';
import {
  describePath,
  type ModelPath,
  pendingActor,
  reachedStates,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const FIRST = 'accountSettings';
const INPUT = { machineId: FIRST };
const BOXES: ChartBoxes = {
  'auth.loadingConfig': { x: 12, y: 40, width: 150, height: 48 },
  'auth.failed': { x: 200, y: 40, width: 120, height: 48 },
};

const SAMPLES: SupportMachinesEvent[] = [
  { type: 'machine.select', machineId: 'auth' },
  // Choosing the machine already shown keeps its layout and the actor followed.
  { type: 'machine.select', machineId: FIRST },
  { type: 'actor.follow', actorId: 'auth#3' },
  { type: 'xstate.done.actor.layOutChart', actorId: 'layOutChart', output: BOXES },
  {
    type: 'xstate.error.actor.layOutChart',
    actorId: 'layOutChart',
    error: new Error('ELK ran out of memory'),
  },
];

/** The machine with a layout that records its input and never settles (the path sends its outcome). */
const start = (recording: Recording) =>
  supportMachinesMachine.provide({ actors: { layOutChart: pendingActor('layOutChart', recording) } });

const checks: StateChecks = {
  layingOut: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context).toMatchObject({ boxes: null, layoutError: null });
    // The layout under way is the shown machine's.
    expect(recording.invoked.at(-1)).toEqual({
      src: 'layOutChart',
      input: { machineId: snapshot.context.machineId },
    });
  },
  laidOut: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context).toMatchObject({ boxes: BOXES, layoutError: null });
  },
  layoutFailed: (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context).toMatchObject({ boxes: null, layoutError: 'ELK ran out of memory' });
  },
};

/**
 * Runs a path on a real actor started with the screen's input: after each event the actor is where the
 * model says, the state's checks hold, and the layout child lives exactly while laying out.
 */
function replay(path: ModelPath): Recording {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), { input: INPUT });
  actor.start();
  try {
    for (const step of path.steps) {
      if (step.event.type !== 'xstate.init') actor.send(step.event as SupportMachinesEvent);
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      expect(snapshot.value).toEqual(step.state.value);
      expect(snapshot.context).toEqual(step.state.context);
      expect(Object.keys(snapshot.children)).toEqual(snapshot.matches('layingOut') ? ['layOutChart'] : []);
      checks[String(snapshot.value)]!(snapshot, recording);
    }
  } catch (error) {
    if (error instanceof Error) error.message = `${describePath(path)}: ${error.message}`;
    throw error;
  } finally {
    actor.stop();
  }
  return recording;
}

const model = createTestModel(supportMachinesMachine, { events: SAMPLES, input: INPUT });
const { transitions: paths } = everyTransition(supportMachinesMachine, model);

describe('support machines screen machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['laidOut', 'layingOut', 'layoutFailed']);
  });

  it('lays out once at the start and once per other machine chosen, never again for the same one', () => {
    for (const path of paths) {
      const recording = replay(path);
      const shown = path.steps.map((step) => (step.state.context as { machineId: string }).machineId);
      const changes = shown.filter((id, index) => index > 0 && id !== shown[index - 1]).length;
      expect(recording.invoked).toHaveLength(1 + changes);
    }
  });

  it('forgets the followed actor and the old layout when another machine is chosen', () => {
    for (const path of paths) {
      const last = path.steps.at(-1)!;
      const before = path.steps.at(-2);
      if (last.event.type !== 'machine.select' || !before) continue;
      const changed = last.event.machineId !== (before.state.context as { machineId: string }).machineId;
      if (changed) {
        expect(last.state.matches('layingOut')).toBe(true);
        expect(last.state.context).toEqual({
          machineId: last.event.machineId,
          followedId: null,
          boxes: null,
          layoutError: null,
        });
      } else {
        expect(last.state.value).toEqual(before.state.value);
        expect(last.state.context).toEqual(before.state.context);
      }
    }
  });

  it('follows the chosen live actor in every state, keeping the layout', () => {
    const follows = paths.filter((path) => path.steps.at(-1)?.event.type === 'actor.follow');
    expect(follows.length).toBeGreaterThan(0);
    for (const path of follows) {
      const before = path.steps.at(-2)!.state;
      expect(path.state.value).toEqual(before.value);
      expect(path.state.context).toEqual({ ...before.context, followedId: 'auth#3' });
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`takes each of the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replay(path);
    });
  }
});
