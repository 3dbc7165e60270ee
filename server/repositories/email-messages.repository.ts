import type { CompanyId, Sql } from '../db/database.js';
import { fingerprint } from '../privacy.js';
import { recordAudit } from './audit.repository.js';
import { assertOwnedRows, distinctIds, jsonParam, type Page, type PageWindow } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/** Where a message is: waiting, handed to SMTP, captured in the database (no SMTP set), failed or cancelled. */
export type EmailMessageStatus = 'queued' | 'sent' | 'captured' | 'failed' | 'cancelled';

/** Every status, in the order counts are reported. */
export const EMAIL_MESSAGE_STATUSES: readonly EmailMessageStatus[] = [
  'queued',
  'sent',
  'captured',
  'failed',
  'cancelled',
];

/** One message to one recipient. */
export interface EmailMessageRow {
  id: number;
  company_id: number;
  campaign_id: number | null;
  flow_id: number | null;
  subscriber_id: number | null;
  to_address: string;
  subject: string;
  status: EmailMessageStatus;
  error: string | null;
  queued_at: Date;
  sent_at: Date | null;
  opened_at: Date | null;
  clicked_at: Date | null;
}

/** A recipient to enqueue. */
export interface EmailRecipient {
  to_address: string;
  subscriber_id?: number | null | undefined;
  subject?: string | undefined;
}

/** Filters of the per-campaign message list. */
export interface EmailMessageFilter extends PageWindow {
  status?: EmailMessageStatus | undefined;
}

/** Raised when a recipient has no address; `index` is its position in the list given. */
export class InvalidRecipientError extends Error {
  constructor(readonly index: number) {
    super(`Recipient ${index} has no email address`);
    this.name = 'InvalidRecipientError';
  }
}

const COLUMNS = `id, company_id, campaign_id, flow_id, subscriber_id, to_address, subject, status, error, queued_at,
  sent_at, opened_at, clicked_at`;

/**
 * Queues one message per recipient for a campaign in a single statement and returns how many were queued.
 * Throws UnknownReferenceError when the campaign or a subscriber is not this company's (nothing is queued),
 * InvalidRecipientError for a blank address.
 */
export async function enqueueCampaignMessages(
  sql: Sql,
  scope: WriteScope,
  campaignId: number,
  recipients: readonly EmailRecipient[],
): Promise<number> {
  await assertOwnedRows(sql, scope.companyId, 'campaigns', 'campaign_id', [campaignId]);
  const rows = recipients.map((recipient, index) => {
    const address = recipient.to_address.trim();
    if (address === '') throw new InvalidRecipientError(index);
    return {
      to_address: address,
      subscriber_id: recipient.subscriber_id ?? null,
      subject: recipient.subject ?? '',
    };
  });
  if (rows.length === 0) return 0;
  await assertOwnedRows(
    sql,
    scope.companyId,
    'subscribers',
    'subscriber_id',
    rows.map((row) => row.subscriber_id),
  );
  const inserted = await sql.query<{ count: number; first_id: number; last_id: number }>(
    `WITH added AS (
       INSERT INTO email_messages (company_id, campaign_id, subscriber_id, to_address, subject)
       SELECT $1, $2, r.subscriber_id, r.to_address, r.subject
       FROM ROWS FROM (jsonb_to_recordset($3::jsonb) AS (subscriber_id bigint, to_address text, subject text))
            WITH ORDINALITY AS r(subscriber_id, to_address, subject, n)
       -- Ids follow the order of the list given, so the queue sends in that order.
       ORDER BY r.n
       RETURNING id)
     SELECT count(*)::int AS count, min(id) AS first_id, max(id) AS last_id FROM added`,
    [scope.companyId, campaignId, jsonParam(rows)],
  );
  const summary = inserted.rows[0]!;
  // One entry for the batch: a row per recipient would copy the mailing list into the audit log.
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'campaign_messages',
    entityId: campaignId,
    after: {
      campaign_id: campaignId,
      count: summary.count,
      first_id: summary.first_id,
      last_id: summary.last_id,
    },
  });
  return summary.count;
}

async function markFromQueued(
  sql: Sql,
  scope: WriteScope,
  ids: readonly number[],
  status: Exclude<EmailMessageStatus, 'queued'>,
  error: string | null,
): Promise<number> {
  const wanted = distinctIds(ids);
  if (wanted.length === 0) return 0;
  // Only queued messages move, so a retried worker never marks a message twice.
  const { rows } = await sql.query<{ id: number }>(
    `UPDATE email_messages
     SET status = $3, error = $4, sent_at = CASE WHEN $3 IN ('sent', 'captured') THEN now() ELSE sent_at END
     WHERE company_id = $1 AND id = ANY($2::bigint[]) AND status = 'queued'
     RETURNING id`,
    [scope.companyId, wanted, status, error],
  );
  if (rows.length > 0) {
    const changed = rows.map((row) => row.id).sort((a, b) => a - b);
    await recordAudit(sql, scope, {
      action: 'update',
      entity: 'email_message',
      entityId: changed.length === 1 ? changed[0]! : null,
      before: { status: 'queued' },
      after: { ids: changed, status, error },
    });
  }
  return rows.length;
}

