import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { assertOwnedRows, type Page, type PageWindow } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/** The email content of a campaign: template, sender and the message itself. One per campaign. */
export interface EmailCampaignRow {
  id: number;
  company_id: number;
  campaign_id: number;
  template_id: number | null;
  sender_id: number | null;
  subject: string;
  preheader: string;
  html_content: string;
  text_content: string;
  tracking: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The writable fields of an email campaign. */
export interface EmailCampaignFields {
  template_id: number | null;
  sender_id: number | null;
  subject: string;
  preheader: string;
  html_content: string;
  text_content: string;
  tracking: boolean;
}

/** What creating an email campaign needs: the campaign it belongs to. */
export type EmailCampaignInput = { campaign_id: number } & Partial<EmailCampaignFields>;

/** Raised when a campaign already has its email content; update it instead. */
export class EmailCampaignExistsError extends Error {
  constructor(readonly campaignId: number) {
    super(`Campaign ${campaignId} already has email content`);
    this.name = 'EmailCampaignExistsError';
  }
}

const COLUMNS = `id::int, company_id::int, campaign_id::int, template_id::int, sender_id::int, subject, preheader,
  html_content, text_content, tracking, created_at, updated_at`;

async function selectByCampaign(
  sql: Sql,
  companyId: CompanyId,
  campaignId: number,
  lock = false,
): Promise<EmailCampaignRow | null> {
  const { rows } = await sql.query<EmailCampaignRow>(
    `SELECT ${COLUMNS} FROM email_campaigns WHERE company_id = $1 AND campaign_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [companyId, campaignId],
  );
  return rows[0] ?? null;
}

async function checkReferences(
  sql: Sql,
  companyId: CompanyId,
  fields: Partial<EmailCampaignFields>,
): Promise<void> {
  await assertOwnedRows(sql, companyId, 'email_templates', 'template_id', [fields.template_id]);
  await assertOwnedRows(sql, companyId, 'email_senders', 'sender_id', [fields.sender_id]);
}

/** One page of a company's email campaigns (of one campaign when named), newest campaign first, with the total. */
export async function listEmailCampaigns(
  sql: Sql,
  companyId: CompanyId,
  window: PageWindow & { campaignId?: number | undefined },
): Promise<Page<EmailCampaignRow>> {
  const where = 'company_id = $1 AND ($2::bigint IS NULL OR campaign_id = $2)';
  const params = [companyId, window.campaignId ?? null];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM email_campaigns WHERE ${where}`,
    params,
  );
  const page = await sql.query<EmailCampaignRow>(
    `SELECT ${COLUMNS} FROM email_campaigns WHERE ${where} ORDER BY campaign_id DESC LIMIT $3 OFFSET $4`,
    [...params, window.limit, window.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** The email content of a campaign, or null when it has none or the campaign is not this company's. */
export function getEmailCampaign(
  sql: Sql,
  companyId: CompanyId,
  campaignId: number,
): Promise<EmailCampaignRow | null> {
  return selectByCampaign(sql, companyId, campaignId);
}

/**
 * Gives a campaign its email content. Throws UnknownReferenceError when the campaign, template or sender is
 * not this company's, EmailCampaignExistsError when the campaign already has content.
 */
export async function createEmailCampaign(
  sql: Sql,
  scope: WriteScope,
  input: EmailCampaignInput,
): Promise<EmailCampaignRow> {
  await assertOwnedRows(sql, scope.companyId, 'campaigns', 'campaign_id', [input.campaign_id]);
  await checkReferences(sql, scope.companyId, input);
  if (await selectByCampaign(sql, scope.companyId, input.campaign_id)) {
    throw new EmailCampaignExistsError(input.campaign_id);
  }
  const { rows } = await sql.query<EmailCampaignRow>(
    `INSERT INTO email_campaigns (company_id, campaign_id, template_id, sender_id, subject, preheader, html_content,
                                  text_content, tracking)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [
      scope.companyId,
      input.campaign_id,
      input.template_id ?? null,
      input.sender_id ?? null,
      input.subject ?? '',
      input.preheader ?? '',
      input.html_content ?? '',
      input.text_content ?? '',
      input.tracking ?? true,
    ],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'email_campaign',
    entityId: created.id,
    after: created,
  });
  return created;
}

/**
 * Changes some fields of a campaign's email content (null clears template or sender); null when the campaign
 * has none in this company. Throws UnknownReferenceError for a template or sender of another company.
 */
export async function updateEmailCampaign(
  sql: Sql,
  scope: WriteScope,
  campaignId: number,
  changes: Partial<EmailCampaignFields>,
): Promise<EmailCampaignRow | null> {
  const before = await selectByCampaign(sql, scope.companyId, campaignId, true);
  if (!before) return null;
  await checkReferences(sql, scope.companyId, changes);
  const keys = (
    ['template_id', 'sender_id', 'subject', 'preheader', 'html_content', 'text_content', 'tracking'] as const
  ).filter((key) => changes[key] !== undefined);
  let after = before;
  if (keys.length > 0) {
    const assignments = keys.map((key, index) => `${key} = $${index + 3}`).join(', ');
    const { rows } = await sql.query<EmailCampaignRow>(
      `UPDATE email_campaigns SET ${assignments}, updated_at = now()
       WHERE company_id = $1 AND campaign_id = $2 RETURNING ${COLUMNS}`,
      [scope.companyId, campaignId, ...keys.map((key) => changes[key])],
    );
    after = rows[0]!;
  }
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'email_campaign',
    entityId: before.id,
    before,
    after,
  });
  return after;
}

/**
 * Copies the chosen template's HTML and text into the campaign's content, so the campaign keeps what it sends when
 * the template is later changed or deleted. Nothing changes without a template.
 */
export async function copyTemplateContent(sql: Sql, companyId: CompanyId, campaignId: number): Promise<void> {
  await sql.query(
    `UPDATE email_campaigns e SET html_content = t.html_content, text_content = t.text_content
     FROM email_templates t
     WHERE e.company_id = $1 AND e.campaign_id = $2 AND t.company_id = $1 AND t.id = e.template_id`,
    [companyId, campaignId],
  );
}
