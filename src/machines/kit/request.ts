import { spawnChild, stopChild } from 'xstate';

/** What a request state does with the answer or the failure: a transition, as XState writes one. */
export type RequestOutcome = string | Record<string, unknown> | readonly Record<string, unknown>[];

/** How a state makes one request. */
export interface RequestOptions {
  /** The request's input: a value, or a function of `{ context, event }` called when the state is entered. */
  input?: unknown;
  /** Where the answer goes (its output is `event.output`). */
  done: RequestOutcome;
  /** Where the failure goes (its error is `event.error`). */
  error: RequestOutcome;
}

/**
 * The part of a state node that makes one request while the machine is in that state: the actor
 * `src` starts on entry and stops on exit (so leaving the state drops the answer), and its answer or
 * failure takes the `done` or `error` transition.
 *
 * This is what `invoke` does. It is written with `spawnChild` because @xstate/graph's createTestModel
 * refuses `invoke`; the events are the same (`xstate.done.actor.<src>`, `xstate.error.actor.<src>`),
 * so model tests send them and replays reproduce them. Spread it into a state:
 * `saving: { tags: ['busy'], ...request('createItem', { input, done: '#list.loading', error: 'open' }) }`.
 */
export function request(src: string, options: RequestOptions): RequestStateParts {
  return {
    entry: spawnChild(src, { id: src, input: options.input as never }),
    exit: stopChild(src),
    on: {
      [`xstate.done.actor.${src}`]: options.done,
      [`xstate.error.actor.${src}`]: options.error,
    },
  } as never;
}

/**
 * What `request` adds to a state, typed to fit any machine's state config: the machine's own types
 * cannot reach a helper outside its setup, so the outcomes' actions name their event types themselves.
 */
export interface RequestStateParts {
  entry: never;
  exit: never;
  on: Record<string, never>;
}
