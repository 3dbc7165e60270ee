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
    const harbor = await createLocation(db, scope, fields('Harbor Grill'));
    await createLocation(db, scope, fields('Alder Street Cafe', { street: '9 Alder St', zip: '' }));
    await createLocation(db, scope, fields('Zinc 100% Bar'));

    const firstPage = await listLocations(db, companyA, { limit: 2, offset: 0 });
    expect(firstPage.count).toBe(3);
    expect(firstPage.rows.map((row) => row.name)).toEqual(['Alder Street Cafe', 'Harbor Grill']);

    const search = await listLocations(db, companyA, { q: '100%', limit: 10, offset: 0 });
    expect(search.rows.map((row) => row.name)).toEqual(['Zinc 100% Bar']);
    const noWildcard = await listLocations(db, companyA, { q: '_', limit: 10, offset: 0 });
    expect(noWildcard.count).toBe(0);

    const renamed = await updateLocation(db, scope, harbor.id, { name: 'Harbor Grill & Bar', zip: '97202' });
    expect(renamed).toMatchObject({ name: 'Harbor Grill & Bar', zip: '97202', street: '1 Main St' });

    expect(await deleteLocation(db, scope, harbor.id)).toBe(true);
    expect(await getLocation(db, companyA, harbor.id)).toBeNull();
    expect(await deleteLocation(db, scope, harbor.id)).toBe(false);

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'location', entityId: harbor.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'update', 'create']);
  });

  it('keeps group membership to the company and answers an unknown group with null', async () => {
    const scope = systemScope(companyA);
    const one = await createLocation(db, scope, fields('North'));
    const two = await createLocation(db, scope, fields('South'));
    const foreign = await createLocation(db, systemScope(companyB), fields('Elsewhere'));

    const group = await createLocationGroup(db, scope, {
      name: 'Downtown',
      description: '',
      location_ids: [two.id, one.id],
    });
    expect(group.location_ids).toEqual([one.id, two.id].sort((a, b) => a - b));

    await expect(
      createLocationGroup(db, scope, { name: 'Bad', description: '', location_ids: [one.id, foreign.id] }),
    ).rejects.toBeInstanceOf(UnknownLocationsError);
    // The failed create left nothing behind.
    expect((await listLocationGroups(db, companyA)).map((g) => g.name)).toEqual(['Downtown']);

    const members = await listGroupLocations(db, companyA, group.id);
    expect(members?.map((l) => l.name)).toEqual(['North', 'South']);
    expect(await listGroupLocations(db, companyA, 0)).toBeNull();

    const updated = await updateLocationGroup(db, scope, group.id, { location_ids: [one.id] });
    expect(updated?.location_ids).toEqual([one.id]);
    const withLocations = await listGroupsWithLocations(db, companyA);
    expect(withLocations[0]?.locations.map((l) => l.name)).toEqual(['North']);

    expect(await deleteLocationGroup(db, scope, group.id)).toBe(true);
    expect(await getLocationGroup(db, companyA, group.id)).toBeNull();
    expect(await getLocation(db, companyA, one.id)).not.toBeNull();
  });

  it("never returns or changes another company's rows, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirs = await createLocation(guarded, systemScope(companyB), fields(`Theirs ${guarded === db}`));
      const theirGroup = await createLocationGroup(guarded, systemScope(companyB), {
        name: 'Their group',
        description: '',
        location_ids: [theirs.id],
      });
      const mine = await listLocations(guarded, companyA, { limit: 100, offset: 0 });
      expect(mine.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(await getLocation(guarded, companyA, theirs.id)).toBeNull();
      expect(await updateLocation(guarded, systemScope(companyA), theirs.id, { name: 'Taken' })).toBeNull();
      expect(await deleteLocation(guarded, systemScope(companyA), theirs.id)).toBe(false);
      expect(await getLocationGroup(guarded, companyA, theirGroup.id)).toBeNull();
      expect(await listGroupLocations(guarded, companyA, theirGroup.id)).toBeNull();
      expect((await listLocationGroups(guarded, companyA)).every((g) => g.company_id === companyA)).toBe(
        true,
      );
      expect(await deleteLocationGroup(guarded, systemScope(companyA), theirGroup.id)).toBe(false);
      expect((await getLocation(guarded, companyB, theirs.id))?.name).toBe(`Theirs ${guarded === db}`);
    }
  });
});
