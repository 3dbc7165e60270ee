import type { StatePath, TestModel } from '@xstate/graph';
import { type AnyStateMachine, type EventFromLogic, type SnapshotFrom, transition } from 'xstate';

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
 * Every transition of a model: the shortest path to each reachable snapshot (value and context), extended
 * by each event that snapshot accepts from the model's event list. Walking them all takes every
 * transition of every reachable state, including the ones that return to the same state.
 */
export function everyTransition<Machine extends AnyStateMachine>(
  machine: Machine,
  model: MachineModel<Machine>,
): { reached: MachinePath<Machine>[]; transitions: MachinePath<Machine>[] } {
  const reached: MachinePath<Machine>[] = [];
  const seen = new Set<string>();
  for (const path of model.getShortestPaths({ allowDuplicatePaths: true })) {
    const { value, context } = path.state as { value: unknown; context: unknown };
    const key = JSON.stringify({ value, context });
    if (seen.has(key)) continue;
    seen.add(key);
    reached.push(path);
  }
  const eventsOf = model.options.events;
  const transitions = reached.flatMap((path) => {
    const events = (typeof eventsOf === 'function' ? eventsOf(path.state) : eventsOf) ?? [];
    return events.map((event): MachinePath<Machine> => {
      const [next] = transition(machine, path.state, event);
      return { state: next, steps: [...path.steps, { state: next, event }], weight: path.weight + 1 };
    });
  });
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
