import type { AnyStateMachine } from 'xstate';
import { replayLog, type ReplayEntry, type ReplayStep } from './replay.js';

// Pure helpers of the replay screen: each step's state and context, and the context diff between two steps.

/** One replayed step as the screen shows it: the step, its actor's context after it, its actor's step before. */
export interface TimelineStep extends ReplayStep {
  /** Its place in the timeline (0-based). */
  index: number;
  /** The actor's context after the event, as plain data; null when the actor could not be replayed. */
  context: unknown;
  /** The index of the same actor's previous step, or null for its first one. */
  previous: number | null;
}

/** An actor the replay could not run, and why. */
export interface BrokenActor {
  actor: string;
  machine: string;
  reason: string;
}

/**
 * A whole replay: every step with its snapshot, the actors in order of appearance and the actors that could
 * not be replayed. A class, not a plain object, on purpose: the event log records class instances as
 * `[object]`, so delivering a replay to the screen's machine does not copy every snapshot into the log.
 */
export class ReplayTimeline {
  constructor(
    readonly steps: readonly TimelineStep[],
    readonly actors: readonly string[],
    readonly broken: readonly BrokenActor[],
  ) {}
}

/** A value as plain JSON-like data: actor references become `[ref id]`, functions `[function]`, cycles `[circular]`. */
export function plain(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === undefined) return undefined;
  if (typeof value === 'function') return '[function]';
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => plain(item, seen) ?? null);
    const record = value as Record<string, unknown>;
    if (typeof record.send === 'function' && typeof record.getSnapshot === 'function') {
      const id =
        typeof record.id === 'string'
          ? record.id
          : typeof record.sessionId === 'string'
            ? record.sessionId
            : '';
      return `[ref ${id}]`;
    }
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(record)) {
      const converted = plain(field, seen);
      if (converted !== undefined) copy[key] = converted;
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}

/** Replays a log with `machines` and keeps each step's context: what the replay screen shows. */
export function buildTimeline(
  entries: readonly ReplayEntry[],
  machines: Readonly<Record<string, AnyStateMachine>>,
): ReplayTimeline {
  const steps: TimelineStep[] = [];
  const lastOf = new Map<string, number>();
  const actors: string[] = [];
  const broken = new Map<string, BrokenActor>();
  replayLog(entries, machines, {
    onStep: (step, actor) => {
      const index = steps.length;
      if (!lastOf.has(step.actor) && !actors.includes(step.actor)) actors.push(step.actor);
      if (!actor && step.skipped) {
        broken.set(step.actor, { actor: step.actor, machine: step.machine, reason: step.skipped });
      }
      steps.push({
        ...step,
        index,
        context: actor ? (plain(actor.getSnapshot().context) ?? null) : null,
        previous: lastOf.get(step.actor) ?? null,
      });
      lastOf.set(step.actor, index);
    },
  });
  return new ReplayTimeline(steps, actors, [...broken.values()]);
}

/** The indices of the steps shown: all of them, or one actor's. */
export function visibleIndices(timeline: ReplayTimeline, actor: string | null): number[] {
  const steps = actor === null ? timeline.steps : timeline.steps.filter((step) => step.actor === actor);
  return steps.map((step) => step.index);
}

/** One difference between two contexts: a dotted path, what happened to it, its value before and after. */
export interface ContextChange {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object';
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The paths where `after` differs from `before`, in key order: objects and arrays are compared field by
 * field (arrays by index), anything else as a whole. Two containers of different kinds are one change.
 */
export function diffContext(before: unknown, after: unknown, path = ''): ContextChange[] {
  if (same(before, after)) return [];
  const bothContainers =
    isContainer(before) && isContainer(after) && Array.isArray(before) === Array.isArray(after);
  if (!bothContainers) return [{ path: path || '(context)', kind: 'changed', before, after }];
  const changes: ContextChange[] = [];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  for (const key of keys) {
    const child = path ? `${path}.${key}` : key;
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(after, key);
    const was = (before as Record<string, unknown>)[key];
    const is = (after as Record<string, unknown>)[key];
    if (!had) changes.push({ path: child, kind: 'added', after: is });
    else if (!has) changes.push({ path: child, kind: 'removed', before: was });
    else changes.push(...diffContext(was, is, child));
  }
  return changes;
}

/** The context changes of one step against the same actor's previous step (all added for its first step). */
export function stepChanges(timeline: ReplayTimeline, index: number): ContextChange[] {
  const step = timeline.steps[index];
  if (!step || step.context === null) return [];
  const previous = step.previous === null ? null : timeline.steps[step.previous];
  return diffContext(previous?.context ?? {}, step.context);
}

/** A value as compact one-line JSON (`undefined` for nothing), cut to `max` characters. */
export function compactJson(value: unknown, max = 160): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? typeof value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
