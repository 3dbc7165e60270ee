import { getShortestPaths } from '@xstate/graph';
import {
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateNode,
  type AnyStateMachine,
  createMachine,
  type EventObject,
  type StateValue,
} from 'xstate';
import { stateValueText } from './graph.js';

/** One reachable state and the shortest sequence of events that reaches it from the start. */
export interface ReachablePath {
  /** Event types in order (empty for the initial state); a step that needs a guard to hold names it: `save [isValid]`. */
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

/** The field of a sample event that says how the walk decides the machine's guards for that step. */
const GUARDS = 'walk.guards';

/**
 * How a step decides named guards: `real` runs them, `none` takes every one as failing, `all` as holding,
 * any other text takes that one guard as holding and the others as failing.
 */
type GuardMode = string;

/** A sample event as the walk sends it: the event and how its step decides guards. */
type WalkEvent = EventObject & { [GUARDS]?: GuardMode };

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

/** A transition config without its actions (a target, a guard and `reenter` stay). */
function bareTransition(config: unknown): unknown {
  if (Array.isArray(config)) return config.map(bareTransition);
  if (config && typeof config === 'object') {
    const { actions: _actions, ...rest } = config as Record<string, unknown>;
    return rest;
  }
  return config;
}

/** A state config without entry, exit or transition actions, its children likewise. */
function bareState(config: Record<string, unknown>): Record<string, unknown> {
  const { entry: _entry, exit: _exit, invoke: _invoke, ...rest } = config;
  const bare: Record<string, unknown> = { ...rest };
  for (const key of ['on', 'after'] as const) {
    const transitions = config[key] as Record<string, unknown> | undefined;
    if (transitions)
      bare[key] = Object.fromEntries(
        Object.entries(transitions).map(([event, transition]) => [event, bareTransition(transition)]),
      );
  }
  if (config.always !== undefined) bare.always = bareTransition(config.always);
  if (config.onDone !== undefined) bare.onDone = bareTransition(config.onDone);
  const states = config.states as Record<string, Record<string, unknown>> | undefined;
  if (states)
    bare.states = Object.fromEntries(Object.entries(states).map(([key, state]) => [key, bareState(state)]));
  return bare;
}

/**
 * A walker over the machine: each step runs the machine itself and, when its actions cannot handle a
 * sample payload (an answer's missing output, a draft a schema rejects), takes the same transition on the
 * machine's bare structure (no actions, context kept), so a state is reached even when the sample data
 * could not have been processed. Guards are decided as the step's event says (see GuardMode).
 */
function walker(machine: AnyStateMachine): AnyStateMachine {
  let mode: GuardMode = 'real';
  const real = machine.implementations.guards as Record<string, unknown>;
  // Each named guard answers as the current step decides; `real` runs it, and a throw counts as failing.
  // Guards combined with and/or/not are left as they are: they read their parts, which are these.
  const plain = Object.entries(real).filter(
    ([, guard]) => typeof guard === 'function' && !('check' in guard),
  );
  const guards = Object.fromEntries(
    plain.map(([name, guard]) => [
      name,
      (...args: unknown[]) => {
        if (mode === 'none') return false;
        if (mode === 'all') return true;
        if (mode !== 'real') return mode === name;
        try {
          return Boolean((guard as (...a: unknown[]) => unknown)(...args));
        } catch {
          return false;
        }
      },
    ]),
  );
  const full = machine.provide({ guards: guards as never });
  const bare: AnyStateMachine = createMachine(bareState(machine.config as Record<string, unknown>) as never, {
    guards: guards as never,
  });
  const wrapped = Object.create(full) as AnyStateMachine;
  wrapped.transition = (snapshot, event, scope) => {
    mode = (event as WalkEvent)[GUARDS] ?? 'real';
    try {
      const next = full.transition(snapshot, event, scope);
      // An action that threw on the sample stops the machine with an error; take the bare step instead.
      if (next.status === 'error') throw next.error;
      return next;
    } catch {
      try {
        const state: AnyMachineSnapshot = snapshot;
        const from: AnyMachineSnapshot = bare.resolveState({
          value: state.value as StateValue,
          context: state.context as never,
        });
        const next: AnyMachineSnapshot = bare.transition(from, event, scope as never);
        return full.resolveState({ value: next.value as StateValue, context: next.context as never });
      } catch {
        return snapshot;
      }
    } finally {
      mode = 'real';
    }
  };
  return wrapped;
}

/** The guard names a machine declares, in order. */
function guardNamesOf(machine: AnyStateMachine): string[] {
  return Object.entries(machine.implementations.guards)
    .filter(([, guard]) => typeof guard === 'function' && !('check' in guard))
    .map(([name]) => name)
    .sort();
}

/**
 * The events the walk sends: each sample as it is (guards run), then, when the machine has guards, each
 * sample with every guard failing, every guard holding, and each guard alone holding, so a transition
 * behind a guard the sample data cannot satisfy is still walked.
 */
function walkEvents(samples: readonly EventObject[], guardNames: readonly string[]): WalkEvent[] {
  if (guardNames.length === 0) return [...samples];
  const modes: GuardMode[] = ['none', ...guardNames, 'all'];
  return [...samples, ...modes.flatMap((mode) => samples.map((sample) => ({ ...sample, [GUARDS]: mode })))];
}

/** A step as the list shows it: its type, and the guard that had to hold when the walk decided one. */
function stepText(event: WalkEvent): string {
  const mode = event[GUARDS];
  return mode && mode !== 'none' && mode !== 'all' ? `${event.type} [${mode}]` : event.type;
}

/**
 * The shortest path to each reachable state value, computed by `@xstate/graph` with one sample event per
 * event type (`{ type }`, or the samples given, for events whose guards or actions read a payload). States
 * are told apart by value only, so nested and parallel values each count once and the walk stays small.
 * Guards depend on data a sample does not have, so each guarded transition is walked both as taken and as
 * not taken (a step that needed one guard names it). A machine that cannot start (an input it needs) or
 * has more than PATH_STATE_LIMIT states answers `computed: false` with the reason.
 */
export function reachablePaths(
  machine: AnyStateMachine,
  options: { input?: unknown; samples?: Readonly<Record<string, readonly AnyEventObject[]>> } = {},
): PathsResult {
  const samples: EventObject[] = eventTypesOf(machine).flatMap(
    (type) => options.samples?.[type] ?? [sampleEvent(type)],
  );
  try {
    const events = walkEvents(samples, guardNamesOf(machine));
    const paths = getShortestPaths(walker(machine), {
      // Only the events some active state handles: the others would leave the state as it is.
      events: (state) => {
        const handled = new Set(
          ((state as { _nodes?: readonly AnyStateNode[] })._nodes ?? []).flatMap(
            (node): string[] => node.ownEvents as string[],
          ),
        );
        return events.filter((event) => handled.has(event.type));
      },
      input: options.input,
      // The graph counts every step it tries, not states: allow each state all of its events.
      limit: PATH_STATE_LIMIT * Math.max(1, events.length),
      serializeState: (state) =>
        JSON.stringify([(state as { status?: string }).status, (state as { value: unknown }).value]),
    });
    const failed = paths.find((path) => (path.state as { status?: string }).status === 'error');
    if (failed && failed.steps.length <= 1) {
      const error = (failed.state as { error?: unknown }).error;
      return { computed: false, paths: [], reason: error instanceof Error ? error.message : String(error) };
    }
    const found = paths
      // A machine that stopped on an error is not in a state of its chart.
      .filter((path) => (path.state as { status?: string }).status !== 'error')
      .map((path) => ({
        events: path.steps
          .map((step) => step.event as WalkEvent)
          .filter((event) => event.type !== 'xstate.init')
          .map(stepText),
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
