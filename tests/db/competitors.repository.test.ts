import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  createCompetitor,
  deleteCompetitor,
  listCompetitors,
  type CompetitorInput,
} from '../../server/repositories/competitors.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { countRows, makeTestLocation } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

function competitor(
  locationId: number | null,
  name: string,
  extra: Partial<CompetitorInput> = {},
): CompetitorInput {
  return { location_id: locationId, name, latitude: 45.52, longitude: -122.68, ...extra };
}

describe('competitors repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it("lists each location's set by name, keeps company-wide entries apart and deletes once", async () => {
    const scope = systemScope(companyA);
    const harbor = await makeTestLocation(db, companyA, 'Harbor');
    const alder = await makeTestLocation(db, companyA, 'Alder');
    const taco = await db.tenant(scope.companyId, (sql) =>
      createCompetitor(
        sql,
        scope,
        competitor(harbor.id, 'Taco Town', { category: 'Mexican', price_level: 2, rating: 4.5 }),
      ),
    );
    await db.tenant(scope.companyId, (sql) =>
      createCompetitor(sql, scope, competitor(harbor.id, 'burger barn')),
    );
    await db.tenant(scope.companyId, (sql) =>
      createCompetitor(sql, scope, competitor(alder.id, 'Noodle Nook')),
    );
    await db.tenant(scope.companyId, (sql) =>
      createCompetitor(sql, scope, competitor(null, 'Citywide Chain')),
    );

    expect(taco).toMatchObject({
      company_id: companyA,
      location_id: harbor.id,
      category: 'Mexican',
      latitude: 45.52,
      longitude: -122.68,
      price_level: 2,
      rating: 4.5,
    });
    expect(
      (await db.tenant(companyA, (sql) => listCompetitors(sql, companyA, harbor.id))).map((c) => c.name),
    ).toEqual(['burger barn', 'Taco Town']);
    expect(
      (await db.tenant(companyA, (sql) => listCompetitors(sql, companyA, alder.id))).map((c) => c.name),
    ).toEqual(['Noodle Nook']);
    expect(
      (await db.tenant(companyA, (sql) => listCompetitors(sql, companyA, null))).map((c) => c.name),
    ).toEqual(['Citywide Chain']);

    expect(await db.tenant(scope.companyId, (sql) => deleteCompetitor(sql, scope, taco.id))).toBe(true);
    expect(await db.tenant(scope.companyId, (sql) => deleteCompetitor(sql, scope, taco.id))).toBe(false);
    expect(
      (await db.tenant(companyA, (sql) => listCompetitors(sql, companyA, harbor.id))).map((c) => c.name),
    ).toEqual(['burger barn']);
    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'competitor', entityId: taco.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'create']);
  });

  it("never reads, deletes or points at another company's rows, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirLocation = await makeTestLocation(guarded, companyB, 'Theirs');
      const theirs = await guarded.tenant(companyB, (sql) =>
        createCompetitor(sql, systemScope(companyB), competitor(theirLocation.id, 'Their rival')),
      );
      await guarded.tenant(companyB, (sql) =>
        createCompetitor(sql, systemScope(companyB), competitor(null, 'Their citywide')),
      );

      const a = systemScope(companyA);
      expect(
        await guarded.tenant(companyA, (sql) => listCompetitors(sql, companyA, theirLocation.id)),
      ).toEqual([]);
      expect(
        (await guarded.tenant(companyA, (sql) => listCompetitors(sql, companyA, null))).every(
          (c) => c.company_id === companyA,
        ),
      ).toBe(true);
      expect(await guarded.tenant(a.companyId, (sql) => deleteCompetitor(sql, a, theirs.id))).toBe(false);
      const before = await countRows(guarded, 'competitors', companyA);
      await expect(
        guarded.tenant(a.companyId, (sql) =>
          createCompetitor(sql, a, competitor(theirLocation.id, 'Sneaky')),
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      expect(await countRows(guarded, 'competitors', companyA)).toBe(before);
      expect(
        (await guarded.tenant(companyB, (sql) => listCompetitors(sql, companyB, theirLocation.id))).map(
          (c) => c.id,
        ),
      ).toEqual([theirs.id]);
    }
  });
});
