import type { Flow, FlowSummary } from '../schemas/flows.js';
import {
  createRowActionMachine,
  type RowActionContext,
  type RowActionEvent,
} from './support/row-action-machine.js';

/** What a row's button asks of a flow: a copy (named by the view), or a pause or resume. */
export type FlowActionRequest =
  | { action: 'duplicate'; flow: FlowSummary; name: string }
  | { action: 'pause' | 'resume'; flow: FlowSummary };

/** What the flow list sends besides the list's own commands. */
export type FlowActionsCommand = ({ type: 'flow.act' } & FlowActionRequest) | { type: 'problem.dismiss' };

/** Everything the flow actions machine handles. */
export type FlowActionsEvent = RowActionEvent<{ type: 'flow.act' } & FlowActionRequest, Flow, 'actOnFlow'>;

/** What the machine knows: the request under way (or the one that failed) and its problem. */
export type FlowActionsContext = RowActionContext<FlowActionRequest>;

/** Told once an action is done: the list reloads and names the flow. */
export interface FlowActedEvent {
  type: 'flow.acted';
  action: FlowActionRequest['action'];
  flow: Flow;
}

/**
 * Duplicate, pause and resume on /flows: `idle` → `acting` → `idle`, announcing `flow.acted` (the list
 * reloads), or keeping the problem to show until `problem.dismiss`. One action at a time. `actOnFlow`:
 * `duplicate` is `GET /campaigns/flows/{id}/` then `POST /campaigns/flows/` with its settings and graph;
 * `pause` / `resume` is `PUT /campaigns/flows/{id}/` with the status.
 */
export const flowActionsMachine = createRowActionMachine({
  id: 'flowActions',
  command: 'flow.act',
  busyState: 'acting',
  src: 'actOnFlow',
  requestOf: ({ type: _type, ...request }: { type: 'flow.act' } & FlowActionRequest): FlowActionRequest =>
    request,
  announce: (request, flow: Flow): FlowActedEvent => ({
    type: 'flow.acted',
    action: request?.action ?? 'duplicate',
    flow,
  }),
});
