import type { AnyStateMachine, AnyStateNode, StateValue } from 'xstate';

// Pure: a machine's definition (its StateNode tree) as the nodes and edges a statechart drawing needs.

/** The kind of a state node, as XState names it. */
export type StateKind = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

/** One state of a machine (the root included), in the order a depth-first walk meets them. */
export interface ChartNode {
  /** The state's id, e.g. `auth.signedIn.ready` (the root's id is the machine's id). */
  id: string;
  /** The state's own key, e.g. `ready` (the root's is the machine id). */
  key: string;
  /** The parent state's id, or null for the root. */
  parentId: string | null;
  kind: StateKind;
  /** 0 for the root. */
  depth: number;
  /** True when its parent enters it first (a region of a parallel state counts as initial). */
  initial: boolean;
  /** True when its parent is parallel: it is one of the parent's regions. */
  region: boolean;
  tags: readonly string[];
  /** Events the state handles without leaving (no target), with their guards: `navbar.toggle`. */
  internal: readonly string[];
}

/** How a transition is taken. */
export type EdgeKind = 'event' | 'always' | 'after';

/** One transition from a state to a target (a transition with several targets gives several edges). */
export interface ChartEdge {
  id: string;
  source: string;
  target: string;
  kind: EdgeKind;
  /** The event type (`route.changed`), '' for `always`, the delay in ms (as text) for `after`. */
  event: string;
  /** The guard's name, or null. */
  guard: string | null;
  /** What the drawing shows: `event [guard]`, `always [guard]`, `after 500 ms`. */
  label: string;
}

/** A machine's statechart. */
export interface MachineChart {
  machineId: string;
  nodes: readonly ChartNode[];
  edges: readonly ChartEdge[];
}

/** A guard as the drawing names it: `isRoot`, `!isRoot`, `a && b`, or 'guard' for an unnamed function. */
export function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') return guard.type;
  if (typeof guard === 'function') {
    const combined = guard as { guards?: unknown[]; name?: string };
    const parts = Array.isArray(combined.guards)
      ? combined.guards.map((part) => guardName(part) ?? '?')
      : null;
    if (parts && combined.name === 'and') return parts.join(' && ');
    if (parts && combined.name === 'or') return parts.join(' || ');
    if (parts && combined.name === 'not') return `!${parts[0] ?? '?'}`;
    return combined.name && combined.name !== 'guard' ? combined.name : 'guard';
  }
  return 'guard';
}

/** The text of a transition's label. */
export function edgeLabel(kind: EdgeKind, event: string, guard: string | null): string {
  const base = kind === 'always' ? 'always' : kind === 'after' ? `after ${event} ms` : event;
  return guard ? `${base} [${guard}]` : base;
}

interface TransitionLike {
  eventType: string;
  guard?: unknown;
  target?: readonly AnyStateNode[] | undefined;
  delay?: number | string;
}

/** The kind and event of a transition from its event type (delayed ones are `xstate.after.<delay>.<id>`). */
function classify(transition: TransitionLike): { kind: EdgeKind; event: string } {
  if (transition.eventType === '') return { kind: 'always', event: '' };
  const delayed = /^xstate\.after\.([^.]+)\./.exec(transition.eventType);
  if (delayed) return { kind: 'after', event: String(transition.delay ?? delayed[1]) };
  return { kind: 'event', event: transition.eventType };
}

/** Every transition defined on a state: its events, its delayed and its eventless ones. */
function transitionsOf(node: AnyStateNode): TransitionLike[] {
  const all: TransitionLike[] = [];
  for (const list of node.transitions.values()) all.push(...(list as TransitionLike[]));
  for (const transition of node.always ?? []) all.push(transition as TransitionLike);
  const seen = new Set(all);
  // Delayed transitions are part of `transitions` under their xstate.after.* type; `after` adds the delay.
  for (const delayed of node.after as TransitionLike[]) {
    const same = all.find((candidate) => candidate.eventType === delayed.eventType);
    if (same) same.delay = delayed.delay;
    else if (!seen.has(delayed)) all.push(delayed);
  }
  return all;
}

