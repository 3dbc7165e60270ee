import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  CAMPAIGN_DEFAULTS,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  setCampaignState,
  updateCampaign,
  type CampaignFields,
} from '../../server/repositories/campaigns.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import { createSegment } from '../../server/repositories/segments.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { countRows } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

const blank: CampaignFields = { name: 'Blank', ...CAMPAIGN_DEFAULTS };

describe('campaigns repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('creates a campaign with its audience and schedule and reads them back as saved', async () => {
    const scope = systemScope(companyA);
    const segment = await db.tenant(companyA, (sql) => createSegment(sql, scope, { name: 'Regulars' }));
    const created = await db.tenant(companyA, (sql) =>
      createCampaign(sql, scope, {
        name: 'Spring menu',
        segment_ids: [segment.id, segment.id],
        start: '2025-03-01',
        end: '2025-03-31',
        repeat_on: 'weekly',
        categories: ['menu'],
        selected_days: ['fri', 'sat'],
        schedules: ['17:00', '11:30'],
      }),
    );
    expect(created).toMatchObject({
      company_id: companyA,
      kind: 'email',
      status: 'draft',
      segment_ids: [segment.id],
      list_ids: [],
      start: '2025-03-01',
      end: '2025-03-31',
      repeat_on: 'weekly',
      categories: ['menu'],
      selected_days: ['fri', 'sat'],
      schedules: ['17:00', '11:30'],
      next_run_at: null,
    });
    expect(await db.tenant(companyA, (sql) => getCampaign(sql, companyA, created.id))).toEqual(created);
    const page = await db.tenant(companyA, (sql) =>
      listCampaigns(sql, companyA, { q: 'spring', limit: 10, offset: 0 }),
    );
    expect(page).toEqual({ count: 1, rows: [created] });
  });

  it('refuses a period that ends before it starts (database check)', async () => {
    const scope = systemScope(companyA);
    await expect(
      db.tenant(companyA, (sql) =>
        createCampaign(sql, scope, { name: 'Backwards', start: '2025-03-02', end: '2025-03-01' }),
      ),
    ).rejects.toThrow();
  });

  it('replaces the fields, sets the state and deletes once, each audited', async () => {
    const scope = systemScope(companyA);
    const campaign = await db.tenant(companyA, (sql) => createCampaign(sql, scope, { name: 'Short lived' }));
    const changed = await db.tenant(companyA, (sql) =>
      updateCampaign(sql, scope, campaign.id, { ...blank, name: 'Renamed', schedules: ['09:00'] }),
    );
    expect(changed).toMatchObject({ name: 'Renamed', schedules: ['09:00'] });
    const at = new Date('2030-01-01T09:00:00Z');
    const scheduled = await db.tenant(companyA, (sql) =>
      setCampaignState(sql, scope, campaign.id, { status: 'scheduled', nextRunAt: at }),
    );
    expect(scheduled).toMatchObject({ status: 'scheduled', next_run_at: at, sent_at: null });
    const sent = await db.tenant(companyA, (sql) =>
      setCampaignState(sql, scope, campaign.id, { status: 'sent', nextRunAt: null }),
    );
    expect(sent.sent_at).toBeInstanceOf(Date);
    expect(await db.tenant(companyA, (sql) => deleteCampaign(sql, scope, campaign.id))).toBe(true);
    expect(await db.tenant(companyA, (sql) => getCampaign(sql, companyA, campaign.id))).toBeNull();
    expect(await db.tenant(companyA, (sql) => deleteCampaign(sql, scope, campaign.id))).toBe(false);
    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'campaign', entityId: campaign.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'update', 'update', 'update', 'create']);
  });

  it("never returns, changes or points at another company's campaigns, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirSegment = await guarded.tenant(companyB, (sql) =>
        createSegment(sql, systemScope(companyB), { name: 'Their segment' }),
      );
      const theirs = await guarded.tenant(companyB, (sql) =>
        createCampaign(sql, systemScope(companyB), { name: 'Theirs', segment_ids: [theirSegment.id] }),
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
        await guarded.tenant(companyA, (sql) =>
          updateCampaign(sql, scope, theirs.id, { ...blank, name: 'Taken' }),
        ),
      ).toBeNull();
      expect(await guarded.tenant(companyA, (sql) => deleteCampaign(sql, scope, theirs.id))).toBe(false);
      const before = await countRows(guarded, 'campaigns', companyA);
      await expect(
        guarded.tenant(companyA, (sql) =>
          createCampaign(sql, scope, { name: 'Sneaky', segment_ids: [theirSegment.id] }),
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        guarded.tenant(companyA, (sql) =>
          updateCampaign(sql, scope, mine.id, { ...blank, name: 'Half', segment_ids: [theirSegment.id] }),
        ),
      ).rejects.toThrow(UnknownReferenceError);
      expect(await countRows(guarded, 'campaigns', companyA)).toBe(before);
      expect(await guarded.tenant(companyA, (sql) => getCampaign(sql, companyA, mine.id))).toEqual(mine);
      expect(await guarded.tenant(companyB, (sql) => getCampaign(sql, companyB, theirs.id))).toEqual(theirs);
    }
  });
});
