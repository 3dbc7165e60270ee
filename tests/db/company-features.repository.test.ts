import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  hasCompanyFeature,
  listCompanyFeatures,
  setCompanyFeatures,
} from '../../server/repositories/company-features.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('company features repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('replaces the enabled set, keeping the enable time of features that stay', async () => {
    const scope = systemScope(companyA);
    expect(await db.tenant(companyA, (sql) => listCompanyFeatures(sql, companyA))).toEqual([]);
    expect(await db.tenant(companyA, (sql) => hasCompanyFeature(sql, companyA, 'guests'))).toBe(false);

    const first = await db.tenant(scope.companyId, (sql) =>
      setCompanyFeatures(sql, scope, ['guests', ' campaigns ', 'guests', '']),
    );
    expect(first.map((row) => row.feature)).toEqual(['campaigns', 'guests']);
    expect(await db.tenant(companyA, (sql) => hasCompanyFeature(sql, companyA, 'guests'))).toBe(true);
    expect(await db.tenant(companyA, (sql) => hasCompanyFeature(sql, companyA, 'Guests'))).toBe(false);

    const second = await db.tenant(scope.companyId, (sql) =>
      setCompanyFeatures(sql, scope, ['guests', 'flows']),
    );
    expect(second.map((row) => row.feature)).toEqual(['flows', 'guests']);
    const keptSince = first.find((row) => row.feature === 'guests')!.enabled_at;
    expect(second.find((row) => row.feature === 'guests')!.enabled_at).toEqual(keptSince);
    expect(await db.tenant(companyA, (sql) => hasCompanyFeature(sql, companyA, 'campaigns'))).toBe(false);

    expect(await db.tenant(scope.companyId, (sql) => setCompanyFeatures(sql, scope, []))).toEqual([]);
    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'company_features' }),
    );
    expect(audit.map((entry) => entry.after)).toEqual([[], ['flows', 'guests'], ['campaigns', 'guests']]);
    expect(audit[0]!.before).toEqual(['flows', 'guests']);
  });

  it("never returns or changes another company's features, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      await guarded.tenant(companyB, (sql) =>
        setCompanyFeatures(sql, systemScope(companyB), ['segments', 'invoices']),
      );
      await guarded.tenant(companyA, (sql) => setCompanyFeatures(sql, systemScope(companyA), ['guests']));
      expect(
        (await guarded.tenant(companyA, (sql) => listCompanyFeatures(sql, companyA))).map((row) => [
          row.company_id,
          row.feature,
        ]),
      ).toEqual([[companyA, 'guests']]);
      expect(await guarded.tenant(companyA, (sql) => hasCompanyFeature(sql, companyA, 'segments'))).toBe(
        false,
      );
      // Clearing A's features leaves B's alone.
      await guarded.tenant(companyA, (sql) => setCompanyFeatures(sql, systemScope(companyA), []));
      expect(
        (await guarded.tenant(companyB, (sql) => listCompanyFeatures(sql, companyB))).map(
          (row) => row.feature,
        ),
      ).toEqual(['invoices', 'segments']);
    }
  });
});
