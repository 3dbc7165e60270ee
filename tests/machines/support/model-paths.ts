import type { StatePath } from '@xstate/graph';
import {
  createActor,
  fromPromise,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
} from 'xstate';
import { expect } from 'vitest';

/**
 * One path of a machine's model (from createTestModel, extended by `everyTransition` in ./walk.ts):
 * each step is an event and the state the model says it leads to, the first being `xstate.init`.
 */
export type ModelPath = StatePath<AnyMachineSnapshot, AnyEventObject>;

/** The state values the paths pass through, as dotted names (`creating.open`). */
export function reachedStates(paths: readonly StatePath<AnyMachineSnapshot, AnyEventObject>[]): string[] {
  const names = new Set<string>();
  const walk = (value: unknown, prefix: string): void => {
    if (typeof value === 'string') names.add(prefix ? `${prefix}.${value}` : value);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) walk(child, prefix ? `${prefix}.${key}` : key);
    }
  };
  for (const path of paths) for (const step of path.steps) walk(step.state.value, '');
  return [...names].sort();
}

/** A short name for a path: the events' types. */
export function describePath(path: ModelPath): string {
  const events = path.steps.slice(1).map((step) => step.event.type.replace(/^xstate\./, ''));
  return `${JSON.stringify(path.state.value)} via ${events.join(' → ') || '(start)'}`;
}

/** What the system under test did: actors it invoked (with their input) and events it emitted. */
export interface Recording {
  invoked: { src: string; input: unknown }[];
  emitted: AnyEventObject[];
}

/** A stand-in for a server actor: records its input and never settles (the path sends its outcome). */
export function pendingActor<Output, Input>(src: string, recording: Recording) {
  return fromPromise<Output, Input>(({ input }) => {
    recording.invoked.push({ src, input });
    return new Promise<Output>(() => undefined);
  });
}

/** The meaning of each state: checks keyed by state (`creating.open`), run on the real actor's snapshot. */
export type StateChecks = Record<string, (snapshot: AnyMachineSnapshot, recording: Recording) => void>;

/**
 * Runs a path on a real actor (the machine with stand-in actors, made by `start`): sends each event
 * and, after each one, runs every check whose key the actor's state matches. A state no check matches
 * fails: every state has a meaning. Answers what the actor invoked and emitted along the way.
 * A machine that takes input starts with `input` (the model's own, so both start alike).
 */
export function replayPath(
  path: ModelPath,
  start: (recording: Recording) => AnyStateMachine,
  checks: StateChecks,
  input?: unknown,
): Recording {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), input === undefined ? {} : { input });
  actor.on('*', (event) => recording.emitted.push(event));
  actor.start();
  try {
    // The model computed the paths with the same machine, so only the checks can tell a wrong state apart.
    for (const step of path.steps) {
      if (step.event.type !== 'xstate.init') actor.send(step.event);
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
  return recording;
}
