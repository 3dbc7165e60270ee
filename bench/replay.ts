import { type AnyStateMachine, initialTransition, transition } from 'xstate';
import { MACHINES } from '../src/machines/registry.js';
import { replayLog, stubbedMachine, type ReplayEntry } from '../src/replay/replay.js';
import { printFigure, round } from './support.js';

/** A synthetic captured session: support-menu sends, password forms and staff searches, `size` entries. */
export function syntheticLog(size: number): ReplayEntry[] {
  const entries: ReplayEntry[] = [];
  let at = 1_700_000_000_000;
  const push = (actor: string, machine: string, event: ReplayEntry['event'], source?: string) => {
    at += 17;
    entries.push({ seq: entries.length + 1, at, actor, machine, ...(source ? { source } : {}), event });
  };
  for (let round = 1; entries.length < size; round++) {
    const support = `supportLog#${round}`;
    const password = `passwordChange#${round}`;
    const hijack = `hijack#${round}`;
    push(support, 'supportLog', { type: 'xstate.init' });
    push(password, 'passwordChange', { type: 'xstate.init' });
    push(hijack, 'hijack', { type: 'xstate.init' });
    for (let i = 0; i < 10; i++) {
      push(support, 'supportLog', { type: 'log.send' });
      push(
        support,
        'supportLog',
        { type: 'xstate.done.actor.sendLog', output: { id: i } },
        `${support}/sendLog`,
      );
      push(password, 'passwordChange', {
        type: 'field.change',
        field: 'current_password',
        value: '[redacted]',
      });
      push(password, 'passwordChange', { type: 'password.submit' });
      push(hijack, 'hijack', { type: 'xstate.done.actor.searchUsers', output: [] }, `${hijack}/searchUsers`);
      push(hijack, 'hijack', { type: 'search.change', query: 'sha256:0123456789abcdef' });
      push(hijack, 'hijack', { type: 'search.settled' }, hijack);
      push(support, 'supportLog', { type: 'notice.dismiss' });
    }
  }
  return entries.slice(0, size);
}

/** The same events through XState's pure `transition` per actor: no actors, clock or log bookkeeping. */
function pureTransitions(entries: readonly ReplayEntry[]): number {
  const machines = new Map<string, AnyStateMachine>();
  const snapshots = new Map<string, unknown>();
  for (const entry of entries) {
    let machine = machines.get(entry.actor);
    if (!machine) {
      machine = stubbedMachine(MACHINES[entry.machine]!);
      machines.set(entry.actor, machine);
      snapshots.set(entry.actor, initialTransition(machine, undefined)[0]);
      continue;
    }
    const [next] = transition(machine, snapshots.get(entry.actor) as never, entry.event);
    snapshots.set(entry.actor, next);
  }
  return snapshots.size;
}

/** Seconds a function takes, best of `runs` after one warm-up run. */
function bestSeconds(run: () => unknown, runs: number): number {
  run();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    run();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e9);
  }
  return best;
}

/** Replay throughput (events per second) beside the pure-transition baseline on the same log. */
export function benchReplay(options: { entries: number; runs: number }): void {
  const log = syntheticLog(options.entries);
  const replay = bestSeconds(() => replayLog(log, MACHINES), options.runs);
  const baseline = bestSeconds(() => pureTransitions(log), options.runs);
  printFigure({
    bench: 'replay.throughput',
    replay_events_per_s: round(log.length / replay, 0),
    transition_events_per_s: round(log.length / baseline, 0),
    ratio: round(baseline / replay, 3),
    entries: log.length,
    runs: options.runs,
  });
}
