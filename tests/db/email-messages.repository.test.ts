import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { createCampaign } from '../../server/repositories/campaigns.repository.js';
import {
  countCampaignMessagesByStatus,
  enqueueCampaignMessages,
  InvalidRecipientError,
  listCampaignMessages,
  markEmailMessagesCaptured,
  markEmailMessagesFailed,
  markEmailMessagesSent,
} from '../../server/repositories/email-messages.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { countRows, makeTestSubscriber } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

const zero = { queued: 0, sent: 0, captured: 0, failed: 0, cancelled: 0 };

describe('email messages repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('queues a batch in the order given and moves messages out of the queue exactly once', async () => {
    const scope = systemScope(companyA);
    const campaign = await db.tenant(scope.companyId, (sql) => createCampaign(sql, scope, { name: 'Batch' }));
    const subscriber = await makeTestSubscriber(db, companyA, 'ann@example.com');
    const recipients = [
      'ann@example.com',
      'bob@example.com',
      'cy@example.com',
      'di@example.com',
      'ed@example.com',
    ];
    const queued = await db.tenant(scope.companyId, (sql) =>
      enqueueCampaignMessages(
        sql,
        scope,
        campaign.id,
        recipients.map((to_address, index) => ({
          to_address,
          subject: `Hello ${index}`,
          subscriber_id: index === 0 ? subscriber : null,
        })),
      ),
    );
    expect(queued).toBe(5);
    expect(
      await db.tenant(scope.companyId, (sql) => enqueueCampaignMessages(sql, scope, campaign.id, [])),
    ).toBe(0);

    const all = await db.tenant(companyA, (sql) =>
      listCampaignMessages(sql, companyA, campaign.id, { limit: 100, offset: 0 }),
    );
    expect(all.rows.map((row) => row.to_address)).toEqual(recipients);
    expect(all.rows[0]).toMatchObject({
      subscriber_id: subscriber,
      subject: 'Hello 0',
      status: 'queued',
      sent_at: null,
    });
    const ids = all.rows.map((row) => row.id);

    expect(
      await db.tenant(scope.companyId, (sql) => markEmailMessagesSent(sql, scope, [ids[0]!, ids[1]!])),
    ).toBe(2);
    expect(await db.tenant(scope.companyId, (sql) => markEmailMessagesCaptured(sql, scope, [ids[2]!]))).toBe(
      1,
    );
    expect(
      await db.tenant(scope.companyId, (sql) =>
        markEmailMessagesFailed(sql, scope, [ids[3]!], 'mailbox unavailable'),
      ),
    ).toBe(1);
    // Already moved: a retried worker changes nothing.
    expect(
      await db.tenant(scope.companyId, (sql) =>
        markEmailMessagesSent(sql, scope, [ids[0]!, ids[2]!, ids[3]!]),
      ),
    ).toBe(0);
    expect(
      await db.tenant(scope.companyId, (sql) =>
        markEmailMessagesFailed(sql, scope, [ids[0]!], 'late failure'),
      ),
    ).toBe(0);
    expect(await db.tenant(scope.companyId, (sql) => markEmailMessagesSent(sql, scope, []))).toBe(0);

    expect(
      await db.tenant(companyA, (sql) => countCampaignMessagesByStatus(sql, companyA, campaign.id)),
    ).toEqual({
      ...zero,
      queued: 1,
      sent: 2,
      captured: 1,
      failed: 1,
    });
    const sent = await db.tenant(companyA, (sql) =>
      listCampaignMessages(sql, companyA, campaign.id, {
        status: 'sent',
        limit: 1,
        offset: 1,
      }),
    );
    expect(sent.count).toBe(2);
    expect(sent.rows.map((row) => row.id)).toEqual([ids[1]]);
    expect(sent.rows[0]?.sent_at).toBeInstanceOf(Date);
    const failed = await db.tenant(companyA, (sql) =>
      listCampaignMessages(sql, companyA, campaign.id, {
        status: 'failed',
        limit: 10,
        offset: 0,
      }),
    );
    expect(failed.rows[0]).toMatchObject({ error: 'mailbox unavailable', sent_at: null });
    expect(await db.tenant(companyA, (sql) => countCampaignMessagesByStatus(sql, companyA, 0))).toEqual(zero);

    const batch = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'campaign_messages', entityId: campaign.id }),
    );
    expect(batch).toHaveLength(1);
    expect(batch[0]?.after).toMatchObject({
      campaign_id: campaign.id,
      count: 5,
      first_id: ids[0],
      last_id: ids[4],
    });
    const marks = await db.tenant(companyA, (sql) => listAudit(sql, companyA, { entity: 'email_message' }));
    expect(marks.map((entry) => (entry.after as { status: string }).status)).toEqual([
      'failed',
      'captured',
      'sent',
    ]);
    expect(JSON.stringify([...batch, ...marks])).not.toContain('@example.com');
  });

  it("queues nothing when a recipient is blank or a referenced row is not the company's", async () => {
    const scope = systemScope(companyA);
    const campaign = await db.tenant(scope.companyId, (sql) =>
      createCampaign(sql, scope, { name: 'Refused' }),
    );
    await expect(
      db.tenant(scope.companyId, (sql) =>
        enqueueCampaignMessages(sql, scope, campaign.id, [
          { to_address: 'ok@example.com' },
          { to_address: '  ' },
        ]),
      ),
    ).rejects.toMatchObject({ name: 'InvalidRecipientError', index: 1 });
    await expect(
      db.tenant(scope.companyId, (sql) =>
        enqueueCampaignMessages(sql, scope, campaign.id, [{ to_address: '' }]),
      ),
    ).rejects.toBeInstanceOf(InvalidRecipientError);
    await expect(
      db.tenant(scope.companyId, (sql) =>
        enqueueCampaignMessages(sql, scope, 0, [{ to_address: 'ok@example.com' }]),
      ),
    ).rejects.toMatchObject({
      field: 'campaign_id',
    });
    expect(
      (
        await db.tenant(companyA, (sql) =>
          listCampaignMessages(sql, companyA, campaign.id, { limit: 10, offset: 0 }),
        )
      ).count,
    ).toBe(0);
  });

  it("never reads, marks or queues against another company's rows, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const label = guarded === db ? 'rls' : 'plain';
      const b = systemScope(companyB);
      const theirCampaign = await guarded.tenant(b.companyId, (sql) =>
        createCampaign(sql, b, { name: 'Theirs' }),
      );
      const theirSubscriber = await makeTestSubscriber(guarded, companyB, `them-${label}@example.org`);
      await guarded.tenant(b.companyId, (sql) =>
        enqueueCampaignMessages(sql, b, theirCampaign.id, [
          { to_address: 'x@example.org' },
          { to_address: 'y@example.org' },
        ]),
      );
      const theirIds = (
        await guarded.tenant(companyB, (sql) =>
          listCampaignMessages(sql, companyB, theirCampaign.id, { limit: 10, offset: 0 }),
        )
      ).rows.map((row) => row.id);

      const a = systemScope(companyA);
      const myCampaign = await guarded.tenant(a.companyId, (sql) => createCampaign(sql, a, { name: 'Mine' }));
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listCampaignMessages(sql, companyA, theirCampaign.id, { limit: 10, offset: 0 }),
          )
        ).count,
      ).toBe(0);
      expect(
        await guarded.tenant(companyA, (sql) =>
          countCampaignMessagesByStatus(sql, companyA, theirCampaign.id),
        ),
      ).toEqual(zero);
      expect(await guarded.tenant(a.companyId, (sql) => markEmailMessagesSent(sql, a, theirIds))).toBe(0);
      expect(
        await guarded.tenant(a.companyId, (sql) => markEmailMessagesFailed(sql, a, theirIds, 'sabotage')),
      ).toBe(0);

      const before = await countRows(guarded, 'email_messages', companyA);
      await expect(
        guarded.tenant(a.companyId, (sql) =>
          enqueueCampaignMessages(sql, a, theirCampaign.id, [{ to_address: 'me@example.com' }]),
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        guarded.tenant(a.companyId, (sql) =>
          enqueueCampaignMessages(sql, a, myCampaign.id, [
            { to_address: 'me@example.com' },
            { to_address: 'them@example.org', subscriber_id: theirSubscriber },
          ]),
        ),
      ).rejects.toMatchObject({ field: 'subscriber_id', ids: [theirSubscriber] });
      expect(await countRows(guarded, 'email_messages', companyA)).toBe(before);

      expect(
        await guarded.tenant(companyB, (sql) =>
          countCampaignMessagesByStatus(sql, companyB, theirCampaign.id),
        ),
      ).toEqual({
        ...zero,
        queued: 2,
      });
    }
  });
});
