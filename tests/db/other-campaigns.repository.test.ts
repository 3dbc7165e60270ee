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
    const campaign = await createCampaign(db, scope, { name: 'Happy hour', kind: 'other' });
    const config = await createOtherCampaignConfiguration(db, scope, {
      campaign_id: campaign.id,
      name: 'Happy hour test',
      locations: [south, north, south],
      location_groups: [downtown],
      settings: { offer: '2 for 1', hours: ['16:00', '18:00'] },
    });
    expect(config).toMatchObject({
      company_id: companyA,
      campaign_id: campaign.id,
      locations: [south, north],
      location_groups: [downtown],
      settings: { offer: '2 for 1', hours: ['16:00', '18:00'] },
    });
    expect(await getOtherCampaignConfiguration(db, companyA, config.id)).toEqual(config);

    const second = await createOtherCampaignConfiguration(db, scope, {});
    expect(second).toMatchObject({
      campaign_id: null,
      name: '',
      locations: [],
      location_groups: [],
      settings: {},
    });
    const page = await listOtherCampaignConfigurations(db, companyA, { limit: 1, offset: 0 });
    expect(page.count).toBe(2);
    expect(page.rows.map((row) => row.id)).toEqual([second.id]);

    const updated = await updateOtherCampaignConfiguration(db, scope, config.id, {
      locations: [east],
      campaign_id: null,
    });
    expect(updated).toMatchObject({
      locations: [east],
      location_groups: [downtown],
      campaign_id: null,
      name: 'Happy hour test',
    });
    const kept = await updateOtherCampaignConfiguration(db, scope, config.id, { name: 'Renamed' });
    expect(kept).toMatchObject({ locations: [east], campaign_id: null, name: 'Renamed' });
    expect(await updateOtherCampaignConfiguration(db, scope, 0, { name: 'Nothing' })).toBeNull();

    const audit = await listAudit(db, companyA, {
      entity: 'other_campaign_configuration',
      entityId: config.id,
    });
    expect(audit.map((entry) => entry.action)).toEqual(['update', 'update', 'create']);
  });

  it('replaces the control stores of a configuration as a set', async () => {
    const scope = systemScope(companyA);
    const config = await createOtherCampaignConfiguration(db, scope, {
      name: 'Control test',
      locations: [north],
    });
    expect(await getControlStores(db, companyA, config.id)).toEqual([]);
    const stores = await replaceControlStores(db, scope, config.id, [
      { location_id: south },
      { location_id: east, is_control: false },
      { location_id: south, is_control: false },
    ]);
    expect(stores?.map((s) => [s.location_id, s.is_control])).toEqual(
      [
        [south, false],
        [east, false],
      ].sort((x, y) => (x[0] as number) - (y[0] as number)),
    );
    const again = await replaceControlStores(db, scope, config.id, [{ location_id: east }]);
    expect(again?.map((s) => [s.location_id, s.is_control])).toEqual([[east, true]]);
    expect(await getControlStores(db, companyA, config.id)).toEqual(again);
    expect(await replaceControlStores(db, scope, 0, [])).toBeNull();
    expect(await getControlStores(db, companyA, 0)).toBeNull();
  });

  it("refuses another company's ids as references and leaves nothing half-written, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const b = systemScope(companyB);
      const theirLocation = (await makeTestLocation(guarded, companyB, 'Theirs')).id;
      const theirGroup = (await makeTestLocationGroup(guarded, companyB, 'Their group', [theirLocation])).id;
      const theirCampaign = (await createCampaign(guarded, b, { name: 'Their campaign', kind: 'other' })).id;
      const theirs = await createOtherCampaignConfiguration(guarded, b, {
        name: 'Theirs',
        locations: [theirLocation],
      });
      const theirStores = await replaceControlStores(guarded, b, theirs.id, [{ location_id: theirLocation }]);

      const a = systemScope(companyA);
      const mine = await createOtherCampaignConfiguration(guarded, a, { name: 'Mine', locations: [north] });
      const myStores = await replaceControlStores(guarded, a, mine.id, [{ location_id: south }]);
      const before = await countRows(guarded, 'other_campaign_configurations', companyA);

      await expect(
        createOtherCampaignConfiguration(guarded, a, { locations: [north, theirLocation] }),
      ).rejects.toMatchObject({ name: 'UnknownReferenceError', field: 'locations', ids: [theirLocation] });
      await expect(
        createOtherCampaignConfiguration(guarded, a, { location_groups: [theirGroup] }),
      ).rejects.toMatchObject({
        field: 'location_groups',
        ids: [theirGroup],
      });
      await expect(
        createOtherCampaignConfiguration(guarded, a, { campaign_id: theirCampaign }),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        updateOtherCampaignConfiguration(guarded, a, mine.id, { name: 'Half', locations: [theirLocation] }),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      await expect(
        replaceControlStores(guarded, a, mine.id, [{ location_id: east }, { location_id: theirLocation }]),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      expect(await countRows(guarded, 'other_campaign_configurations', companyA)).toBe(before);
      expect(await getOtherCampaignConfiguration(guarded, companyA, mine.id)).toEqual(mine);
      expect(await getControlStores(guarded, companyA, mine.id)).toEqual(myStores);

      const list = await listOtherCampaignConfigurations(guarded, companyA, { limit: 100, offset: 0 });
      expect(list.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(await getOtherCampaignConfiguration(guarded, companyA, theirs.id)).toBeNull();
      expect(await updateOtherCampaignConfiguration(guarded, a, theirs.id, { name: 'Taken' })).toBeNull();
      expect(await getControlStores(guarded, companyA, theirs.id)).toBeNull();
      expect(await replaceControlStores(guarded, a, theirs.id, [{ location_id: north }])).toBeNull();
      expect(await getOtherCampaignConfiguration(guarded, companyB, theirs.id)).toEqual(theirs);
      expect(await getControlStores(guarded, companyB, theirs.id)).toEqual(theirStores);
    }
  });
});
