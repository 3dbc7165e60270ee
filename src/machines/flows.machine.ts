import { LIMITS } from '../schemas/constants.js';
import {
  FlowCreateSchema,
  type Flow,
  type FlowCreate,
  type FlowStatus,
  type FlowSummary,
} from '../schemas/flows.js';
import { createListMachine } from './kit/list-machine.js';

/** The flow list's filter: one status, or every flow (null). */
export interface FlowFilters {
  status: FlowStatus | null;
}

/** The "New flow" dialog: the flow's name (the builder sets the rest). */
export interface FlowForm {
  name: string;
}

/**
 * /flows: the company's flows with their state and figures (`GET /api/campaigns/flows/`), 25 to a page,
 * searched by name and filtered by status, on the list kit. "New flow" asks for a name and creates the draft
 * (`POST /api/campaigns/flows/`); the answer stays in `created` so the screen opens it in the builder.
 * `item.open` announces a flow to open; delete is confirmed. Pause, resume and duplicate are flow-actions'.
 */
export const flowsMachine = createListMachine<FlowSummary, FlowForm, FlowFilters, FlowCreate, never, Flow>({
  id: 'flows',
  pageSize: LIMITS.defaultPageSize,
  searchable: true,
  filters: { status: null },
  openable: true,
  showCreated: true,
  form: { empty: { name: '' }, of: (flow) => ({ name: flow.name }), create: FlowCreateSchema },
  // A copy made or a status changed elsewhere: load again at once.
  refreshDelay: 0,
});
