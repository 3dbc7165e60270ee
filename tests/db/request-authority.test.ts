import { describe, expect, it } from 'vitest';
import { generateCompanyKey } from '../../server/auth/company-token.js';
import type { Database } from '../../server/db/database.js';
import { setCompanyFeatures } from '../../server/repositories/company-features.repository.js';
import {
  createCompanyToken,
  findActiveCompanyTokenByHash,
  revokeCompanyToken,
} from '../../server/repositories/company-tokens.repository.js';
import { recordRevokedGrant } from '../../server/repositories/revoked-grants.repository.js';
import { findTokenAuthority, revokeUserTokens } from '../../server/repositories/users.repository.js';
import { makeUser, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

// The one statement each request's credentials are checked with: whatever changed before it is seen.
describe('request authority in one statement', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  const newToken = async (companyId: number) => {
    const key = generateCompanyKey();
    const row = await db.tenant(companyId, (sql) =>
      createCompanyToken(sql, companyId, {
        name: 'loader',
        keyPrefix: key.keyPrefix,
        keyHash: key.keyHash,
        createdBy: null,
      }),
    );
    return { id: row.id, hash: key.keyHash };
  };
  const lookUp = (hash: string) => db.platform((sql) => findActiveCompanyTokenByHash(sql, hash));
  const setFeatures = (companyId: number, features: string[]) =>
    db.tenant(companyId, (sql) => setCompanyFeatures(sql, systemScope(companyId), features));
  const setLastUsed = (tokenId: number, secondsAgo: number) =>
    db.owner((sql) =>
      sql.query(`UPDATE company_tokens SET last_used_at = now() - make_interval(secs => $2) WHERE id = $1`, [
        tokenId,
        secondsAgo,
      ]),
    );
  const lastUsed = async (tokenId: number) =>
    (
      await db.owner((sql) =>
        sql.query<{ seconds: number }>(
          `SELECT extract(epoch FROM now() - last_used_at)::int AS seconds FROM company_tokens WHERE id = $1`,
          [tokenId],
        ),
      )
    ).rows[0]!.seconds;

  it("gives a live token with its own company's features, and each change on the next look-up", async () => {
    await setFeatures(companyA, ['Subscribers', 'Locations']);
    await setFeatures(companyB, ['Campaigns']);
    const token = await newToken(companyA);
    expect(await lookUp(token.hash)).toMatchObject({
      id: token.id,
      company_id: companyA,
      features: ['Locations', 'Subscribers'],
    });
    await setFeatures(companyA, ['Locations']);
    expect((await lookUp(token.hash))?.features).toEqual(['Locations']);
    await setFeatures(companyA, []);
    expect((await lookUp(token.hash))?.features).toEqual([]);
    expect(await db.tenant(companyA, (sql) => revokeCompanyToken(sql, companyA, token.id))).toBe(true);
    expect(await lookUp(token.hash)).toBeNull();
  });

  it('records a use when the last record is older than a minute, not on every request', async () => {
    const token = await newToken(companyB);
    await setLastUsed(token.id, 600);
    expect((await lookUp(token.hash))?.last_used_at).toBeInstanceOf(Date);
    expect(await lastUsed(token.id)).toBeLessThan(5);
    await setLastUsed(token.id, 30);
    await lookUp(token.hash);
    expect(await lastUsed(token.id)).toBeGreaterThanOrEqual(29);
  });

  it("gives a Bearer token's user with features, its grant's revocation and its logout time", async () => {
    await setFeatures(companyA, ['Subscribers']);
    const user = await makeUser(db, companyA, { role: 'admin' });
    const read = (grantId: string | null, by: { id: number } | { email: string } = { id: user.id }) =>
      db.platform((sql) => findTokenAuthority(sql, by, grantId));

    const plain = await read(null);
    expect(plain.grantRevoked).toBe(false);
    expect(plain.user).toMatchObject({
      id: user.id,
      company_id: companyA,
      role: 'admin',
      is_active: true,
      tokens_valid_after: null,
      features: ['Subscribers'],
    });
    expect((await read(null, { email: ` ${user.email.toUpperCase()} ` })).user?.id).toBe(user.id);

    expect((await read('grant-live')).grantRevoked).toBe(false);
    await db.platform((sql) => recordRevokedGrant(sql, 'grant-gone', 60));
    expect(await read('grant-gone')).toMatchObject({ grantRevoked: true, user: { id: user.id } });

    await db.tenant(companyA, (sql) => revokeUserTokens(sql, companyA, user.id));
    expect((await read(null)).user?.tokens_valid_after).toBeInstanceOf(Date);

    expect(await read('grant-gone', { id: 2 ** 40 })).toEqual({ user: null, grantRevoked: true });
    expect(await read(null, { email: 'nobody@example.com' })).toEqual({ user: null, grantRevoked: false });
  });
});
