import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { createCampaign } from '../../server/repositories/campaigns.repository.js';
import {
  createOtherCampaignConfiguration,
  getControlStores,
  getOtherCampaignConfiguration,
  listOtherCampaignConfigurations,
  replaceControlStores,
  updateOtherCampaignConfiguration,
} from '../../server/repositories/other-campaigns.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import { openTestDatabase, withoutRowLevelSecurity, type TestDatabase } from '../support/database.js';
import { makeCompany, systemScope } from '../support/factories.js';
import { countRows, makeTestLocation, makeTestLocationGroup } from '../support/marketing.js';

describe('other campaigns repository', () => {
  let test: TestDatabase;
  let db: Database;
  let companyA: number;
  let companyB: number;
  let north: number;
  let south: number;
  let east: number;
  let downtown: number;

  beforeAll(async () => {
    test = await openTestDatabase();
    db = test.db;
    companyA = (await makeCompany(db, 'A')).id;
    companyB = (await makeCompany(db, 'B')).id;
    north = (await makeTestLocation(db, companyA, 'North')).id;
    south = (await makeTestLocation(db, companyA, 'South')).id;
    east = (await makeTestLocation(db, companyA, 'East')).id;
    downtown = (await makeTestLocationGroup(db, companyA, 'Downtown', [north, south])).id;
  });
  afterAll(() => test.drop());

  it('creates, reads, pages and updates configurations with their locations and groups', async () => {
    const scope = systemScope(companyA);
    const campaign = await db.tenant(scope.companyId, (sql) =>
      createCampaign(sql, scope, { name: 'Happy hour', kind: 'other' }),
    );
    const config = await db.tenant(scope.companyId, (sql) =>
      createOtherCampaignConfiguration(sql, scope, {
        campaign_id: campaign.id,
        name: 'Happy hour test',
        locations: [south, north, south],
        location_groups: [downtown],
        settings: { offer: '2 for 1', hours: ['16:00', '18:00'] },
      }),
    );
    expect(config).toMatchObject({
      company_id: companyA,
      campaign_id: campaign.id,
      locations: [south, north],
      location_groups: [downtown],
      settings: { offer: '2 for 1', hours: ['16:00', '18:00'] },
    });
    expect(
      await db.tenant(companyA, (sql) => getOtherCampaignConfiguration(sql, companyA, config.id)),
    ).toEqual(config);

    const second = await db.tenant(scope.companyId, (sql) =>
      createOtherCampaignConfiguration(sql, scope, {}),
    );
    expect(second).toMatchObject({
      campaign_id: null,
      name: '',
      locations: [],
      location_groups: [],
      settings: {},
    });
    const page = await db.tenant(companyA, (sql) =>
      listOtherCampaignConfigurations(sql, companyA, { limit: 1, offset: 0 }),
    );
    expect(page.count).toBe(2);
    expect(page.rows.map((row) => row.id)).toEqual([second.id]);

    const updated = await db.tenant(scope.companyId, (sql) =>
      updateOtherCampaignConfiguration(sql, scope, config.id, {
        locations: [east],
        campaign_id: null,
      }),
    );
    expect(updated).toMatchObject({
      locations: [east],
      location_groups: [downtown],
      campaign_id: null,
      name: 'Happy hour test',
    });
    const kept = await db.tenant(scope.companyId, (sql) =>
      updateOtherCampaignConfiguration(sql, scope, config.id, { name: 'Renamed' }),
    );
    expect(kept).toMatchObject({ locations: [east], campaign_id: null, name: 'Renamed' });
    expect(
      await db.tenant(scope.companyId, (sql) =>
        updateOtherCampaignConfiguration(sql, scope, 0, { name: 'Nothing' }),
      ),
    ).toBeNull();

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, {
        entity: 'other_campaign_configuration',
        entityId: config.id,
      }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['update', 'update', 'create']);
  });

  it('replaces the control stores of a configuration as a set', async () => {
    const scope = systemScope(companyA);
    const config = await db.tenant(scope.companyId, (sql) =>
      createOtherCampaignConfiguration(sql, scope, {
        name: 'Control test',
        locations: [north],
      }),
    );
    expect(await db.tenant(companyA, (sql) => getControlStores(sql, companyA, config.id))).toEqual([]);
    const stores = await db.tenant(scope.companyId, (sql) =>
      replaceControlStores(sql, scope, config.id, [
        { location_id: south },
        { location_id: east, is_control: false },
        { location_id: south, is_control: false },
      ]),
    );
    expect(stores?.map((s) => [s.location_id, s.is_control])).toEqual(
      [
        [south, false],
        [east, false],
      ].sort((x, y) => (x[0] as number) - (y[0] as number)),
    );
    const again = await db.tenant(scope.companyId, (sql) =>
      replaceControlStores(sql, scope, config.id, [{ location_id: east }]),
    );
    expect(again?.map((s) => [s.location_id, s.is_control])).toEqual([[east, true]]);
    expect(await db.tenant(companyA, (sql) => getControlStores(sql, companyA, config.id))).toEqual(again);
    expect(await db.tenant(scope.companyId, (sql) => replaceControlStores(sql, scope, 0, []))).toBeNull();
    expect(await db.tenant(companyA, (sql) => getControlStores(sql, companyA, 0))).toBeNull();
  });

  it("refuses another company's ids as references and leaves nothing half-written, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const b = systemScope(companyB);
      const theirLocation = (await makeTestLocation(guarded, companyB, 'Theirs')).id;
      const theirGroup = (await makeTestLocationGroup(guarded, companyB, 'Their group', [theirLocation])).id;
      const theirCampaign = (
        await guarded.tenant(b.companyId, (sql) =>
          createCampaign(sql, b, { name: 'Their campaign', kind: 'other' }),
        )
      ).id;
      const theirs = await guarded.tenant(b.companyId, (sql) =>
        createOtherCampaignConfiguration(sql, b, {
          name: 'Theirs',
          locations: [theirLocation],
        }),
      );
      const theirStores = await guarded.tenant(b.companyId, (sql) =>
        replaceControlStores(sql, b, theirs.id, [{ location_id: theirLocation }]),
      );

      const a = systemScope(companyA);
      const mine = await guarded.tenant(a.companyId, (sql) =>
        createOtherCampaignConfiguration(sql, a, { name: 'Mine', locations: [north] }),
      );
      const myStores = await guarded.tenant(a.companyId, (sql) =>
        replaceControlStores(sql, a, mine.id, [{ location_id: south }]),
      );
      const before = await countRows(guarded, 'other_campaign_configurations', companyA);

      await expect(
        guarded.tenant(a.companyId, (sql) =>
          createOtherCampaignConfiguration(sql, a, { locations: [north, theirLocation] }),
        ),
      ).rejects.toMatchObject({ name: 'UnknownReferenceError', field: 'locations', ids: [theirLocation] });
      await expect(
        guarded.tenant(a.companyId, (sql) =>
          createOtherCampaignConfiguration(sql, a, { location_groups: [theirGroup] }),
        ),
      ).rejects.toMatchObject({
        field: 'location_groups',
        ids: [theirGroup],
      });
      await expect(
        guarded.tenant(a.companyId, (sql) =>
          createOtherCampaignConfiguration(sql, a, { campaign_id: theirCampaign }),
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        guarded.tenant(a.companyId, (sql) =>
          updateOtherCampaignConfiguration(sql, a, mine.id, { name: 'Half', locations: [theirLocation] }),
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        guarded.tenant(a.companyId, (sql) =>
          replaceControlStores(sql, a, mine.id, [{ location_id: east }, { location_id: theirLocation }]),
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      expect(await countRows(guarded, 'other_campaign_configurations', companyA)).toBe(before);
      expect(
        await guarded.tenant(companyA, (sql) => getOtherCampaignConfiguration(sql, companyA, mine.id)),
      ).toEqual(mine);
      expect(await guarded.tenant(companyA, (sql) => getControlStores(sql, companyA, mine.id))).toEqual(
        myStores,
      );

      const list = await guarded.tenant(companyA, (sql) =>
        listOtherCampaignConfigurations(sql, companyA, { limit: 100, offset: 0 }),
      );
      expect(list.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(
        await guarded.tenant(companyA, (sql) => getOtherCampaignConfiguration(sql, companyA, theirs.id)),
      ).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) =>
          updateOtherCampaignConfiguration(sql, a, theirs.id, { name: 'Taken' }),
        ),
      ).toBeNull();
      expect(await guarded.tenant(companyA, (sql) => getControlStores(sql, companyA, theirs.id))).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) =>
          replaceControlStores(sql, a, theirs.id, [{ location_id: north }]),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(companyB, (sql) => getOtherCampaignConfiguration(sql, companyB, theirs.id)),
      ).toEqual(theirs);
      expect(await guarded.tenant(companyB, (sql) => getControlStores(sql, companyB, theirs.id))).toEqual(
        theirStores,
      );
    }
  });
});
