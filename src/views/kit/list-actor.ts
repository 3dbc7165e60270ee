import type { AnyActorRef } from 'xstate';
import type { ListCommand, ListContext, ListStateValue, NoFilters } from '../../machines/kit/list-machine.js';

/** What the kit's views read of a list machine's snapshot. */
export interface ListSnapshot<Item, Form extends object, Created = unknown> {
  context: ListContext<Item, Form, object, Created>;
  matches(state: ListStateValue | 'listing' | 'creating' | 'editing' | 'deleting'): boolean;
  hasTag(tag: 'busy'): boolean;
}

/**
 * A running list machine, as the kit's views see it: its snapshot, typed by the items and the dialog's
 * form (and what its create call answers, when a view shows it), and the commands a view sends. Any
 * screen's list actor fits, whatever its filters and calls.
 */
// Method syntax on purpose: methods compare their parameters both ways, so a screen's actor (which
// takes more events and carries its own machine types) fits.
export interface ListActor<Item, Form extends object = object, Created = unknown> extends Pick<
  AnyActorRef,
  'subscribe' | 'sessionId'
> {
  getSnapshot(): ListSnapshot<Item, Form, Created>;
  send(command: ListCommand<Item, Form, NoFilters>): void;
}
