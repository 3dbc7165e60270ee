import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  createLocationGroup,
  deleteLocationGroup,
  getLocationGroup,
  listGroupLocations,
  listGroupsWithLocations,
  listLocationGroups,
  UnknownLocationsError,
  updateLocationGroup,
} from '../../server/repositories/location-groups.repository.js';
import {
  createLocation,
  deleteLocation,
  getLocation,
  listLocations,
  updateLocation,
  type LocationFields,
} from '../../server/repositories/locations.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

function fields(name: string, extra: Partial<LocationFields> = {}): LocationFields {
  return {
    name,
    street: '1 Main St',
    city: 'Portland',
    state: 'OR',
    zip: '97201',
    latitude: 45.5,
    longitude: -122.6,
    time_zone: 'America/Los_Angeles',
    ...extra,
  };
}

describe('locations and location groups repositories', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('creates, pages, searches, updates and deletes locations with an audit trail', async () => {
    const scope = systemScope(companyA);
    const harbor = await db.tenant(scope.companyId, (sql) =>
      createLocation(sql, scope, fields('Harbor Grill')),
    );
    await db.tenant(scope.companyId, (sql) =>
      createLocation(sql, scope, fields('Alder Street Cafe', { street: '9 Alder St', zip: '' })),
    );
    await db.tenant(scope.companyId, (sql) => createLocation(sql, scope, fields('Zinc 100% Bar')));

    const firstPage = await db.tenant(companyA, (sql) =>
      listLocations(sql, companyA, { limit: 2, offset: 0 }),
    );
    expect(firstPage.count).toBe(3);
    expect(firstPage.rows.map((row) => row.name)).toEqual(['Alder Street Cafe', 'Harbor Grill']);

    const search = await db.tenant(companyA, (sql) =>
      listLocations(sql, companyA, { q: '100%', limit: 10, offset: 0 }),
    );
    expect(search.rows.map((row) => row.name)).toEqual(['Zinc 100% Bar']);
    const noWildcard = await db.tenant(companyA, (sql) =>
      listLocations(sql, companyA, { q: '_', limit: 10, offset: 0 }),
    );
    expect(noWildcard.count).toBe(0);

    const renamed = await db.tenant(scope.companyId, (sql) =>
      updateLocation(sql, scope, harbor.id, { name: 'Harbor Grill & Bar', zip: '97202' }),
    );
    expect(renamed).toMatchObject({ name: 'Harbor Grill & Bar', zip: '97202', street: '1 Main St' });

    expect(await db.tenant(scope.companyId, (sql) => deleteLocation(sql, scope, harbor.id))).toBe(true);
    expect(await db.tenant(companyA, (sql) => getLocation(sql, companyA, harbor.id))).toBeNull();
    expect(await db.tenant(scope.companyId, (sql) => deleteLocation(sql, scope, harbor.id))).toBe(false);

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'location', entityId: harbor.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'update', 'create']);
  });

  it('keeps group membership to the company and answers an unknown group with null', async () => {
    const scope = systemScope(companyA);
    const one = await db.tenant(scope.companyId, (sql) => createLocation(sql, scope, fields('North')));
    const two = await db.tenant(scope.companyId, (sql) => createLocation(sql, scope, fields('South')));
    const foreign = await db.tenant(companyB, (sql) =>
      createLocation(sql, systemScope(companyB), fields('Elsewhere')),
    );

    const group = await db.tenant(scope.companyId, (sql) =>
      createLocationGroup(sql, scope, {
        name: 'Downtown',
        description: '',
        location_ids: [two.id, one.id],
      }),
    );
    expect(group.location_ids).toEqual([one.id, two.id].sort((a, b) => a - b));

    await expect(
      db.tenant(scope.companyId, (sql) =>
        createLocationGroup(sql, scope, { name: 'Bad', description: '', location_ids: [one.id, foreign.id] }),
      ),
    ).rejects.toBeInstanceOf(UnknownLocationsError);
    // The failed create left nothing behind.
    expect(
      (await db.tenant(companyA, (sql) => listLocationGroups(sql, companyA))).map((g) => g.name),
    ).toEqual(['Downtown']);

    const members = await db.tenant(companyA, (sql) => listGroupLocations(sql, companyA, group.id));
    expect(members?.map((l) => l.name)).toEqual(['North', 'South']);
    expect(await db.tenant(companyA, (sql) => listGroupLocations(sql, companyA, 0))).toBeNull();

    const updated = await db.tenant(scope.companyId, (sql) =>
      updateLocationGroup(sql, scope, group.id, { location_ids: [one.id] }),
    );
    expect(updated?.location_ids).toEqual([one.id]);
    const withLocations = await db.tenant(companyA, (sql) => listGroupsWithLocations(sql, companyA));
    expect(withLocations[0]?.locations.map((l) => l.name)).toEqual(['North']);

    expect(await db.tenant(scope.companyId, (sql) => deleteLocationGroup(sql, scope, group.id))).toBe(true);
    expect(await db.tenant(companyA, (sql) => getLocationGroup(sql, companyA, group.id))).toBeNull();
    expect(await db.tenant(companyA, (sql) => getLocation(sql, companyA, one.id))).not.toBeNull();
  });

  it("never returns or changes another company's rows, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirs = await guarded.tenant(companyB, (sql) =>
        createLocation(sql, systemScope(companyB), fields(`Theirs ${guarded === db}`)),
      );
      const theirGroup = await guarded.tenant(companyB, (sql) =>
        createLocationGroup(sql, systemScope(companyB), {
          name: 'Their group',
          description: '',
          location_ids: [theirs.id],
        }),
      );
      const mine = await guarded.tenant(companyA, (sql) =>
        listLocations(sql, companyA, { limit: 100, offset: 0 }),
      );
      expect(mine.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(await guarded.tenant(companyA, (sql) => getLocation(sql, companyA, theirs.id))).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) =>
          updateLocation(sql, systemScope(companyA), theirs.id, { name: 'Taken' }),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) => deleteLocation(sql, systemScope(companyA), theirs.id)),
      ).toBe(false);
      expect(
        await guarded.tenant(companyA, (sql) => getLocationGroup(sql, companyA, theirGroup.id)),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) => listGroupLocations(sql, companyA, theirGroup.id)),
      ).toBeNull();
      expect(
        (await guarded.tenant(companyA, (sql) => listLocationGroups(sql, companyA))).every(
          (g) => g.company_id === companyA,
        ),
      ).toBe(true);
      expect(
        await guarded.tenant(companyA, (sql) =>
          deleteLocationGroup(sql, systemScope(companyA), theirGroup.id),
        ),
      ).toBe(false);
      expect((await guarded.tenant(companyB, (sql) => getLocation(sql, companyB, theirs.id)))?.name).toBe(
        `Theirs ${guarded === db}`,
      );
    }
  });
});
