import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCompanyFeatures } from '../../server/repositories/company-features.repository.js';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';
import { systemScope } from '../support/factories.js';

describe('Company tokens API', () => {
  let t: TestApp;
  let company: ApiCaller;
  let admin: UserCaller;
  let otherOwner: UserCaller;

  beforeAll(async () => {
    t = await openTestApp();
    company = await t.newCaller('Tokens Co');
    admin = await t.newUser(company.companyId, 'admin');
    const other = await t.newCaller('Other Tokens Co');
    otherOwner = await t.newUser(other.companyId, 'owner');
  });
  afterAll(() => t.close());

  const call = (
    caller: { headers: { authorization: string } },
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: caller.headers });

  it('issues a token whose key is shown once, lists it without keys, and revokes it', async () => {
    const created = await call(admin, 'POST', '/api/accounts/company-tokens/', { name: 'POS loader' });
    expect(created.statusCode).toBe(201);
    const token = created.json();
    expect(token).toMatchObject({ name: 'POS loader', created_by: admin.userId, revoked_at: null });
    expect(token.key).toMatch(new RegExp(`^rgl_${token.key_prefix}_`));
    const keyHeaders = { headers: { authorization: `Token ${token.key}` } };
    expect((await call(keyHeaders, 'GET', '/api/customers/locations/')).statusCode).toBe(200);

    const list = await call(admin, 'GET', '/api/accounts/company-tokens/');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((row: { id: number }) => row.id)).toContain(token.id);
    expect(JSON.stringify(list.json())).not.toContain(token.key);
    expect(list.json()[0]).not.toHaveProperty('key');

    const revoked = await call(admin, 'DELETE', `/api/accounts/delete-company-token/${token.id}/`);
    expect(revoked.statusCode).toBe(204);
    const refused = await call(keyHeaders, 'GET', '/api/customers/locations/');
    expect(refused.statusCode).toBe(401);
    expect((await call(admin, 'DELETE', `/api/accounts/delete-company-token/${token.id}/`)).statusCode).toBe(
      404,
    );
    const listed = (await call(admin, 'GET', '/api/accounts/company-tokens/')).json();
    expect(listed.find((row: { id: number }) => row.id === token.id).revoked_at).not.toBeNull();
  });

  it("applies a change to the company's features on the token's next request", async () => {
    const caller = await t.newCaller('Feature Change Co');
    expect((await call(caller, 'GET', '/api/pos/guests/')).statusCode).toBe(200);
    await t.database.db.tenant(caller.companyId, (sql) =>
      setCompanyFeatures(sql, systemScope(caller.companyId), ['Locations']),
    );
    const refused = await call(caller, 'GET', '/api/pos/guests/');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('feature_not_enabled');
    expect((await call(caller, 'GET', '/api/customers/locations/')).statusCode).toBe(200);
  });

  it('validates the name', async () => {
    const response = await call(admin, 'POST', '/api/accounts/company-tokens/', { name: '  ' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ name: 'Name is required' });
  });

  it("neither shows nor revokes another company's tokens", async () => {
    const mine = (await call(admin, 'POST', '/api/accounts/company-tokens/', { name: 'Private' })).json();
    const theirs = (await call(otherOwner, 'GET', '/api/accounts/company-tokens/')).json();
    expect(theirs.map((row: { id: number }) => row.id)).not.toContain(mine.id);
    const attempt = await call(otherOwner, 'DELETE', `/api/accounts/delete-company-token/${mine.id}/`);
    expect(attempt.statusCode).toBe(404);
    const keyHeaders = { headers: { authorization: `Token ${mine.key}` } };
    expect((await call(keyHeaders, 'GET', '/api/customers/locations/')).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', '/api/accounts/delete-company-token/999999/')).statusCode).toBe(404);
  });

  it('is for signed-in admins and owners only', async () => {
    const marketer = await t.newUser(company.companyId, 'marketer');
    expect((await call(marketer, 'GET', '/api/accounts/company-tokens/')).json().error.code).toBe(
      'role_forbidden',
    );
    const viaToken = await call(company, 'POST', '/api/accounts/company-tokens/', { name: 'Self-minted' });
    expect(viaToken.statusCode).toBe(403);
    expect(viaToken.json().error.code).toBe('user_required');
  });
});
