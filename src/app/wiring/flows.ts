import { concatMap } from 'rxjs';
import { flowActionsMachine, type FlowActionRequest } from '../../machines/flow-actions.machine.js';
import { flowsMachine, type FlowFilters } from '../../machines/flows.machine.js';
import type { ListQuery } from '../../machines/kit/list-machine.js';
import { FlowPageSchema, FlowSchema, type FlowCreate, type FlowSummary } from '../../schemas/flows.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

/** The flows calls' root (spec §7). */
export const FLOWS = '/campaigns/flows/';

/** `GET /campaigns/flows/{id}/`: a flow with its draft graph. */
export const getFlow = (id: number) =>
  apiRequest({ method: 'GET', path: `${FLOWS}${id}/`, schema: FlowSchema });

/** `POST /campaigns/flows/`: a new draft. */
export const createFlow = (body: FlowCreate) =>
  apiRequest({ method: 'POST', path: FLOWS, body, schema: FlowSchema });

/** /flows' list with `GET /api/campaigns/flows/`, its "New flow" dialog and the confirmed delete. */
export const flowsLogic = flowsMachine.provide({
  actors: {
    loadList: apiCall(({ status, ...query }: ListQuery<FlowFilters>) =>
      apiRequest({ method: 'GET', path: FLOWS, query: { ...query, status }, schema: FlowPageSchema }),
    ),
    createItem: apiCall((body: FlowCreate) => createFlow(body)),
    deleteItem: apiCall((flow: FlowSummary) => apiRequest({ method: 'DELETE', path: `${FLOWS}${flow.id}/` })),
  },
});

/** A copy of a flow: its settings and draft graph as a new draft under the given name. */
function duplicate(flow: FlowSummary, name: string) {
  return getFlow(flow.id).pipe(
    concatMap((source) =>
      createFlow({
        name,
        location_ids: source.location_ids,
        location_group_ids: source.location_group_ids,
        reentry: source.reentry,
        reentry_days: source.reentry_days,
        items: source.items.map(({ id: _id, flow_id: _flowId, ...item }) => item),
      }),
    ),
  );
}

/** Duplicate, pause and resume on /flows. */
export const flowActionsLogic = flowActionsMachine.provide({
  actors: {
    actOnFlow: apiCall((request: FlowActionRequest) =>
      request.action === 'duplicate'
        ? duplicate(request.flow, request.name)
        : apiRequest({
            method: 'PUT',
            path: `${FLOWS}${request.flow.id}/`,
            body: { status: request.action === 'pause' ? 'paused' : 'live' },
            schema: FlowSchema,
          }),
    ),
  },
});
