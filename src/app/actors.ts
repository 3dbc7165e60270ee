import { useActorRef } from '@xstate/react';
import { useEffect, useState } from 'react';
import {
  type Actor,
  type ActorOptions,
  type AnyActorLogic,
  type AnyActorRef,
  createActor,
  type InspectionEvent,
  StateMachine,
} from 'xstate';
import { type EventLog, eventLog } from '../services/event-log.js';
import { liveActors } from './live-actors.js';

// The ONE way the app creates actors: every actor system gets the event-log tap, so every event delivered
// to every machine actor (roots, spawned machines) is appended, redacted, to the page's event log.

/** Options of an app actor: XState's, plus the log to feed (the page's log by default). */
export type AppActorOptions<Logic extends AnyActorLogic> = ActorOptions<Logic> & { log?: EventLog };

/**
 * The last actor-system number given per log. Each system counts its actors from x:0, so roots are
 * numbered; numbering continues after the log's restored entries so ids stay unique across reloads.
 */
const systemNumbers = new WeakMap<EventLog, number>();

function nextSystemNumber(log: EventLog): number {
  const last =
    systemNumbers.get(log) ??
    Math.max(0, ...log.snapshot().map((entry) => Number(/#(\d+)/.exec(entry.actor)?.[1] ?? 0)));
  systemNumbers.set(log, last + 1);
  return last + 1;
}

/** The id logs and replay use for a logic: the machine's id, or 'actor' for other logic. */
export function machineIdOf(logic: unknown): string | null {
  return logic instanceof StateMachine ? logic.id : null;
}

/**
 * XState's `inspect` callback that appends every `@xstate.event` delivered to a machine actor of one actor
 * system to the log. The root is named `<machine id>#<n>` (n counts systems in the log); actors inside
 * it `<root>/<systemId or sessionId>`. The sender, when an actor, is named the same way.
 */
export function eventLogInspector(logic: AnyActorLogic, log: EventLog = eventLog) {
  const root = `${machineIdOf(logic) ?? 'actor'}#${nextSystemNumber(log)}`;
  const nameOf = (ref: AnyActorRef, rootId: string) =>
    ref.sessionId === rootId ? root : `${root}/${(ref as { systemId?: string }).systemId ?? ref.sessionId}`;
  const inspector = (inspection: InspectionEvent): void => {
    if (inspection.type !== '@xstate.event') return;
    const target = inspection.actorRef as AnyActorRef;
    const machine = machineIdOf((target as Partial<Actor<AnyActorLogic>>).logic);
    if (machine === null) return;
    const source = inspection.sourceRef as AnyActorRef | undefined;
    log.append({
      actor: nameOf(target, inspection.rootId),
      machine,
      ...(source ? { source: nameOf(source, inspection.rootId) } : {}),
      event: inspection.event,
    });
  };
  /** The root's id in the log (`<machine id>#<n>`). */
  return Object.assign(inspector, { rootId: root });
}

/** Combines the event-log tap with an inspector the caller passed (dev tools, tests). */
function withTap<Logic extends AnyActorLogic>(
  logic: Logic,
  options: AppActorOptions<Logic> | undefined,
): { options: ActorOptions<Logic>; rootId: string } {
  const { log, inspect, ...rest } = options ?? {};
  const tap = eventLogInspector(logic, log);
  const other: ((event: InspectionEvent) => void) | undefined =
    typeof inspect === 'function' ? inspect : inspect ? (event) => inspect.next?.(event) : undefined;
  return {
    rootId: tap.rootId,
    options: {
      ...(rest as ActorOptions<Logic>),
      inspect: (event: InspectionEvent) => {
        tap(event);
        other?.(event);
      },
    },
  };
}

/** The live-actor entry of a root actor (src/app/live-actors.ts). */
function liveEntry(rootId: string, logic: AnyActorLogic, actor: AnyActorRef) {
  return { id: rootId, machineId: machineIdOf(logic) ?? 'actor', actor };
}

/** Creates an actor (not started) whose every machine event goes to the event log: use instead of createActor. */
export function createAppActor<Logic extends AnyActorLogic>(
  logic: Logic,
  options?: AppActorOptions<Logic>,
): Actor<Logic> {
  const tapped = withTap(logic, options);
  const actor = createActor(logic, tapped.options);
  // Listed as live from its start until it stops (the visualiser shows it).
  const start = actor.start.bind(actor);
  actor.start = () => {
    liveActors.add(liveEntry(tapped.rootId, logic, actor));
    return start();
  };
  const remove = () => liveActors.remove(actor);
  actor.subscribe({ complete: remove, error: remove });
  const stop = actor.stop.bind(actor);
  actor.stop = () => {
    remove();
    return stop();
  };
  return actor;
}

/**
 * A component's actor, started with the component and stopped with it, whose every machine event goes to
 * the event log: use instead of useActorRef.
 */
export function useAppActor<Logic extends AnyActorLogic>(
  logic: Logic,
  options?: AppActorOptions<Logic>,
): Actor<Logic> {
  // Built once per component: useActorRef reads its options only when it creates the actor.
  const [tapped] = useState(() => withTap(logic, options));
  const actor = useActorRef(logic, tapped.options);
  // Live while the component is mounted (the visualiser lists it).
  useEffect(() => {
    liveActors.add(liveEntry(tapped.rootId, logic, actor));
    return () => liveActors.remove(actor);
  }, [actor, logic, tapped]);
  return actor;
}
