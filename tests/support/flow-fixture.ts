import { randomBytes } from 'node:crypto';
import type { Database } from '../../server/db/database.js';
import type { FlowGraphItem } from '../../src/schemas/flows.js';
import {
  createEmailSender,
  markEmailSenderVerified,
} from '../../server/repositories/email-senders.repository.js';
import { createEmailTemplate } from '../../server/repositories/email-templates.repository.js';
import { updateCompanyPostalAddress } from '../../server/repositories/mail-runs.repository.js';
import { makeCompany, makeLocation, systemScope } from './factories.js';

/**
 * The flow engine's own fixture (independent of the flows API): a company that can send (postal address, verified
 * sender, a template, a location in New York), live flows written straight into `flows` and `flow_versions`, and
 * guests with linked subscribers in bulk.
 */

/** A company ready to send flow email. */
export interface FlowCompany {
  companyId: number;
  locationId: number;
  templateId: number;
  senderId: number;
}

/** A new company ready to send, with one location in America/New_York. */
export async function makeFlowCompany(db: Database, name = 'Flow Co'): Promise<FlowCompany> {
  const companyId = (await makeCompany(db, name)).id;
  const scope = systemScope(companyId);
  const locationId = (await makeLocation(db, companyId, 'Harbor')).id;
  // The companies row is written through the platform door only.
  await db.platform((sql) => updateCompanyPostalAddress(sql, scope, '12 Quay Street, Portland, ME 04101'));
  return db.tenant(companyId, async (sql) => {
    const template = await createEmailTemplate(sql, scope, {
      name: 'Welcome',
      html_content: '<html><body><p>Hello {{first_name}}</p></body></html>',
      text_content: 'Hello {{first_name}}',
    });
    const sender = await createEmailSender(sql, scope, {
      name: 'Harbor',
      email: `news-${randomBytes(3).toString('hex')}@harbor.example`,
    });
    await markEmailSenderVerified(sql, scope, sender.id);
    return { companyId, locationId, templateId: template.id, senderId: sender.id };
  });
}

/** How a fixture flow enrols. */
export interface FlowOptions {
  status?: 'live' | 'paused' | 'draft';
  locationIds?: number[];
  locationGroupIds?: number[];
  reentry?: 'once' | 'after_days';
  reentryDays?: number | null;
}

/** A flow with one published version (1) holding `graph`; its id and the version's id. */
export async function makeLiveFlow(
  db: Database,
  companyId: number,
  graph: FlowGraphItem[],
  options: FlowOptions = {},
): Promise<{ flowId: number; versionId: number }> {
  return db.tenant(companyId, async (sql) => {
    const flow = await sql.query<{ id: number }>(
      `INSERT INTO flows (company_id, name, status, location_ids, location_group_ids, reentry, reentry_days,
                          published_version, published_revision)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 1, 0) RETURNING id::int`,
      [
        companyId,
        `Flow ${randomBytes(3).toString('hex')}`,
        options.status ?? 'live',
        options.locationIds ?? [],
        options.locationGroupIds ?? [],
        options.reentry ?? 'once',
        options.reentryDays ?? null,
      ],
    );
    const flowId = flow.rows[0]!.id;
    const version = await sql.query<{ id: number }>(
      `INSERT INTO flow_versions (company_id, flow_id, version, graph) VALUES ($1, $2, 1, $3) RETURNING id::int`,
      [companyId, flowId, JSON.stringify(graph)],
    );
    return { flowId, versionId: version.rows[0]!.id };
  });
}