/** The machine's states as nodes (the root first, parents before children) and its transitions as edges. */
export function machineChart(machine: AnyStateMachine): MachineChart {
  const nodes: ChartNode[] = [];
  const edges: ChartEdge[] = [];
  const visit = (node: AnyStateNode, parent: AnyStateNode | null, depth: number) => {
    const initialTargets = parent?.initial?.target ?? [];
    const internal: string[] = [];
    for (const transition of transitionsOf(node)) {
      const { kind, event } = classify(transition);
      const guard = guardName(transition.guard);
      const targets = transition.target ?? [];
      if (targets.length === 0) {
        internal.push(edgeLabel(kind, event, guard));
        continue;
      }
      for (const target of targets) {
        edges.push({
          id: `${node.id}:${edges.length}`,
          source: node.id,
          target: target.id,
          kind,
          event,
          guard,
          label: edgeLabel(kind, event, guard),
        });
      }
    }
    nodes.push({
      id: node.id,
      key: node.key,
      parentId: parent?.id ?? null,
      kind: node.type,
      depth,
      initial: parent !== null && (parent.type === 'parallel' || initialTargets.includes(node)),
      region: parent?.type === 'parallel',
      tags: [...node.tags],
      internal,
    });
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child, node, depth + 1);
  };
  visit(machine.root, null, 0);
  return { machineId: machine.id, nodes, edges };
}

/** The number of states a machine has, its root not counted. */
export function stateCount(machine: AnyStateMachine): number {
  return machineChart(machine).nodes.length - 1;
}

/**
 * The ids of the states a state value is in (every ancestor of each active leaf, the root included), for
 * highlighting: `{ signedIn: 'ready' }` of `auth` → `auth`, `auth.signedIn`, `auth.signedIn.ready`.
 */
export function activeStateIds(machine: AnyStateMachine, value: StateValue): string[] {
  const ids = [machine.root.id];
  const walk = (prefix: string, current: StateValue) => {
    if (typeof current === 'string') {
      ids.push(`${prefix}.${current}`);
      return;
    }
    for (const [key, child] of Object.entries(current)) {
      ids.push(`${prefix}.${key}`);
      if (child !== undefined) walk(`${prefix}.${key}`, child);
    }
  };
  walk(machine.root.id, value);
  return ids;
}

/** A state value as one short text: `idle`, `signedIn.ready`, or `{"a":"x","b":"y"}` for parallel states. */
export function stateValueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1)
      return `${keys[0]}.${stateValueText((value as Record<string, unknown>)[keys[0] ?? ''])}`;
  }
  return JSON.stringify(value);
}

/** The transitions between one pair of states, drawn as one arrow. */
export interface MergedEdge {
  id: string;
  source: string;
  target: string;
  /** `event` when any of them waits for an event; `always`/`after` arrows are drawn dashed. */
  kind: EdgeKind;
  /** Its label: the transitions' labels, those of one event sharing it (`always [isRoot | isUnknown]`). */
  label: string;
  edges: readonly ChartEdge[];
}

/** The chart's edges merged per pair of states, so parallel arrows and their labels do not overlap. */
export function mergedEdges(chart: MachineChart): MergedEdge[] {
  const pairs = new Map<string, ChartEdge[]>();
  for (const edge of chart.edges) {
    const key = `${edge.source}->${edge.target}`;
    pairs.set(key, [...(pairs.get(key) ?? []), edge]);
  }
  return [...pairs.values()].map((edges) => {
    const byBase = new Map<string, (string | null)[]>();
    for (const edge of edges) {
      const base = edgeLabel(edge.kind, edge.event, null);
      byBase.set(base, [...(byBase.get(base) ?? []), edge.guard]);
    }
    const label = [...byBase.entries()]
      .map(([base, guards]) => {
        const named = guards.filter((guard): guard is string => guard !== null);
        const parts = [
          ...(guards.includes(null) ? [base] : []),
          ...(named.length > 0 ? [`${base} [${named.join(' | ')}]`] : []),
        ];
        return parts.join(' | ');
      })
      .join(' | ');
    const first = edges[0]!;
    return {
      id: first.id,
      source: first.source,
      target: first.target,
      kind: edges.some((edge) => edge.kind === 'event') ? 'event' : first.kind,
      label,
      edges,
    };
  });
}
