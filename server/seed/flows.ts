import { GALLERY_KEYS, type GalleryKey } from '../../src/schemas/email-templates.js';
import { FlowCreateSchema, type FlowCreate, type FlowGraphItem } from '../../src/schemas/flows.js';
import type { Sql } from '../db/database.js';
import type { WriteScope } from '../repositories/scope.js';
import { createFlowIn, updateFlowIn } from '../services/flows.service.js';

/**
 * The demo companies' flows (docs/flows.md, "Demo data"): a live welcome flow, a live win-back flow and a draft,
 * laid out top to bottom as the builder draws them. They are created and published through the flows service,
 * so their versions exist exactly as a marketer's would. Written in the demo's transaction, after the starter
 * templates and the verified sender (server/seed/campaigns.ts).
 */

/** Where the builder draws the nodes: one column, a row every STEP pixels; branches either side of it. */
const COLUMN_X = 0;
const STEP = 150;
const BRANCH_X = 220;

type Settings<Kind extends FlowGraphItem['kind']> = Extract<FlowGraphItem, { kind: Kind }>['settings'];

/** One node of a demo graph. */
function node<Kind extends FlowGraphItem['kind']>(
  key: string,
  kind: Kind,
  settings: Settings<Kind>,
  row: number,
  links: { next?: string; no?: string; x?: number } = {},
): FlowGraphItem {
  return {
    key,
    kind,
    settings,
    position: { x: links.x ?? COLUMN_X, y: row * STEP },
    next_key: links.next ?? null,
    no_key: links.no ?? null,
  } as FlowGraphItem;
}

/** Writes the demo company's three flows and publishes the two live ones. */
export async function createDemoFlows(sql: Sql, scope: WriteScope): Promise<void> {
  const templates = await sql.query<{ id: number }>(
    'SELECT id::int FROM email_templates WHERE company_id = $1 ORDER BY id LIMIT $2',
    [scope.companyId, GALLERY_KEYS.length],
  );
  // The starter templates are saved in the gallery's order, first of the company's templates.
  const template = (key: GalleryKey) => templates.rows[GALLERY_KEYS.indexOf(key)]?.id ?? null;
  const sender = await sql.query<{ id: number }>(
    'SELECT id::int FROM email_senders WHERE company_id = $1 AND verified_at IS NOT NULL ORDER BY is_default DESC, id LIMIT 1',
    [scope.companyId],
  );
  const email = (key: GalleryKey, subject: string): Settings<'action'> => ({
    type: 'send_email',
    template_id: template(key),
    sender_id: sender.rows[0]?.id ?? null,
    subject,
    preheader: '',
  });

  const welcome: FlowCreate = {
    name: 'Welcome new guests',
    items: [
      node('first-visit', 'trigger', { type: 'first_visit' }, 0, { next: 'wait-2-days' }),
      node('wait-2-days', 'delay', { type: 'wait', amount: 2, unit: 'days' }, 1, { next: 'welcome-email' }),
      node('welcome-email', 'action', email('welcome', 'Welcome, {{first_name}}!'), 2, {
        next: 'wait-7-days',
      }),
      node('wait-7-days', 'delay', { type: 'wait', amount: 7, unit: 'days' }, 3, { next: 'came-back' }),
      node('came-back', 'action', { type: 'condition', rule: { condition: 'visited_since_entering' } }, 4, {
        next: 'done',
        no: 'come-back-email',
      }),
      node('done', 'action', { type: 'exit' }, 5, { x: COLUMN_X - BRANCH_X }),
      node('come-back-email', 'action', email('win_back', 'We would love to see you again'), 5, {
        x: COLUMN_X + BRANCH_X,
      }),
    ],
  };
  const winBack: FlowCreate = {
    name: 'Win back lapsed regulars',
    reentry: 'after_days',
    reentry_days: 90,
    items: [
      node('no-visit-60', 'trigger', { type: 'no_visit_for', days: 60 }, 0, { next: 'miss-you-email' }),
      node('miss-you-email', 'action', email('win_back', 'We miss you, {{first_name}}'), 1, {
        next: 'wait-14-days',
      }),
      node('wait-14-days', 'delay', { type: 'wait', amount: 14, unit: 'days' }, 2, { next: 'visited-again' }),
      node(
        'visited-again',
        'action',
        { type: 'condition', rule: { condition: 'visited_since_entering' } },
        3,
        {
          next: 'welcome-back',
          no: 'last-call-email',
        },
      ),
      node('welcome-back', 'action', { type: 'exit' }, 4, { x: COLUMN_X - BRANCH_X }),
      node('last-call-email', 'action', email('new_menu', 'Something new on the menu for you'), 4, {
        x: COLUMN_X + BRANCH_X,
      }),
    ],
  };
  const birthday: FlowCreate = {
    name: 'Birthday treat',
    items: [
      node('birthday', 'trigger', { type: 'birthday', days_before: 7 }, 0, { next: 'birthday-email' }),
      node('birthday-email', 'action', email('birthday', 'A birthday treat for you, {{first_name}}'), 1, {
        next: 'wait-until-friday',
      }),
      node('wait-until-friday', 'delay', { type: 'wait_until', weekday: 'fri', time: '10:00' }, 2),
    ],
  };

  for (const flow of [welcome, winBack]) {
    const created = await createFlowIn(sql, scope, FlowCreateSchema.parse(flow));
    await updateFlowIn(sql, scope, created.id, { status: 'live' });
  }
  await createFlowIn(sql, scope, FlowCreateSchema.parse(birthday));
}