/** Marks queued messages as handed to SMTP; returns how many changed (others were not queued or not ours). */
export function markEmailMessagesSent(sql: Sql, scope: WriteScope, ids: readonly number[]): Promise<number> {
  return markFromQueued(sql, scope, ids, 'sent', null);
}

/** Marks queued messages as captured in the database (no SMTP configured); returns how many changed. */
export function markEmailMessagesCaptured(
  sql: Sql,
  scope: WriteScope,
  ids: readonly number[],
): Promise<number> {
  return markFromQueued(sql, scope, ids, 'captured', null);
}

/** Marks queued messages as failed with the reason; returns how many changed. */
export function markEmailMessagesFailed(
  sql: Sql,
  scope: WriteScope,
  ids: readonly number[],
  error: string,
): Promise<number> {
  return markFromQueued(sql, scope, ids, 'failed', error);
}

/** One page of a campaign's messages in queue order, optionally of one status, with the total count. */
export async function listCampaignMessages(
  sql: Sql,
  companyId: CompanyId,
  campaignId: number,
  filter: EmailMessageFilter,
): Promise<Page<EmailMessageRow>> {
  const where = 'company_id = $1 AND campaign_id = $2 AND ($3::text IS NULL OR status = $3)';
  const params = [companyId, campaignId, filter.status ?? null];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM email_messages WHERE ${where}`,
    params,
  );
  const page = await sql.query<EmailMessageRow>(
    `SELECT ${COLUMNS} FROM email_messages WHERE ${where} ORDER BY id LIMIT $4 OFFSET $5`,
    [...params, filter.limit, filter.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** How many of a campaign's messages are in each status; every status is present, zero when none. */
export async function countCampaignMessagesByStatus(
  sql: Sql,
  companyId: CompanyId,
  campaignId: number,
): Promise<Record<EmailMessageStatus, number>> {
  const { rows } = await sql.query<{ status: EmailMessageStatus; count: number }>(
    `SELECT status, count(*)::int AS count FROM email_messages
     WHERE company_id = $1 AND campaign_id = $2 GROUP BY status`,
    [companyId, campaignId],
  );
  const counts = Object.fromEntries(EMAIL_MESSAGE_STATUSES.map((status) => [status, 0])) as Record<
    EmailMessageStatus,
    number
  >;
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}

/**
 * Takes a subscriber who is being deleted out of the messages: those still queued are cancelled with the address
 * replaced by its fingerprint; those already sent, captured or failed keep their status for the campaign figures
 * but not the address in clear.
 */
export async function forgetSubscriberInMessages(
  sql: Sql,
  scope: WriteScope,
  subscriberId: number,
): Promise<void> {
  const params = [scope.companyId, subscriberId];
  const queued = await sql.query<{ id: number; to_address: string }>(
    `SELECT id, to_address FROM email_messages WHERE company_id = $1 AND subscriber_id = $2 AND status = 'queued'`,
    params,
  );
  if (queued.rows.length > 0) {
    // The status is checked again so a message the sender took meanwhile is not rewritten.
    const cancelled = await sql.query<{ id: number }>(
      `UPDATE email_messages m SET status = 'cancelled', to_address = u.address
       FROM unnest($2::bigint[], $3::text[]) AS u(id, address)
       WHERE m.company_id = $1 AND m.id = u.id AND m.status = 'queued'
       RETURNING m.id`,
      [
        scope.companyId,
        queued.rows.map((message) => message.id),
        queued.rows.map((message) => fingerprint(message.to_address)),
      ],
    );
    for (const message of cancelled.rows) {
      await recordAudit(sql, scope, {
        action: 'update',
        entity: 'email_message',
        entityId: message.id,
        before: { status: 'queued' },
        after: { status: 'cancelled' },
      });
    }
  }
  // Messages already sent, captured or failed stay for the campaign figures, but not the address in clear.
  // The same mark as fingerprint() in server/privacy.ts, made in SQL for each message's own address.
  await sql.query(
    `UPDATE email_messages
     SET to_address = 'sha256:' || left(encode(sha256(convert_to(to_address, 'UTF8')), 'hex'), 16)
     WHERE company_id = $1 AND subscriber_id = $2 AND to_address NOT LIKE 'sha256:%'`,
    params,
  );
}
