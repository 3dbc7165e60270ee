import { nextSendAt } from '../../src/schemas/campaign-schedule.js';
import type { Sql } from '../db/database.js';
import { addressHashSql } from '../repositories/address-hash.js';
import { createCampaign, setCampaignState } from '../repositories/campaigns.repository.js';
import { copyTemplateContent, createEmailCampaign } from '../repositories/email-campaigns.repository.js';
import { createEmailSender, markEmailSenderVerified } from '../repositories/email-senders.repository.js';
import { updateCompanyPostalAddress } from '../repositories/mail-runs.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { Random } from './random.js';

/**
 * The demo companies' sending set-up and campaign history (docs/campaigns.md, "Demo data"): a postal address, a
 * verified sender, three past campaigns whose runs hold real outbox rows (delivered, human and machine opens,
 * clicks, a few failed and suppressed, an unsubscribe), a draft, and a weekly campaign scheduled from the day
 * after the demo's last day. Written in the demo's transaction, from the seed, so a load repeats exactly.
 */

/** What the demo's campaigns are made from. */
export interface DemoCampaignInput {
  name: string;
  slug: string;
  city: string;
  timeZone: string;
  /** The demo's last day (YYYY-MM-DD): past campaigns are dated before it. */
  until: string;
  seed: number;
}

const DAY_MS = 86_400_000;

/** A past campaign: its name, how many days before `until` it went, its recipients, its engagement. */
const PAST = [
  { name: 'Spring menu launch', daysAgo: 45, recipients: 400, openShare: 0.42, clickShare: 0.09 },
  { name: 'Happy hour is back', daysAgo: 21, recipients: 300, openShare: 0.35, clickShare: 0.06 },
  { name: 'Monthly newsletter', daysAgo: 7, recipients: 500, openShare: 0.28, clickShare: 0.04 },
] as const;

/** Writes the demo company's sending set-up and campaigns. */
export async function createDemoCampaigns(
  sql: Sql,
  scope: WriteScope,
  input: DemoCampaignInput,
): Promise<void> {
  // Drawn from the seed and the company's slug, never its id: the same demo writes the same rows.
  const generator = Random.derive(input.seed, 0xca3a, ...[...input.slug].map((char) => char.charCodeAt(0)));
  const random = () => generator.next();
  await updateCompanyPostalAddress(sql, scope, `${input.name}\n100 Main Street\n${input.city}`);
  const sender = await createEmailSender(sql, scope, {
    name: input.name,
    email: `hello@${input.slug}.example`,
    is_default: true,
  });
  await markEmailSenderVerified(sql, scope, sender.id);
  const templates = await sql.query<{ id: number; name: string }>(
    'SELECT id::int, name FROM email_templates WHERE company_id = $1 ORDER BY id',
    [scope.companyId],
  );
  const segments = await sql.query<{ id: number }>(
    'SELECT id::int FROM segments WHERE company_id = $1 ORDER BY id LIMIT 2',
    [scope.companyId],
  );
  const templateAt = (index: number) =>
    templates.rows[index % Math.max(1, templates.rows.length)]?.id ?? null;
  const content = async (campaignId: number, templateId: number | null, subject: string) => {
    await createEmailCampaign(sql, scope, {
      campaign_id: campaignId,
      template_id: templateId,
      sender_id: sender.id,
      subject,
      preheader: '',
    });
    await copyTemplateContent(sql, scope.companyId, campaignId);
  };
  const until = Date.parse(`${input.until}T00:00:00Z`);

  for (const [index, past] of PAST.entries()) {
    const sentAt = new Date(until - past.daysAgo * DAY_MS + 15 * 3_600_000);
    const campaign = await createCampaign(sql, scope, {
      name: past.name,
      segment_ids: segments.rows.slice(0, 1).map((row) => row.id),
      categories: [index === 2 ? 'newsletter' : 'promotion'],
    });
    await content(campaign.id, templateAt(index), `${past.name}, {{first_name}}`);
    await insertPastRun(sql, scope, campaign.id, sentAt, past, random);
    await setCampaignState(sql, scope, campaign.id, { status: 'sent', nextRunAt: null });
    await sql.query('UPDATE campaigns SET sent_at = $3, created_at = $3 WHERE company_id = $1 AND id = $2', [
      scope.companyId,
      campaign.id,
      sentAt,
    ]);
  }

  const draft = await createCampaign(sql, scope, { name: 'Summer patio opening', categories: ['event'] });
  await content(draft.id, templateAt(4), '');

  const start = new Date(until + DAY_MS).toISOString().slice(0, 10);
  const weekly = await createCampaign(sql, scope, {
    name: 'Weekend specials',
    segment_ids: segments.rows.slice(0, 2).map((row) => row.id),
    repeat_on: 'weekly',
    start,
    selected_days: ['fri'],
    schedules: ['10:00'],
    categories: ['menu', 'promotion'],
  });
  await content(weekly.id, templateAt(3), 'This weekend at {{location_name}}');
  const next = nextSendAt(
    { repeat_on: 'weekly', start, end: null, selectedDays: ['fri'], schedules: ['10:00'] },
    input.timeZone,
    new Date(until),
  );
  await setCampaignState(sql, scope, weekly.id, { status: 'scheduled', nextRunAt: next });
}