/** Publishes `graph` as the flow's next version (people already in it stay on theirs). */
export async function publishVersion(
  db: Database,
  companyId: number,
  flowId: number,
  graph: FlowGraphItem[],
): Promise<number> {
  return db.tenant(companyId, async (sql) => {
    const { rows } = await sql.query<{ id: number; version: number }>(
      `INSERT INTO flow_versions (company_id, flow_id, version, graph)
       SELECT $1, $2, coalesce(max(version), 0) + 1, $3 FROM flow_versions WHERE company_id = $1 AND flow_id = $2
       RETURNING id::int, version`,
      [companyId, flowId, JSON.stringify(graph)],
    );
    await sql.query('UPDATE flows SET published_version = $3 WHERE company_id = $1 AND id = $2', [
      companyId,
      flowId,
      rows[0]!.version,
    ]);
    return rows[0]!.id;
  });
}

/** Sets a flow's status (pause, resume). */
export async function setFlowStatus(
  db: Database,
  companyId: number,
  flowId: number,
  status: string,
): Promise<void> {
  await db.tenant(companyId, (sql) =>
    sql.query('UPDATE flows SET status = $3 WHERE company_id = $1 AND id = $2', [companyId, flowId, status]),
  );
}

/**
 * `count` guests with POS ids `{prefix}{i}` and a subscribed subscriber linked to each (written in bulk, no
 * trigger events); the subscriber ids in guest order.
 */
export async function makeLinkedGuests(
  db: Database,
  companyId: number,
  count: number,
  prefix: string,
): Promise<{ guestIds: number[]; subscriberIds: number[] }> {
  return db.tenant(companyId, async (sql) => {
    const guests = await sql.query<{ id: number }>(
      `INSERT INTO guests (company_id, pos_id, hashid)
       SELECT $1, $2 || i, $2 || i FROM generate_series(0, $3 - 1) i ORDER BY i RETURNING id::int`,
      [companyId, prefix, count],
    );
    const guestIds = guests.rows.map((row) => row.id).sort((a, b) => a - b);
    const subscribers = await sql.query<{ id: number }>(
      `INSERT INTO subscribers (company_id, email, first_name, hashid, guest_id, pos_id)
       SELECT $1, $2 || n || '@guests.example', 'G' || n, $2 || 's' || n, g, $2 || n
       FROM unnest($3::bigint[]) WITH ORDINALITY AS t(g, n) ORDER BY n RETURNING id::int`,
      [companyId, prefix, guestIds],
    );
    return { guestIds, subscriberIds: subscribers.rows.map((row) => row.id).sort((a, b) => a - b) };
  });
}

const at = { x: 0, y: 0 };

/**
 * The simulation flow: first visit → wait 2 days → welcome email → wait 7 days → visited since entering?
 * yes: exit; no: win-back email.
 */
export function welcomeWinBackGraph(templateId: number): FlowGraphItem[] {
  return [
    {
      key: 'visit',
      kind: 'trigger',
      settings: { type: 'first_visit' },
      position: at,
      next_key: 'wait2',
      no_key: null,
    },
    {
      key: 'wait2',
      kind: 'delay',
      settings: { type: 'wait', amount: 2, unit: 'days' },
      position: at,
      next_key: 'welcome',
      no_key: null,
    },
    {
      key: 'welcome',
      kind: 'action',
      settings: {
        type: 'send_email',
        template_id: templateId,
        sender_id: null,
        subject: 'Welcome {{first_name}}',
        preheader: '',
      },
      position: at,
      next_key: 'wait7',
      no_key: null,
    },
    {
      key: 'wait7',
      kind: 'delay',
      settings: { type: 'wait', amount: 7, unit: 'days' },
      position: at,
      next_key: 'back',
      no_key: null,
    },
    {
      key: 'back',
      kind: 'action',
      settings: { type: 'condition', rule: { condition: 'visited_since_entering' } },
      position: at,
      next_key: 'done',
      no_key: 'winback',
    },
    { key: 'done', kind: 'action', settings: { type: 'exit' }, position: at, next_key: null, no_key: null },
    {
      key: 'winback',
      kind: 'action',
      settings: {
        type: 'send_email',
        template_id: templateId,
        sender_id: null,
        subject: 'We miss you',
        preheader: '',
      },
      position: at,
      next_key: null,
      no_key: null,
    },
  ];
}
