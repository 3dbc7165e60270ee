import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { createCampaign, deleteCampaign } from '../../server/repositories/campaigns.repository.js';
import {
  createEmailCampaign,
  EmailCampaignExistsError,
  getEmailCampaign,
  listEmailCampaigns,
  updateEmailCampaign,
} from '../../server/repositories/email-campaigns.repository.js';
import { createEmailSender } from '../../server/repositories/email-senders.repository.js';
import { createEmailTemplate } from '../../server/repositories/email-templates.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { countRows } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('email campaigns repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('gives a campaign its email content once, then updates it in part', async () => {
    const scope = systemScope(companyA);
    const campaign = await createCampaign(db, scope, { name: 'Launch' });
    const template = await createEmailTemplate(db, scope, {
      name: 'Launch template',
      html_content: '<h1>New</h1>',
    });
    const sender = await createEmailSender(db, scope, { name: 'Harbor', email: 'hi@harbor.example' });

    expect(await getEmailCampaign(db, companyA, campaign.id)).toBeNull();
    const created = await createEmailCampaign(db, scope, {
      campaign_id: campaign.id,
      template_id: template.id,
      sender_id: sender.id,
      subject: 'Our new menu',
      html_content: '<h1>New</h1>',
    });
    expect(created).toMatchObject({
      company_id: companyA,
      campaign_id: campaign.id,
      template_id: template.id,
      sender_id: sender.id,
      subject: 'Our new menu',
      preheader: '',
      text_content: '',
    });
    expect(await getEmailCampaign(db, companyA, campaign.id)).toEqual(created);
    await expect(createEmailCampaign(db, scope, { campaign_id: campaign.id })).rejects.toBeInstanceOf(
      EmailCampaignExistsError,
    );

    const updated = await updateEmailCampaign(db, scope, campaign.id, {
      preheader: 'Taste it first',
      template_id: null,
    });
    expect(updated).toMatchObject({
      preheader: 'Taste it first',
      template_id: null,
      sender_id: sender.id,
      subject: 'Our new menu',
    });
    expect(await updateEmailCampaign(db, scope, 0, { subject: 'Nothing' })).toBeNull();

    const audit = await listAudit(db, companyA, { entity: 'email_campaign', entityId: created.id });
    expect(audit.map((entry) => entry.action)).toEqual(['update', 'create']);

    // The content goes with its campaign.
    await deleteCampaign(db, scope, campaign.id);
    expect(await getEmailCampaign(db, companyA, campaign.id)).toBeNull();
  });

  it('pages newest campaign first with the total count', async () => {
    const scope = systemScope(companyA);
    const campaignIds: number[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const campaign = await createCampaign(db, scope, { name });
      campaignIds.push(campaign.id);
      await createEmailCampaign(db, scope, { campaign_id: campaign.id, subject: name });
    }
    const page = await listEmailCampaigns(db, companyA, { limit: 2, offset: 0 });
    expect(page.count).toBe(3);
    expect(page.rows.map((row) => row.subject)).toEqual(['Three', 'Two']);
    expect(
      (await listEmailCampaigns(db, companyA, { limit: 2, offset: 2 })).rows.map((row) => row.campaign_id),
    ).toEqual([campaignIds[0]]);
  });

  it("never reads, changes or points at another company's rows, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const label = guarded === db ? 'rls' : 'plain';
      const b = systemScope(companyB);
      const theirCampaign = await createCampaign(guarded, b, { name: 'Theirs' });
      const theirTemplate = await createEmailTemplate(guarded, b, { name: 'Their template' });
      const theirSender = await createEmailSender(guarded, b, {
        name: 'Them',
        email: `them-${label}@example.com`,
      });
      const theirContent = await createEmailCampaign(guarded, b, {
        campaign_id: theirCampaign.id,
        subject: 'Theirs',
      });

      const a = systemScope(companyA);
      const myCampaign = await createCampaign(guarded, a, { name: 'Mine' });
      expect(await getEmailCampaign(guarded, companyA, theirCampaign.id)).toBeNull();
      expect(await updateEmailCampaign(guarded, a, theirCampaign.id, { subject: 'Taken' })).toBeNull();
      expect(
        (await listEmailCampaigns(guarded, companyA, { limit: 100, offset: 0 })).rows.every(
          (r) => r.company_id === companyA,
        ),
      ).toBe(true);

      const before = await countRows(guarded, 'email_campaigns', companyA);
      await expect(createEmailCampaign(guarded, a, { campaign_id: theirCampaign.id })).rejects.toBeInstanceOf(
        UnknownReferenceError,
      );
      await expect(
        createEmailCampaign(guarded, a, { campaign_id: myCampaign.id, template_id: theirTemplate.id }),
      ).rejects.toMatchObject({ field: 'template_id', ids: [theirTemplate.id] });
      await expect(
        createEmailCampaign(guarded, a, { campaign_id: myCampaign.id, sender_id: theirSender.id }),
      ).rejects.toMatchObject({ field: 'sender_id', ids: [theirSender.id] });
      expect(await countRows(guarded, 'email_campaigns', companyA)).toBe(before);

      const mine = await createEmailCampaign(guarded, a, { campaign_id: myCampaign.id, subject: 'Mine' });
      await expect(
        updateEmailCampaign(guarded, a, myCampaign.id, { subject: 'Half', sender_id: theirSender.id }),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      expect(await getEmailCampaign(guarded, companyA, myCampaign.id)).toEqual(mine);
      expect(await getEmailCampaign(guarded, companyB, theirCampaign.id)).toEqual(theirContent);
    }
  });
});
