import {
  type Actor,
  type AnyActorLogic,
  type AnyStateMachine,
  createActor,
  createEmptyActor,
  fromPromise,
  SimulatedClock,
} from 'xstate';
import { EventLogEntrySchema, type EventLogEntryWire } from '../schemas/support.js';

// Pure replay: no Node or browser APIs, so the CLI (scripts/replay.ts) and a replay screen share it.

/** A logged entry, as replay reads it. */
export type ReplayEntry = EventLogEntryWire;

/** A JSON Lines log that could not be read: which line and why. */
export class LogParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'LogParseError';
  }
}

/** The entries of a JSON Lines log (blank lines skipped); a bad line throws a LogParseError naming it. */
export function parseJsonLines(text: string): ReplayEntry[] {
  const entries: ReplayEntry[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new LogParseError(index + 1, 'not valid JSON');
    }
    const parsed = EventLogEntrySchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new LogParseError(
        index + 1,
        `${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    entries.push(parsed.data);
  });
  return entries;
}

/** The state of one actor after one logged event. */
export interface ReplayStep {
  seq: number;
  at: number;
  actor: string;
  machine: string;
  event: string;
  /** The state value, or a note when the event was not fed (skipped). */
  value: unknown;
  status: string;
  /** Why the event was not sent: the clock replayed it, or the actor cannot be replayed. */
  skipped?: string;
}

/** Where one actor ended. */
export interface ReplayFinal {
  actor: string;
  machine: string;
  value: unknown;
  status: string;
  context: unknown;
}

/** What a replay produced: each step and each actor's final state, in the order actors first appeared. */
export interface ReplayResult {
  steps: ReplayStep[];
  finals: ReplayFinal[];
}

/** A placeholder actor's stand-in: it never settles, so the log's recorded done/error events drive the machine. */
const pending = fromPromise(() => new Promise<never>(() => undefined));

/** The machine with every actor it may start replaced by a stand-in that never settles. */
export function stubbedMachine(machine: AnyStateMachine): AnyStateMachine {
  const names = Object.keys(machine.implementations.actors);
  const actors = Object.fromEntries(names.map((name) => [name, pending]));
  return (machine.provide as (implementations: { actors: Record<string, AnyActorLogic> }) => AnyStateMachine)(
    { actors },
  );
}

/** Turns the log's actor references (`[ref …]`, as redaction writes them) into an actor that ignores events. */
function withSinkRefs(value: unknown): unknown {
  if (typeof value === 'string' && /^\[ref .*\]$/.test(value)) return createEmptyActor();
  if (Array.isArray(value)) return value.map(withSinkRefs);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withSinkRefs(field)]));
  }
  return value;
}

/** Options of a replay: what to do after each step (a screen records snapshots, the CLI prints). */
export interface ReplayOptions {
  onStep?: (step: ReplayStep, actor: Actor<AnyStateMachine> | null) => void;
}

interface Replayed {
  machine: string;
  actor: Actor<AnyStateMachine> | null;
  /** Why it cannot be replayed (unknown machine, its start fell out of the bounded log). */
  broken?: string;
}

/**
 * Feeds a log through the app's machines: for each actor id, its machine from `machines` with every actor
 * it starts stubbed, on one simulated clock set to each entry's `at` before the entry (which replays the
 * actors' own delayed events; logged ones the actor sent itself are therefore not sent again). Each actor
 * is created by its logged `xstate.init` (with the logged input). The same log always gives the same result.
 */
export function replayLog(
  entries: readonly ReplayEntry[],
  machines: Readonly<Record<string, AnyStateMachine>>,
  options: ReplayOptions = {},
): ReplayResult {
  const clock = new SimulatedClock();
  const actors = new Map<string, Replayed>();
  const steps: ReplayStep[] = [];
  const sorted = [...entries].sort((a, b) => a.seq - b.seq);
  for (const entry of sorted) {
    if (entry.at > clock.now()) clock.set(entry.at);
    let replayed = actors.get(entry.actor);
    // A second start under the same id (a log from before ids were unique per reload) begins a new actor.
    if (replayed && entry.event.type === 'xstate.init') replayed.actor?.stop();
    if (!replayed || entry.event.type === 'xstate.init') replayed = start(entry, machines, clock);
    actors.set(entry.actor, replayed);
    const base = {
      seq: entry.seq,
      at: entry.at,
      actor: entry.actor,
      machine: entry.machine,
      event: entry.event.type,
    };
    let skipped: string | undefined = replayed.broken;
    if (!skipped && entry.event.type !== 'xstate.init') {
      if (entry.source === entry.actor) skipped = 'replayed by the clock';
      else replayed.actor?.send(entry.event);
    }
    const snapshot = replayed.actor?.getSnapshot();
    const step: ReplayStep = {
      ...base,
      value: snapshot?.value ?? null,
      status: snapshot?.status ?? 'missing',
      ...(skipped ? { skipped } : {}),
    };
    steps.push(step);
    options.onStep?.(step, replayed.actor);
  }
  const finals = [...actors].map(([actor, replayed]): ReplayFinal => {
    const snapshot = replayed.actor?.getSnapshot();
    return {
      actor,
      machine: replayed.machine,
      value: snapshot?.value ?? null,
      status: snapshot?.status ?? (replayed.broken ? `not replayed: ${replayed.broken}` : 'missing'),
      context: snapshot?.context ?? null,
    };
  });
  for (const replayed of actors.values()) replayed.actor?.stop();
  return { steps, finals };
}

function start(
  entry: ReplayEntry,
  machines: Readonly<Record<string, AnyStateMachine>>,
  clock: SimulatedClock,
): Replayed {
  const machine = machines[entry.machine];
  if (!machine) return { machine: entry.machine, actor: null, broken: `unknown machine '${entry.machine}'` };
  // A bounded log may have dropped the actor's start: its input (and early events) are gone.
  if (entry.event.type !== 'xstate.init') {
    return { machine: entry.machine, actor: null, broken: 'its start is no longer in the log' };
  }
  try {
    const actor = createActor(stubbedMachine(machine), { input: withSinkRefs(entry.event.input), clock });
    // An error inside the machine shows as its status; replay carries on with the other actors.
    actor.subscribe({ error: () => undefined });
    actor.start();
    return { machine: entry.machine, actor };
  } catch (error) {
    return {
      machine: entry.machine,
      actor: null,
      broken: error instanceof Error ? error.message : String(error),
    };
  }
}

/** A state value as one short text: `idle`, `signedIn.ready`, or JSON for parallel states. */
export function stateText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1) return `${keys[0]}.${stateText((value as Record<string, unknown>)[keys[0]!])}`;
  }
  return JSON.stringify(value);
}

/** The replay as lines of text: one per step (`#seq actor (machine) event → state`), then the final states. */
export function formatReplay(result: ReplayResult): string[] {
  const lines = result.steps.map(
    (step) =>
      `#${step.seq} ${step.actor} (${step.machine}) ${step.event} → ${stateText(step.value)}` +
      (step.status === 'active' ? '' : ` [${step.status}]`) +
      (step.skipped ? ` (not sent: ${step.skipped})` : ''),
  );
  lines.push('final states:');
  for (const final of result.finals) {
    lines.push(`${final.actor} (${final.machine}) ${stateText(final.value)} [${final.status}]`);
  }
  return lines;
}
