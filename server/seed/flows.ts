import { GALLERY_KEYS, type GalleryKey } from '../../src/schemas/email-templates.js';
import { FlowCreateSchema, type FlowCreate, type FlowGraphItem } from '../../src/schemas/flows.js';
import type { CompanyId, Sql } from '../db/database.js';
import { DEFAULT_FREQUENCY_CAP, runEnrolmentSteps } from '../flows/flow-steps.js';
import { enrolDateTriggers, enrolFromEvent } from '../flows/flow-triggers.js';
import { liveFlows, lockEnrolment } from '../repositories/flow-enrolments.repository.js';
import type { FlowEventRow } from '../repositories/flow-events.repository.js';
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
const DAY_MS = 86_400_000;

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

/** Days of first visits the welcome flow is given: its two waits (2 + 7 days) and a few days past its end. */
const WELCOME_DAYS = 12;
/** Days of the win-back flow's daily pass: its 14-day wait and a few days past it. */
const WIN_BACK_DAYS = 20;
/** The worker name the seed claims enrolments under while it runs their steps. */
const SEED_WORKER = 'demo-seed';

/**
 * Puts real people in the demo's live flows through the engine's own path (docs/flows.md, "Demo data"), in the
 * history's last transaction: each recent first visit of a subscriber's guest is the check event the engine
 * would have read when it happened, and the win-back flow's daily pass runs as it would have on each of the last
 * days; then every step due by `now` runs as the runner runs it. The emails those steps froze are history, as
 * the demo campaigns' are: marked delivered at their step's time, so nothing is sent when the demo starts.
 * Answers the enrolments made.
 */
export async function enrolDemoFlowGuests(sql: Sql, companyId: CompanyId, now: Date): Promise<number> {
  const flows = await liveFlows(sql, companyId);
  let made = 0;
  const firstVisits = await sql.query<{ guest_id: number; location_id: number | null; at: Date }>(
    `SELECT g.id::int AS guest_id, g.first_location_id::int AS location_id, g.first_visit_at AS at
     FROM guests g
     WHERE g.company_id = $1 AND g.first_visit_at > $2::timestamptz - make_interval(days => $3) AND g.first_visit_at <= $2
       AND EXISTS (SELECT 1 FROM subscribers s WHERE s.company_id = $1 AND s.guest_id = g.id AND s.subscribed)
     ORDER BY g.first_visit_at, g.id`,
    [companyId, now, WELCOME_DAYS],
  );
  for (const visit of firstVisits.rows) {
    const event: FlowEventRow = {
      id: 0,
      company_id: companyId,
      kind: 'check',
      subscriber_id: null,
      guest_id: visit.guest_id,
      list_id: null,
      segment_id: null,
      location_id: visit.location_id,
      visit_number: 1,
      spend_before_cents: null,
      spend_after_cents: null,
      occurred_at: new Date(visit.at),
    };
    // Read when it happened, as the runner would have read it: not a stale check then.
    made += await enrolFromEvent(sql, companyId, event, flows, event.occurred_at);
  }
  for (let day = WIN_BACK_DAYS; day >= 1; day -= 1) {
    made += await enrolDateTriggers(sql, companyId, flows, new Date(now.getTime() - day * DAY_MS));
  }
  const context = { now, domain: 'demo.example', frequencyCap: DEFAULT_FREQUENCY_CAP };
  // Each pass moves every due enrolment to a later wait or out of the flow; a flow's waits bound the passes.
  for (let pass = 0; pass < 20; pass += 1) {
    const due = await sql.query<{ id: number }>(
      `UPDATE flow_enrolments SET claimed_at = now(), claimed_by = $2
       WHERE company_id = $1 AND status = 'active' AND next_run_at <= $3 RETURNING id::int`,
      [companyId, SEED_WORKER, now],
    );
    if (due.rows.length === 0) break;
    for (const { id } of due.rows.sort((a, b) => a.id - b.id)) {
      const state = await lockEnrolment(sql, companyId, id, SEED_WORKER);
      if (state) await runEnrolmentSteps(sql, companyId, state, context);
    }
  }
  await sql.query(
    `UPDATE mail_outbox o SET status = 'sent', sent_at = st.done_at, attempts = 1
     FROM flow_enrolment_steps st
     WHERE st.company_id = $1 AND st.mail_run_id = o.run_id AND o.company_id = $1 AND o.status = 'queued'`,
    [companyId],
  );
  await sql.query(
    `UPDATE mail_runs r SET status = 'sent', created_at = st.done_at, finished_at = st.done_at
     FROM flow_enrolment_steps st
     WHERE st.company_id = $1 AND st.mail_run_id = r.id AND r.company_id = $1 AND r.kind = 'flow'`,
    [companyId],
  );
  return made;
}
