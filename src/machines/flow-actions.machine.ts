import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import type { Flow, FlowSummary } from '../schemas/flows.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** What a row's button asks of a flow: a copy (named by the view), or a pause or resume. */
export type FlowActionRequest =
  | { action: 'duplicate'; flow: FlowSummary; name: string }
  | { action: 'pause' | 'resume'; flow: FlowSummary };

/** What the flow list sends besides the list's own commands. */
export type FlowActionsCommand = ({ type: 'flow.act' } & FlowActionRequest) | { type: 'problem.dismiss' };

/** Everything the flow actions machine handles. */
export type FlowActionsEvent =
  FlowActionsCommand | DoneActorEvent<Flow, 'actOnFlow'> | ErrorActorEvent<unknown, 'actOnFlow'>;

/** What the flow actions machine knows. */
export interface FlowActionsContext {
  /** The action under way, or the one that failed. */
  request: FlowActionRequest | null;
  problem: ApiProblem | null;
}

/** Told once an action is done: the list reloads and names the flow. */
export interface FlowActedEvent {
  type: 'flow.acted';
  action: FlowActionRequest['action'];
  flow: Flow;
}

const actionsSetup = setup({
  types: {
    context: {} as FlowActionsContext,
    events: {} as FlowActionsEvent,
    emitted: {} as FlowActedEvent,
  },
  actors: {
    /**
     * `duplicate`: `GET /campaigns/flows/{id}/` then `POST /campaigns/flows/` with its settings and graph;
     * `pause` / `resume`: `PUT /campaigns/flows/{id}/` with the status.
     */
    actOnFlow: placeholder<Flow, FlowActionRequest>(),
  },
  actions: {
    pick: assign((_, request: FlowActionRequest) => ({ request, problem: null })),
    keepProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
    clear: assign({ request: null, problem: null }),
    announce: emit(({ context }, flow: Flow) => ({
      type: 'flow.acted' as const,
      action: context.request?.action ?? 'duplicate',
      flow,
    })),
  },
});
const request = requestIn(actionsSetup);

/**
 * Duplicate, pause and resume on /flows: `idle` → `acting` → `idle`, announcing `flow.acted` (the list
 * reloads), or keeping the problem to show until `problem.dismiss`. One action at a time.
 */
export const flowActionsMachine = actionsSetup.createMachine({
  id: 'flowActions',
  context: { request: null, problem: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'flow.act': {
          target: 'acting',
          actions: {
            type: 'pick',
            params: ({ event }) => {
              const { type: _type, ...request } = event;
              return request;
            },
          },
        },
        'problem.dismiss': { actions: 'clear' },
      },
    },
    acting: {
      tags: ['busy'],
      ...request('actOnFlow', {
        // Entered only with a request picked.
        input: ({ context }) => context.request as FlowActionRequest,
        done: {
          target: 'idle',
          actions: [{ type: 'announce', params: ({ event }) => event.output }, 'clear'],
        },
        error: {
          target: 'idle',
          actions: { type: 'keepProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      }),
    },
  },
});
