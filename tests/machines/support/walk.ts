import { appendFileSync } from 'node:fs';
import type { StatePath, TestModel } from '@xstate/graph';
import {
  type AnyStateMachine,
  type AnyStateNode,
  type EventFromLogic,
  initialTransition,
  type SnapshotFrom,
  transition,
  type AnyTransitionDefinition,
} from 'xstate';

/** A path of a machine's model: its steps and the snapshot it ends in. */
export type MachinePath<Machine extends AnyStateMachine> = StatePath<
  SnapshotFrom<Machine>,
  EventFromLogic<Machine>
>;

/** A test model of a machine, as createTestModel returns it. */
export type MachineModel<Machine extends AnyStateMachine> = TestModel<
  SnapshotFrom<Machine>,
  EventFromLogic<Machine>,
  unknown
>;

/** A state value as one comparable string. */
export function valueKey(snapshot: unknown): string {
  const { value } = snapshot as { value: unknown };
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Every transition of a model: the shortest path to each reachable model state, extended by each event
 * that state accepts from the model's event list. Walking them all takes every transition of every
 * reachable state, including the ones that return to the same state. A model state is a snapshot's value
 * and context, unless the model was given its own `serializeState`.
 *
 * One breadth-first pass finds both, each transition computed once. (The model's own getShortestPaths
 * also tells states apart by the event that entered them, which multiplies the states it explores
 * without adding one.)
 */
export function everyTransition<Machine extends AnyStateMachine>(
  machine: Machine,
  model: MachineModel<Machine>,
): { reached: MachinePath<Machine>[]; transitions: MachinePath<Machine>[] } {
  const eventsOf = model.options.events;
  // Without an event, createTestModel's serializer is the snapshot's value and context alone.
  const serialize = model.options.serializeState ?? ((snapshot) => JSON.stringify(snapshot));
  const keyOf = (snapshot: SnapshotFrom<Machine>) => serialize(snapshot, undefined, undefined);
  const { input } = model.options as { input?: unknown };
  const [initial] = initialTransition(machine as AnyStateMachine, input) as [SnapshotFrom<Machine>, unknown];
  const start: MachinePath<Machine> = {
    state: initial,
    steps: [{ state: initial, event: { type: 'xstate.init' } as EventFromLogic<Machine> }],
    weight: 0,
  };
  const reached = [start];
  const seen = new Set([keyOf(initial)]);
  const transitions: MachinePath<Machine>[] = [];
  // The list grows while it is read: each newly reached snapshot is extended in its turn.
  for (let index = 0; index < reached.length; index += 1) {
    const path = reached[index]!;
    const events = (typeof eventsOf === 'function' ? eventsOf(path.state) : eventsOf) ?? [];
    for (const event of events) {
      const [next] = transition(machine, path.state, event);
      const extended = {
        state: next,
        steps: [...path.steps, { state: next, event }],
        weight: path.weight + 1,
      };
      transitions.push(extended);
      const key = keyOf(next);
      if (seen.has(key)) continue;
      seen.add(key);
      reached.push(extended);
    }
  }
  // WALK_LOG=<file> appends the model's size, to find the models that grew (docs/platform.md, "Test suite speed").
  if (process.env.WALK_LOG) {
    const steps = transitions.reduce((total, path) => total + path.steps.length, 0);
    appendFileSync(
      process.env.WALK_LOG,
      `${machine.id}\t${reached.length} states\t${transitions.length} transitions\t${steps} steps\n`,
    );
  }
  return { reached, transitions };
}

/** Paths grouped by a key (e.g. the state value they leave from), in first-seen order. */
export function groupBy<Item>(items: readonly Item[], keyOf: (item: Item) => string): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const key = keyOf(item);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}

/** A transition the machine defines, named `source state id · event type · candidate number`. */
function transitionName(definition: AnyTransitionDefinition, index: number): string {
  return `${definition.source.id} · ${definition.eventType} · ${index}`;
}

/**
 * The transitions a machine defines (each guarded candidate of an event counts apart) that none of the
 * paths' last steps takes, as `state id · event · candidate`. The machine says which definitions an event
 * takes from a snapshot (`getTransitionData`), so a model whose states are coarser than the snapshots
 * (a `serializeState` that keeps only what guards and checks read) can show it still takes each one.
 */
export function untakenTransitions<Machine extends AnyStateMachine>(
  machine: Machine,
  paths: readonly MachinePath<Machine>[],
): string[] {
  const names = new Map<unknown, string>();
  const visit = (node: AnyStateNode): void => {
    for (const candidates of node.transitions.values())
      candidates.forEach((definition, index) => names.set(definition, transitionName(definition, index)));
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(machine.root);
  for (const path of paths) {
    const from = path.steps.at(-2)?.state;
    const last = path.steps.at(-1)!;
    if (!from) continue;
    for (const taken of machine.getTransitionData(from, last.event)) names.delete(taken);
  }
  return [...names.values()].sort();
}
