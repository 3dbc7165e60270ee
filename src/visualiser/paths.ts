import { getShortestPaths } from '@xstate/graph';
import type { AnyEventObject, AnyStateMachine, EventObject } from 'xstate';
import { stateValueText } from './graph.js';

/** One reachable state and the shortest sequence of events that reaches it from the start. */
export interface ReachablePath {
  /** Event types in order (empty for the initial state). */
  events: readonly string[];
  /** The state reached, as text (`signedIn.ready`). */
  state: string;
}

/** The reachable paths of a machine, or why they could not be computed. */
export type PathsResult =
  | { computed: true; paths: readonly ReachablePath[] }
  | { computed: false; paths: readonly []; reason: string };

/** At most this many distinct states are walked; a machine with more is reported, not walked for ever. */
export const PATH_STATE_LIMIT = 500;

/**
 * Every event type a machine handles anywhere, sorted: its own events and the done/error events of the
 * actors it starts (`xstate.done.actor.<id>`), not its timers or wildcards.
 */
export function eventTypesOf(machine: AnyStateMachine): string[] {
  return [...new Set(machine.events as readonly string[])]
    .filter(
      (type) =>
        type !== '' &&
        !type.includes('*') &&
        (!type.startsWith('xstate.') || /^xstate\.(done|error)\.actor\./.test(type)),
    )
    .sort();
}

/** The sample event of a type: done events carry no output, error events an Error. */
function sampleEvent(type: string): EventObject {
  if (type.startsWith('xstate.error.actor.')) return { type, error: new Error('sample') } as EventObject;
  if (type.startsWith('xstate.done.actor.')) return { type, output: undefined } as EventObject;
  return { type };
}

/**
 * The machine, except that an event its guards or actions cannot handle with a sample payload leaves the
 * state as it is instead of ending the walk.
 */
function tolerant(machine: AnyStateMachine): AnyStateMachine {
  const wrapped = Object.create(machine) as AnyStateMachine;
  wrapped.transition = (snapshot, event, scope) => {
    try {
      return machine.transition(snapshot, event, scope);
    } catch {
      return snapshot;
    }
  };
  return wrapped;
}

/**
 * The shortest path to each reachable state value, computed by `@xstate/graph` with one sample event per
 * event type (`{ type }`, or the samples given, for events whose guards or actions read a payload); states
 * are told apart by value only, so the walk stays small, and an event a sample cannot drive is skipped. A
 * machine that cannot start (an input it needs) or has more than PATH_STATE_LIMIT states answers
 * `computed: false` with the reason.
 */
export function reachablePaths(
  machine: AnyStateMachine,
  options: { input?: unknown; samples?: Readonly<Record<string, readonly AnyEventObject[]>> } = {},
): PathsResult {
  const events: EventObject[] = eventTypesOf(machine).flatMap(
    (type) => options.samples?.[type] ?? [sampleEvent(type)],
  );
  try {
    const paths = getShortestPaths(tolerant(machine), {
      events,
      input: options.input,
      limit: PATH_STATE_LIMIT,
      serializeState: (state) => JSON.stringify((state as { value: unknown }).value),
    });
    const failed = paths.find((path) => (path.state as { status?: string }).status === 'error');
    if (failed && paths.length === 1) {
      const error = (failed.state as { error?: unknown }).error;
      return { computed: false, paths: [], reason: error instanceof Error ? error.message : String(error) };
    }
    const found = paths.map((path) => ({
      events: path.steps
        .map((step) => (step.event as EventObject).type)
        .filter((type) => type !== 'xstate.init'),
      state: stateValueText((path.state as { value: unknown }).value),
    }));
    found.sort((a, b) => a.events.length - b.events.length || a.state.localeCompare(b.state));
    return { computed: true, paths: found };
  } catch (error) {
    return {
      computed: false,
      paths: [],
      reason: error instanceof Error ? error.message : String(error),
    };
  }
}
