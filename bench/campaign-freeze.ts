import { createCampaign } from '../server/repositories/campaigns.repository.js';
import { createEmailCampaign } from '../server/repositories/email-campaigns.repository.js';
import {
  createEmailSender,
  markEmailSenderVerified,
} from '../server/repositories/email-senders.repository.js';
import { createEmailTemplate } from '../server/repositories/email-templates.repository.js';
import { updateCompanyPostalAddress } from '../server/repositories/mail-runs.repository.js';
import { createSegment } from '../server/repositories/segments.repository.js';
import { campaignSendingService } from '../server/services/campaign-sending.service.js';
import { campaignsService } from '../server/services/campaigns.service.js';
import { benchCompany, envInt, openBenchDatabase, printFigure, round, type BenchDriver } from './support.js';

/**
 * A campaign's freeze at scale (docs/campaigns.md, "Speed"): BENCH_FREEZE_GUESTS guests (1,000,000), every
 * fifth with a subscriber, a segment `visit_count >= 5` holding half the guests, so the audience is a tenth of the
 * guests (100,000). Times the live audience count and the send action, which freezes the run and its outbox in
 * one transaction with one INSERT … SELECT.
 */
export async function benchCampaignFreeze(driver: BenchDriver): Promise<void> {
  const guests = envInt('BENCH_FREEZE_GUESTS', 1_000_000);
  const bench = await openBenchDatabase(driver);
  try {
    const { db } = bench;
    const company = await benchCompany(db, 'Bench Campaign Freeze');
    const scope = { companyId: company.id, userId: null, actorUserId: null };
    let started = performance.now();
    await db.owner(async (sql) => {
      await sql.query("SELECT set_config('app.platform', 'on', true)");
      await sql.query(
        `INSERT INTO guests (company_id, pos_id, hashid, visit_count)
         SELECT $1, 'p' || g, 'p' || g, g % 10 FROM generate_series(1, $2::int) g`,
        [company.id, guests],
      );
      await sql.query(
        `INSERT INTO subscribers (company_id, email, hashid, first_name, guest_id)
         SELECT $1, 's' || g.id || '@bench.example', 's' || g.id, 'First', g.id
         FROM guests g WHERE g.company_id = $1 AND g.id % 5 = 0`,
        [company.id],
      );
      await sql.query('ANALYZE guests');
      await sql.query('ANALYZE subscribers');
    });
    const loadMs = performance.now() - started;
    const { campaignId } = await db.tenant(company.id, async (sql) => {
      const segment = await createSegment(sql, scope, {
        name: 'Five or more',
        segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 5 }] }],
      });
      const template = await createEmailTemplate(sql, scope, {
        name: 'Bench',
        html_content: '<html><body>Hi {{first_name}}</body></html>',
        text_content: 'Hi {{first_name}}',
      });
      const sender = await createEmailSender(sql, scope, { name: 'Bench', email: 'bench@bench.example' });
      await markEmailSenderVerified(sql, scope, sender.id);
      const campaign = await createCampaign(sql, scope, { name: 'Bench', segment_ids: [segment.id] });
      await createEmailCampaign(sql, scope, {
        campaign_id: campaign.id,
        template_id: template.id,
        sender_id: sender.id,
        subject: 'Hello',
      });
      return { campaignId: campaign.id };
    });
    await db.platform((sql) => updateCompanyPostalAddress(sql, scope, '1 Bench Street'));
    const campaigns = campaignsService(db);
    const audience = (await campaigns.get(company.id, campaignId)).audience;
    started = performance.now();
    const counted = await campaigns.audienceCount(company.id, audience);
    const countMs = performance.now() - started;
    started = performance.now();
    await campaignSendingService(db, { domain: 'bench.example' }).send(scope, campaignId);
    const freezeMs = performance.now() - started;
    const progress = await campaigns.progress(company.id, campaignId);
    printFigure({
      bench: 'campaign-freeze',
      driver,
      guests,
      recipients: counted.recipients,
      frozen: progress.runs[0]?.recipients ?? 0,
      load_s: round(loadMs / 1000),
      audience_count_s: round(countMs / 1000),
      send_freeze_s: round(freezeMs / 1000),
    });
  } finally {
    await bench.drop();
  }
}
