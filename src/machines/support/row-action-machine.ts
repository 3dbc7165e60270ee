import {
  assign,
  type DoneActorEvent,
  emit,
  type ErrorActorEvent,
  type EventObject,
  type PromiseActorLogic,
  setup,
} from 'xstate';
import { requestIn } from '../kit/request.js';
import { problemOf, type ApiProblem } from './api-problem.js';
import { placeholder } from './placeholder.js';

/** What a row-action machine knows: the request under way (or the one that failed) and its problem. */
export interface RowActionContext<Request> {
  request: Request | null;
  problem: ApiProblem | null;
}

/** How one list screen's row action is named and what it carries; each machine keeps its own names. */
export interface RowActionDefinition<
  Request,
  Output,
  Command extends EventObject,
  Emitted extends EventObject,
  Src extends string,
> {
  /** The machine's id (the registry and the visualiser list it by this). */
  id: string;
  /** The event a row's button sends (`flow.act`, `campaign.duplicate`). */
  command: Command['type'];
  /** The state that waits for the call (`acting`, `duplicating`). */
  busyState: string;
  /** The call's actor, provided by the wiring (`actOnFlow`, `duplicateCampaign`). */
  src: Src;
  /** The call's input, read from the row's command. */
  requestOf: (command: Command) => Request;
  /** What the machine emits once the call is done, for the list to reload and name the record. */
  announce: (request: Request | null, output: Output) => Emitted;
}

/** Every event a row-action machine handles: its command, `problem.dismiss`, and the call's answer. */
export type RowActionEvent<Command extends EventObject, Output, Src extends string> =
  Command | { type: 'problem.dismiss' } | DoneActorEvent<Output, Src> | ErrorActorEvent<unknown, Src>;

/**
 * A list row's one-call action as a machine: `idle` → the busy state (the call) → `idle`, emitting the
 * definition's announcement when it is done, or keeping the problem to show until `problem.dismiss`; one
 * action at a time. Flows' duplicate/pause/resume and campaigns' duplicate are this machine with their own
 * id, command, state and actor names.
 */
export function createRowActionMachine<
  Request,
  Output,
  Command extends EventObject,
  Emitted extends EventObject,
  Src extends string,
>(definition: RowActionDefinition<Request, Output, Command, Emitted, Src>) {
  const { id, command, busyState, src, requestOf, announce } = definition;
  const actors = { [src]: placeholder<Output, Request>() } as Record<Src, PromiseActorLogic<Output, Request>>;
  const rowSetup = setup({
    types: {
      context: {} as RowActionContext<Request>,
      events: {} as RowActionEvent<Command, Output, Src>,
      emitted: {} as Emitted,
    },
    actors,
    actions: {
      pick: assign((_, request: Request) => ({ request, problem: null })),
      keepProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
      clear: assign({ request: null, problem: null }),
      announce: emit(({ context }, output: Output) => announce(context.request, output)),
    },
  });
  const request = requestIn(rowSetup);
  // The names are the definition's, so the config is typed by the setup only where TypeScript can follow.
  const busy = request(src as never, {
    // Entered only with a request picked.
    input: ({ context }: { context: RowActionContext<Request> }) => context.request,
    done: {
      target: 'idle',
      actions: [
        { type: 'announce', params: ({ event }: { event: { output: Output } }) => event.output },
        'clear',
      ],
    } as never,
    error: {
      target: 'idle',
      actions: { type: 'keepProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
    } as never,
  });
  return rowSetup.createMachine({
    id,
    context: { request: null, problem: null },
    initial: 'idle',
    states: {
      idle: {
        on: {
          [command]: {
            target: busyState,
            actions: { type: 'pick', params: ({ event }: { event: Command }) => requestOf(event) },
          },
          'problem.dismiss': { actions: 'clear' },
        } as never,
      },
      [busyState]: { tags: ['busy'], ...busy },
    },
  });
}