/**
 * One finished run of a past campaign with an outbox row per recipient (the first subscribed subscribers):
 * delivered, some opened by people and some only by privacy proxies, some clicked, two failed, two suppressed,
 * one unsubscribed by the run.
 */
async function insertPastRun(
  sql: Sql,
  scope: WriteScope,
  campaignId: number,
  sentAt: Date,
  past: (typeof PAST)[number],
  random: () => number,
): Promise<void> {
  const run = await sql.query<{ id: number }>(
    `INSERT INTO mail_runs (company_id, kind, source_id, run_key, from_address, subject, html_template,
                            text_template, postal_address, language, tracking, status, created_at, finished_at)
     SELECT $1, 'campaign', $2, $3, '"' || co.name || '" <hello@example.com>', $4,
            e.html_content, e.text_content, co.postal_address, 'en', true, 'sent', $5::timestamptz,
            $5::timestamptz + interval '20 minutes'
     FROM companies co JOIN email_campaigns e ON e.company_id = co.id AND e.campaign_id = $2
     WHERE co.id = $1
     RETURNING id::int`,
    [scope.companyId, campaignId, sentAt.toISOString(), past.name, sentAt],
  );
  const runId = run.rows[0]!.id;
  const recipients = await sql.query<{ id: number; email: string }>(
    `SELECT id::int, email FROM subscribers WHERE company_id = $1 AND subscribed ORDER BY id LIMIT $2`,
    [scope.companyId, past.recipients],
  );
  const rows = recipients.rows.map((subscriber, index) => {
    const status = index < 2 ? 'failed' : index < 4 ? 'suppressed' : 'sent';
    const delivered = status === 'sent';
    const roll = random();
    const opened = delivered && roll < past.openShare;
    const machine = delivered && !opened && roll < past.openShare + 0.08;
    const clicked = opened && random() < past.clickShare / past.openShare;
    const minutes = (share: number) => new Date(sentAt.getTime() + Math.round(share * 2 * 86_400_000));
    return {
      subscriber_id: subscriber.id,
      email: subscriber.email,
      status,
      error_class: status === 'failed' ? 'smtp_550' : null,
      sent_at: delivered ? minutes(random() / 100) : null,
      opened_at: opened ? minutes(random()) : null,
      machine_opened_at: machine ? minutes(random() / 50) : null,
      clicked_at: clicked ? minutes(random()) : null,
    };
  });
  await sql.query(
    `INSERT INTO mail_outbox (company_id, run_id, subscriber_id, email, status, message_id, error_class, sent_at,
                              attempts, opened_at, machine_opened_at, open_count, clicked_at, click_count)
     SELECT $1, $2, r.subscriber_id, r.email, r.status, '<r' || $2::bigint || '.s' || r.subscriber_id || '@demo.example>',
            r.error_class, r.sent_at, 1, r.opened_at, r.machine_opened_at,
            (r.opened_at IS NOT NULL OR r.machine_opened_at IS NOT NULL)::int, r.clicked_at,
            (r.clicked_at IS NOT NULL)::int
     FROM jsonb_to_recordset($3::jsonb) AS r(subscriber_id bigint, email text, status text, error_class text,
          sent_at timestamptz, opened_at timestamptz, machine_opened_at timestamptz, clicked_at timestamptz)`,
    [scope.companyId, runId, JSON.stringify(rows)],
  );
  await sql.query('UPDATE mail_runs SET recipients = $3 WHERE company_id = $1 AND id = $2', [
    scope.companyId,
    runId,
    rows.length,
  ]);
  // The suppressed rows were already suppressed (bounced before); the last delivered one unsubscribed from this run.
  const suppressed = rows.filter((row) => row.status === 'suppressed' || row.status === 'failed');
  const unsubscribed = rows.filter((row) => row.status === 'sent').slice(-1);
  for (const [row, reason] of [
    ...suppressed.map((row) => [row, 'bounced'] as const),
    ...unsubscribed.map((row) => [row, 'unsubscribed'] as const),
  ]) {
    await sql.query(
      `INSERT INTO mail_suppressions (company_id, email, email_hash, reason, run_id, created_at)
       VALUES ($1, $2, ${addressHashSql('$2')}, $3, $4, $5)
       ON CONFLICT (company_id, email_hash) DO NOTHING`,
      [scope.companyId, row.email, reason, reason === 'unsubscribed' ? runId : null, sentAt],
    );
  }
  if (unsubscribed[0]) {
    await sql.query(
      'UPDATE subscribers SET subscribed = false, unsubscribed_at = $3 WHERE company_id = $1 AND id = $2',
      [scope.companyId, unsubscribed[0].subscriber_id, sentAt],
    );
  }
}
