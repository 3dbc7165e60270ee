import { describe, expect, it } from 'vitest';
import { generateCompanyKey, hashCompanyKey } from '../../server/auth/company-token.js';
import type { Database } from '../../server/db/database.js';
import { getCompany, listCompanies } from '../../server/repositories/companies.repository.js';
import {
  createCompanyToken,
  findActiveCompanyTokenByHash,
  listCompanyTokens,
  revokeCompanyToken,
} from '../../server/repositories/company-tokens.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('companies and company tokens repositories', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('stores only a hash, finds a live key, and stops finding it once revoked', async () => {
    const key = generateCompanyKey();
    expect(key.key).toMatch(/^rgl_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
    expect(key.keyHash).toBe(hashCompanyKey(key.key));
    const token = await db.tenant(companyA, (sql) =>
      createCompanyToken(sql, companyA, {
        name: 'Zapier',
        keyPrefix: key.keyPrefix,
        keyHash: key.keyHash,
        createdBy: null,
      }),
    );
    expect(JSON.stringify(token)).not.toContain(key.key);

    const found = await db.platform((sql) => findActiveCompanyTokenByHash(sql, hashCompanyKey(key.key)));
    expect(found).toMatchObject({ id: token.id, company_id: companyA });
    expect(found?.last_used_at).toBeInstanceOf(Date);
    expect(
      await db.platform((sql) => findActiveCompanyTokenByHash(sql, hashCompanyKey(`${key.key}x`))),
    ).toBeNull();

    expect(await db.tenant(companyA, (sql) => revokeCompanyToken(sql, companyA, token.id))).toBe(true);
    expect(await db.tenant(companyA, (sql) => revokeCompanyToken(sql, companyA, token.id))).toBe(false);
    expect(await db.platform((sql) => findActiveCompanyTokenByHash(sql, key.keyHash))).toBeNull();
    expect(
      (await db.tenant(companyA, (sql) => listCompanyTokens(sql, companyA)))[0]?.revoked_at,
    ).toBeInstanceOf(Date);
  });

  it("never lists or revokes another company's tokens, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const key = generateCompanyKey();
      const theirs = await guarded.tenant(companyB, (sql) =>
        createCompanyToken(sql, companyB, {
          name: 'B key',
          keyPrefix: key.keyPrefix,
          keyHash: key.keyHash,
          createdBy: null,
        }),
      );
      expect(
        (await guarded.tenant(companyA, (sql) => listCompanyTokens(sql, companyA))).every(
          (t) => t.company_id === companyA,
        ),
      ).toBe(true);
      expect(await guarded.tenant(companyA, (sql) => revokeCompanyToken(sql, companyA, theirs.id))).toBe(
        false,
      );
      expect(await guarded.platform((sql) => findActiveCompanyTokenByHash(sql, key.keyHash))).not.toBeNull();
      expect((await guarded.tenant(companyA, (sql) => getCompany(sql, companyA)))?.name).toBe('A');
    }
    expect((await db.platform((sql) => listCompanies(sql))).map((c) => c.id)).toEqual(
      expect.arrayContaining([companyA, companyB]),
    );
    // A tenant transaction sees only its own company row.
    const visible = await db.tenant(
      companyA,
      async (sql) => (await sql.query<{ id: number }>('SELECT id FROM companies')).rows,
    );
    expect(visible.map((row) => row.id)).toEqual([companyA]);
  });
});
