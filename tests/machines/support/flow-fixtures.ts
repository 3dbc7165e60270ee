import type { EditorChoices } from '../../../src/machines/campaign-update-mode.machine.js';
import type { Flow, FlowGraphItem, FlowSummary } from '../../../src/schemas/flows.js';

/** The pickers a builder opens with: one of each. */
export const CHOICES: EditorChoices = {
  segments: [{ id: 3, name: 'Regulars' }],
  lists: [{ id: 5, name: 'Newsletter' }],
  locations: [{ id: 7, name: 'Harbor St' }],
  groups: [{ id: 9, name: 'Downtown' }],
  templates: [{ id: 11, name: 'Welcome' }],
  senders: [{ id: 13, name: 'Harbor', email: 'hello@harbor.example', verified: true, is_default: true }],
};

/** First visit → wait 2 days → an email without a template yet. */
export const GRAPH: FlowGraphItem[] = [
  {
    key: 'n1',
    kind: 'trigger',
    settings: { type: 'first_visit' },
    position: { x: 0, y: 0 },
    next_key: 'n2',
    no_key: null,
  },
  {
    key: 'n2',
    kind: 'delay',
    settings: { type: 'wait', amount: 2, unit: 'days' },
    position: { x: 0, y: 140 },
    next_key: 'n3',
    no_key: null,
  },
  {
    key: 'n3',
    kind: 'action',
    settings: { type: 'send_email', template_id: null, sender_id: null, subject: '', preheader: '' },
    position: { x: 0, y: 280 },
    next_key: null,
    no_key: null,
  },
];

/** A flow's list row. */
export const FLOW_SUMMARY: FlowSummary = {
  id: 21,
  name: 'Welcome',
  status: 'draft',
  location_ids: [],
  location_group_ids: [],
  reentry: 'once',
  reentry_days: null,
  trigger_type: 'first_visit',
  version: null,
  has_unpublished_changes: true,
  revision: 4,
  in_flow: 0,
  emails_sent: 0,
  revenue_cents: null,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};

/** The draft flow as `GET /campaigns/flows/{id}/` answers it. */
export const FLOW: Flow = {
  ...FLOW_SUMMARY,
  items: GRAPH.map((item, index) => ({ ...item, id: 100 + index, flow_id: FLOW_SUMMARY.id })),
};

/** The same flow after a save or a publish with another status and revision. */
export const flowWith = (status: Flow['status'], revision: number): Flow => ({ ...FLOW, status, revision });

/** A failed call, as the API client's error reads. */
export const failure = (status: number, code: string) => ({ status, code, message: code, fields: {} });
