import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  CampaignPeriodError,
  CampaignStatusError,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  markCampaignSending,
  markCampaignSent,
  updateCampaign,
} from '../../server/repositories/campaigns.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import { createSegment } from '../../server/repositories/segments.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { countRows } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('campaigns repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('creates a campaign with its schedule and reads the JSON fields back as saved', async () => {
    const scope = systemScope(companyA);
    const segment = await db.tenant(scope.companyId, (sql) =>
      createSegment(sql, scope, { name: 'Regulars' }),
    );
    const start = new Date('2025-03-01T17:00:00Z');
    const end = new Date('2025-03-31T23:00:00Z');
    const schedules = [
      { day: 'fri', at: '17:00', tz: 'America/New_York' },
      { day: 'sat', at: '11:30' },
    ];
    const created = await db.tenant(scope.companyId, (sql) =>
      createCampaign(sql, scope, {
        name: 'Spring menu',
        segment_id: segment.id,
        start,
        end,
        repeat_on: 'weekly',
        categories: ['menu', { id: 4, name: 'Dessert' }],
        selected_days: ['fri', 'sat'],
        schedules,
      }),
    );
    expect(created).toMatchObject({
      company_id: companyA,
      kind: 'email',
      status: 'draft',
      segment_id: segment.id,
      repeat_on: 'weekly',
      categories: ['menu', { id: 4, name: 'Dessert' }],
      selected_days: ['fri', 'sat'],
      schedules,
      sent_at: null,
    });
    expect(created.start?.toISOString()).toBe(start.toISOString());
    expect(created.end?.toISOString()).toBe(end.toISOString());
    expect(await db.tenant(companyA, (sql) => getCampaign(sql, companyA, created.id))).toEqual(created);

    const bare = await db.tenant(scope.companyId, (sql) =>
      createCampaign(sql, scope, { name: 'Bare', kind: 'other' }),
    );
    expect(bare).toMatchObject({ kind: 'other', start: null, end: null, categories: [], schedules: [] });
    await expect(
      db.tenant(scope.companyId, (sql) =>
        createCampaign(sql, scope, { name: 'Backwards', start: end, end: start }),
      ),
    ).rejects.toBeInstanceOf(CampaignPeriodError);
    await expect(
      db.tenant(scope.companyId, (sql) => createCampaign(sql, scope, { name: 'Skip ahead', status: 'sent' })),
    ).rejects.toBeInstanceOf(CampaignStatusError);
  });

  it('pages newest first with the total count and filters', async () => {
    const scope = systemScope(companyA);
    const names = ['First', 'Second', 'Third'];
    for (const name of names)
      await db.tenant(scope.companyId, (sql) =>
        createCampaign(sql, scope, { name, kind: name === 'Second' ? 'other' : 'email' }),
      );
    const all = await db.tenant(companyA, (sql) => listCampaigns(sql, companyA, { limit: 100, offset: 0 }));
    const page = await db.tenant(companyA, (sql) => listCampaigns(sql, companyA, { limit: 2, offset: 1 }));
    expect(page.count).toBe(all.count);
    expect(page.rows.map((row) => row.id)).toEqual(all.rows.slice(1, 3).map((row) => row.id));
    expect(all.rows.slice(0, 3).map((row) => row.name)).toEqual(['Third', 'Second', 'First']);
    const ids = all.rows.map((row) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const others = await db.tenant(companyA, (sql) =>
      listCampaigns(sql, companyA, { kind: 'other', q: 'sec', limit: 10, offset: 0 }),
    );
    expect(others.rows.map((row) => row.name)).toEqual(['Second']);
    expect(
      (
        await db.tenant(companyA, (sql) =>
          listCampaigns(sql, companyA, { status: 'sent', limit: 10, offset: 0 }),
        )
      ).count,
    ).toBe(0);
  });

  it('updates some fields, clears others with null and checks the merged period', async () => {
    const scope = systemScope(companyA);
    const segment = await db.tenant(scope.companyId, (sql) => createSegment(sql, scope, { name: 'Lapsed' }));
    const campaign = await db.tenant(scope.companyId, (sql) =>
      createCampaign(sql, scope, {
        name: 'Win back',
        segment_id: segment.id,
        start: new Date('2025-05-01T00:00:00Z'),
      }),
    );
    const updated = await db.tenant(scope.companyId, (sql) =>
      updateCampaign(sql, scope, campaign.id, {
        name: 'Win them back',
        segment_id: null,
        selected_days: ['mon'],
        status: 'scheduled',
      }),
    );
    expect(updated).toMatchObject({
      name: 'Win them back',
      segment_id: null,
      selected_days: ['mon'],
      status: 'scheduled',
    });
    expect(updated?.start?.toISOString()).toBe('2025-05-01T00:00:00.000Z');
    await expect(
      db.tenant(scope.companyId, (sql) =>
        updateCampaign(sql, scope, campaign.id, { end: new Date('2025-04-01T00:00:00Z') }),
      ),
    ).rejects.toBeInstanceOf(CampaignPeriodError);
    expect(await db.tenant(companyA, (sql) => getCampaign(sql, companyA, campaign.id))).toEqual(updated);
    expect(
      await db.tenant(scope.companyId, (sql) => updateCampaign(sql, scope, 0, { name: 'Nothing' })),
    ).toBeNull();
  });

  it('starts sending only from draft or scheduled, and refuses every other status move', async () => {
    const scope = systemScope(companyA);
    const draft = await db.tenant(scope.companyId, (sql) =>
      createCampaign(sql, scope, { name: 'Draft send' }),
    );
    const sending = await db.tenant(scope.companyId, (sql) => markCampaignSending(sql, scope, draft.id));
    expect(sending?.status).toBe('sending');
    await expect(
      db.tenant(scope.companyId, (sql) => markCampaignSending(sql, scope, draft.id)),
    ).rejects.toMatchObject({
      name: 'CampaignStatusError',
      from: 'sending',
      to: 'sending',
    });
    await expect(
      db.tenant(scope.companyId, (sql) => updateCampaign(sql, scope, draft.id, { status: 'draft' })),
    ).rejects.toBeInstanceOf(CampaignStatusError);
    const sent = await db.tenant(scope.companyId, (sql) => markCampaignSent(sql, scope, draft.id));
    expect(sent?.status).toBe('sent');
    expect(sent?.sent_at).toBeInstanceOf(Date);
    await expect(
      db.tenant(scope.companyId, (sql) => updateCampaign(sql, scope, draft.id, { status: 'scheduled' })),
    ).rejects.toBeInstanceOf(CampaignStatusError);
    await expect(
      db.tenant(scope.companyId, (sql) => markCampaignSending(sql, scope, draft.id)),
    ).rejects.toBeInstanceOf(CampaignStatusError);

    const scheduled = await db.tenant(scope.companyId, (sql) =>
      createCampaign(sql, scope, { name: 'Scheduled send', status: 'scheduled' }),
    );
    expect(
      (await db.tenant(scope.companyId, (sql) => markCampaignSending(sql, scope, scheduled.id)))?.status,
    ).toBe('sending');
    const paused = await db.tenant(scope.companyId, (sql) =>
      createCampaign(sql, scope, { name: 'Paused', status: 'paused' }),
    );
    await expect(
      db.tenant(scope.companyId, (sql) => markCampaignSending(sql, scope, paused.id)),
    ).rejects.toBeInstanceOf(CampaignStatusError);
    await expect(
      db.tenant(scope.companyId, (sql) => markCampaignSent(sql, scope, paused.id)),
    ).rejects.toBeInstanceOf(CampaignStatusError);
    await expect(
      db.tenant(scope.companyId, (sql) => updateCampaign(sql, scope, paused.id, { status: 'sending' })),
    ).rejects.toBeInstanceOf(CampaignStatusError);
    expect((await db.tenant(companyA, (sql) => getCampaign(sql, companyA, paused.id)))?.status).toBe(
      'paused',
    );
    expect(await db.tenant(scope.companyId, (sql) => markCampaignSending(sql, scope, 0))).toBeNull();

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'campaign', entityId: draft.id }),
    );
    expect(audit.map((entry) => [entry.action, (entry.after as { status?: string } | null)?.status])).toEqual(
      [
        ['update', 'sent'],
        ['update', 'sending'],
        ['create', 'draft'],
      ],
    );
  });

  it('deletes a campaign once', async () => {
    const scope = systemScope(companyA);
    const campaign = await db.tenant(scope.companyId, (sql) =>
      createCampaign(sql, scope, { name: 'Short lived' }),
    );
    expect(await db.tenant(scope.companyId, (sql) => deleteCampaign(sql, scope, campaign.id))).toBe(true);
    expect(await db.tenant(companyA, (sql) => getCampaign(sql, companyA, campaign.id))).toBeNull();
    expect(await db.tenant(scope.companyId, (sql) => deleteCampaign(sql, scope, campaign.id))).toBe(false);
    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'campaign', entityId: campaign.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'create']);
  });

  it("never returns, changes or points at another company's campaigns, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirSegment = await guarded.tenant(companyB, (sql) =>
        createSegment(sql, systemScope(companyB), { name: 'Their segment' }),
      );
      const theirs = await guarded.tenant(companyB, (sql) =>
        createCampaign(sql, systemScope(companyB), {
          name: 'Theirs',
          segment_id: theirSegment.id,
        }),
      );
      const mine = await guarded.tenant(companyA, (sql) =>
        createCampaign(sql, systemScope(companyA), { name: 'Mine' }),
      );
      const scope = systemScope(companyA);

      const list = await guarded.tenant(companyA, (sql) =>
        listCampaigns(sql, companyA, { limit: 1000, offset: 0 }),
      );
      expect(list.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(await guarded.tenant(companyA, (sql) => getCampaign(sql, companyA, theirs.id))).toBeNull();
      expect(
        await guarded.tenant(scope.companyId, (sql) =>
          updateCampaign(sql, scope, theirs.id, { name: 'Taken' }),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(scope.companyId, (sql) => markCampaignSending(sql, scope, theirs.id)),
      ).toBeNull();
      expect(
        await guarded.tenant(scope.companyId, (sql) => markCampaignSent(sql, scope, theirs.id)),
      ).toBeNull();
      expect(await guarded.tenant(scope.companyId, (sql) => deleteCampaign(sql, scope, theirs.id))).toBe(
        false,
      );

      const before = await countRows(guarded, 'campaigns', companyA);
      await expect(
        guarded.tenant(scope.companyId, (sql) =>
          createCampaign(sql, scope, { name: 'Sneaky', segment_id: theirSegment.id }),
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        guarded.tenant(scope.companyId, (sql) =>
          updateCampaign(sql, scope, mine.id, { name: 'Half', segment_id: theirSegment.id }),
        ),
      ).rejects.toThrow(UnknownReferenceError);
      expect(await countRows(guarded, 'campaigns', companyA)).toBe(before);
      expect(await guarded.tenant(companyA, (sql) => getCampaign(sql, companyA, mine.id))).toEqual(mine);
      expect(await guarded.tenant(companyB, (sql) => getCampaign(sql, companyB, theirs.id))).toEqual(theirs);
    }
  });
});
