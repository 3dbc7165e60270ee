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
    const campaign = await db.tenant(scope.companyId, (sql) =>
      createCampaign(sql, scope, { name: 'Launch' }),
    );
    const template = await db.tenant(scope.companyId, (sql) =>
      createEmailTemplate(sql, scope, {
        name: 'Launch template',
        html_content: '<h1>New</h1>',
      }),
    );
    const sender = await db.tenant(scope.companyId, (sql) =>
      createEmailSender(sql, scope, { name: 'Harbor', email: 'hi@harbor.example' }),
    );

    expect(await db.tenant(companyA, (sql) => getEmailCampaign(sql, companyA, campaign.id))).toBeNull();
    const created = await db.tenant(scope.companyId, (sql) =>
      createEmailCampaign(sql, scope, {
        campaign_id: campaign.id,
        template_id: template.id,
        sender_id: sender.id,
        subject: 'Our new menu',
        html_content: '<h1>New</h1>',
      }),
    );
    expect(created).toMatchObject({
      company_id: companyA,
      campaign_id: campaign.id,
      template_id: template.id,
      sender_id: sender.id,
      subject: 'Our new menu',
      preheader: '',
      text_content: '',
    });
    expect(await db.tenant(companyA, (sql) => getEmailCampaign(sql, companyA, campaign.id))).toEqual(created);
    await expect(
      db.tenant(scope.companyId, (sql) => createEmailCampaign(sql, scope, { campaign_id: campaign.id })),
    ).rejects.toBeInstanceOf(EmailCampaignExistsError);

    const updated = await db.tenant(scope.companyId, (sql) =>
      updateEmailCampaign(sql, scope, campaign.id, {
        preheader: 'Taste it first',
        template_id: null,
      }),
    );
    expect(updated).toMatchObject({
      preheader: 'Taste it first',
      template_id: null,
      sender_id: sender.id,
      subject: 'Our new menu',
    });
    expect(
      await db.tenant(scope.companyId, (sql) => updateEmailCampaign(sql, scope, 0, { subject: 'Nothing' })),
    ).toBeNull();

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'email_campaign', entityId: created.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['update', 'create']);

    // The content goes with its campaign.
    await db.tenant(scope.companyId, (sql) => deleteCampaign(sql, scope, campaign.id));
    expect(await db.tenant(companyA, (sql) => getEmailCampaign(sql, companyA, campaign.id))).toBeNull();
  });

  it('pages newest campaign first with the total count', async () => {
    const scope = systemScope(companyA);
    const campaignIds: number[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const campaign = await db.tenant(scope.companyId, (sql) => createCampaign(sql, scope, { name }));
      campaignIds.push(campaign.id);
      await db.tenant(scope.companyId, (sql) =>
        createEmailCampaign(sql, scope, { campaign_id: campaign.id, subject: name }),
      );
    }
    const page = await db.tenant(companyA, (sql) =>
      listEmailCampaigns(sql, companyA, { limit: 2, offset: 0 }),
    );
    expect(page.count).toBe(3);
    expect(page.rows.map((row) => row.subject)).toEqual(['Three', 'Two']);
    expect(
      (
        await db.tenant(companyA, (sql) => listEmailCampaigns(sql, companyA, { limit: 2, offset: 2 }))
      ).rows.map((row) => row.campaign_id),
    ).toEqual([campaignIds[0]]);
  });

  it("never reads, changes or points at another company's rows, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const label = guarded === db ? 'rls' : 'plain';
      const b = systemScope(companyB);
      const theirCampaign = await guarded.tenant(b.companyId, (sql) =>
        createCampaign(sql, b, { name: 'Theirs' }),
      );
      const theirTemplate = await guarded.tenant(b.companyId, (sql) =>
        createEmailTemplate(sql, b, { name: `Their template (${label})` }),
      );
      const theirSender = await guarded.tenant(b.companyId, (sql) =>
        createEmailSender(sql, b, {
          name: 'Them',
          email: `them-${label}@example.com`,
        }),
      );
      const theirContent = await guarded.tenant(b.companyId, (sql) =>
        createEmailCampaign(sql, b, {
          campaign_id: theirCampaign.id,
          subject: 'Theirs',
        }),
      );

      const a = systemScope(companyA);
      const myCampaign = await guarded.tenant(a.companyId, (sql) => createCampaign(sql, a, { name: 'Mine' }));
      expect(
        await guarded.tenant(companyA, (sql) => getEmailCampaign(sql, companyA, theirCampaign.id)),
      ).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) =>
          updateEmailCampaign(sql, a, theirCampaign.id, { subject: 'Taken' }),
        ),
      ).toBeNull();
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listEmailCampaigns(sql, companyA, { limit: 100, offset: 0 }),
          )
        ).rows.every((r) => r.company_id === companyA),
      ).toBe(true);

      const before = await countRows(guarded, 'email_campaigns', companyA);
      await expect(
        guarded.tenant(a.companyId, (sql) => createEmailCampaign(sql, a, { campaign_id: theirCampaign.id })),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        guarded.tenant(a.companyId, (sql) =>
          createEmailCampaign(sql, a, { campaign_id: myCampaign.id, template_id: theirTemplate.id }),
        ),
      ).rejects.toMatchObject({ field: 'template_id', ids: [theirTemplate.id] });
      await expect(
        guarded.tenant(a.companyId, (sql) =>
          createEmailCampaign(sql, a, { campaign_id: myCampaign.id, sender_id: theirSender.id }),
        ),
      ).rejects.toMatchObject({ field: 'sender_id', ids: [theirSender.id] });
      expect(await countRows(guarded, 'email_campaigns', companyA)).toBe(before);

      const mine = await guarded.tenant(a.companyId, (sql) =>
        createEmailCampaign(sql, a, { campaign_id: myCampaign.id, subject: 'Mine' }),
      );
      await expect(
        guarded.tenant(a.companyId, (sql) =>
          updateEmailCampaign(sql, a, myCampaign.id, { subject: 'Half', sender_id: theirSender.id }),
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      expect(await guarded.tenant(companyA, (sql) => getEmailCampaign(sql, companyA, myCampaign.id))).toEqual(
        mine,
      );
      expect(
        await guarded.tenant(companyB, (sql) => getEmailCampaign(sql, companyB, theirCampaign.id)),
      ).toEqual(theirContent);
    }
  });
});
