import { spawnChild, stopChild } from 'xstate';

// A machine's types live in its `setup(...)`; these read them back from `createStateConfig`, whose
// parameter is the machine's state config (context, events, actors, actions, guards all applied).
type StateConfigOf<TSetup> = TSetup extends { createStateConfig: (config: infer TConfig) => unknown }
  ? TConfig
  : never;
type FieldOf<T, K extends string> = T extends { [key in K]?: infer V } ? NonNullable<V> : never;
type TransitionsOf<TSetup> = FieldOf<StateConfigOf<TSetup>, 'on'>;
type TransitionOf<TSetup, TType extends string> = TransitionsOf<TSetup>[TType & keyof TransitionsOf<TSetup>];
// `invoke`'s config is a union over the setup's actors, each with its own input type.
type InputOf<TSetup, TSrc extends string> =
  Extract<FieldOf<StateConfigOf<TSetup>, 'invoke'>, { src: TSrc }> extends { input?: infer TInput }
    ? TInput
    : never;

/** How a state makes one request, typed by the machine: the input its actor takes, and what the answer does. */
export interface RequestOptions<TSetup, TSrc extends string> {
  /** The actor's input: a value, or a function of `{ context, event }` called when the state is entered. */
  input?: InputOf<TSetup, TSrc>;
  /** Where the answer goes: a transition whose `event.output` is the actor's output. */
  done: TransitionOf<TSetup, `xstate.done.actor.${TSrc}`>;
  /** Where the failure goes: a transition whose `event.error` is what the actor threw. */
  error: TransitionOf<TSetup, `xstate.error.actor.${TSrc}`>;
  /** The state's other transitions, if it has any (a request state owns the state's `on`). */
  on?: TransitionsOf<TSetup>;
}

// One action, not a list: a state with its own entry or exit work lists the request's beside it.
type SingleActionOf<TActions> = Exclude<TActions, readonly unknown[]>;

/** What a request adds to a state: it starts the actor on entry, stops it on exit, and routes its outcome. */
export interface RequestStateParts<TSetup> {
  entry: SingleActionOf<FieldOf<StateConfigOf<TSetup>, 'entry'>>;
  exit: SingleActionOf<FieldOf<StateConfigOf<TSetup>, 'exit'>>;
  on: TransitionsOf<TSetup>;
}

/**
 * The one way a machine makes a request: `const request = requestIn(machineSetup)` once per machine, then
 * spread `...request('saveThing', { input, done, error })` into the state that waits for the answer. The
 * actor starts on entry and stops on exit (leaving the state drops the answer), and its answer or failure
 * takes the `done` or `error` transition, checked against the machine's own types: the input against the
 * actor's input, `event.output` against its output, and action names against the setup's.
 *
 * This is what `invoke` does. It is written with `spawnChild` because @xstate/graph's createTestModel
 * refuses `invoke`; the events are the same (`xstate.done.actor.<src>`, `xstate.error.actor.<src>`), so
 * model tests send them and replays reproduce them. The machine's event union lists them
 * (`DoneActorEvent<Output, 'saveThing'> | ErrorActorEvent<unknown, 'saveThing'>`).
 */
export function requestIn<TSetup>(
  _machineSetup: TSetup,
): <TSrc extends string>(src: TSrc, options: RequestOptions<TSetup, TSrc>) => RequestStateParts<TSetup> {
  return (src, options) =>
    ({
      entry: spawnChild(src, { id: src, input: options.input as never }),
      exit: stopChild(src),
      on: {
        ...options.on,
        [`xstate.done.actor.${src}`]: options.done,
        [`xstate.error.actor.${src}`]: options.error,
      },
    }) as never;
}
