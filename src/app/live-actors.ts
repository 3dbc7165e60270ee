import { Observable } from 'rxjs';
import type { AnyActorRef } from 'xstate';

/** One running root actor the app created, named as the event log names it. */
export interface LiveActor {
  /** `<machineId>#<n>`, the id its events carry in the event log. */
  id: string;
  /** The machine's id (`auth`, `navigation`, …), or 'actor' for other logic. */
  machineId: string;
  actor: AnyActorRef;
}

type Listener = (actors: readonly LiveActor[]) => void;

/**
 * The root actors the app created and has not stopped (src/app/actors.ts adds and removes them), for the
 * machine visualiser. Answers a new array whenever the set changes, so React can compare by identity.
 */
export class LiveActorRegistry {
  private actors: readonly LiveActor[] = [];
  private readonly listeners = new Set<Listener>();

  /** The live actors now, oldest first. */
  list(): readonly LiveActor[] {
    return this.actors;
  }

  /** Adds an actor (again, if it was removed); adding one already listed changes nothing. */
  add(entry: LiveActor): void {
    if (this.actors.some((known) => known.actor === entry.actor)) return;
    this.actors = [...this.actors, entry];
    this.emit();
  }

  /** Removes an actor once it is stopped. */
  remove(actor: AnyActorRef): void {
    if (!this.actors.some((known) => known.actor === actor)) return;
    this.actors = this.actors.filter((known) => known.actor !== actor);
    this.emit();
  }

  /** Calls the listener on every change (not now); answers the function that stops it. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The live actors now and after every change. */
  changes(): Observable<readonly LiveActor[]> {
    return new Observable((subscriber) => {
      subscriber.next(this.actors);
      return this.subscribe((actors) => subscriber.next(actors));
    });
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener(this.actors);
  }
}

/** The page's live root actors. */
export const liveActors = new LiveActorRegistry();
