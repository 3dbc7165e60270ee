import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';

describe('Company users API', () => {
  let t: TestApp;
  let company: ApiCaller;
  let owner: UserCaller;
  let admin: UserCaller;
  let other: UserCaller;

  beforeAll(async () => {
    t = await openTestApp();
    company = await t.newCaller('Users Co');
    owner = await t.newUser(company.companyId, 'owner');
    admin = await t.newUser(company.companyId, 'admin');
    const otherCompany = await t.newCaller('Other Co');
    other = await t.newUser(otherCompany.companyId, 'owner');
  });
  afterAll(() => t.close());

  const call = (
    caller: { headers: { authorization: string } },
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: caller.headers });

  const newUser = (caller: UserCaller, role: string, email: string) =>
    call(caller, 'POST', '/api/accounts/user/', {
      email,
      first_name: 'New',
      last_name: 'Person',
      role,
      password: 'first-password',
    });

  it('lists users in pages and searches them', async () => {
    const page = await call(admin, 'GET', '/api/accounts/user/?page_size=1');
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({
      count: 2,
      previous: null,
      next: '/api/accounts/user/?page_size=1&page=2',
    });
    const search = await call(admin, 'GET', `/api/accounts/user/?q=${encodeURIComponent(owner.email)}`);
    expect(search.json().results.map((user: { id: number }) => user.id)).toEqual([owner.userId]);
    expect(search.json().results[0]).not.toHaveProperty('password_hash');
  });

  it('lets an admin create and change non-owners; the new user can sign in', async () => {
    const created = await newUser(admin, 'marketer', 'marketer@users.example');
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ role: 'marketer', is_active: true, last_login_at: null });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      payload: { email: 'marketer@users.example', password: 'first-password' },
    });
    expect(login.statusCode).toBe(200);

    const id = created.json().id;
    const changed = await call(admin, 'PUT', `/api/accounts/user/${id}/`, {
      role: 'analyst',
      last_name: 'Renamed',
    });
    expect(changed.json()).toMatchObject({ role: 'analyst', last_name: 'Renamed', first_name: 'New' });

    const duplicate = await newUser(admin, 'analyst', 'MARKETER@users.example');
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.fields).toEqual({ email: 'Email is already in use' });
    const invalid = await newUser(admin, 'boss', 'x');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields).toMatchObject({
      email: 'Email is not valid',
      role: 'Role is not valid',
    });

    expect((await call(admin, 'DELETE', `/api/accounts/user/${id}/`)).statusCode).toBe(204);
    expect((await call(admin, 'PUT', `/api/accounts/user/${id}/`, { role: 'analyst' })).statusCode).toBe(404);
  });

  it('keeps owners to owners: only an owner creates, promotes, changes or deletes one', async () => {
    const refused = await newUser(admin, 'owner', 'would-be-owner@users.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('owner_required');
    expect(
      (await call(admin, 'PUT', `/api/accounts/user/${admin.userId}/`, { role: 'owner' })).statusCode,
    ).toBe(403);
    expect(
      (await call(admin, 'PUT', `/api/accounts/user/${owner.userId}/`, { first_name: 'X' })).statusCode,
    ).toBe(403);
    expect((await call(admin, 'DELETE', `/api/accounts/user/${owner.userId}/`)).statusCode).toBe(403);

    const second = await newUser(owner, 'owner', 'second-owner@users.example');
    expect(second.statusCode).toBe(201);
    const secondId = second.json().id;
    expect((await call(owner, 'PUT', `/api/accounts/user/${secondId}/`, { role: 'admin' })).json().role).toBe(
      'admin',
    );
    expect((await call(owner, 'DELETE', `/api/accounts/user/${secondId}/`)).statusCode).toBe(204);
  });

  it('never lets anyone delete or deactivate themselves, nor lose the last active owner', async () => {
    const self = await call(owner, 'PUT', `/api/accounts/user/${owner.userId}/`, { is_active: false });
    expect(self.statusCode).toBe(400);
    expect(self.json().error.fields).toEqual({ is_active: 'You cannot deactivate your own account' });
    expect((await call(admin, 'DELETE', `/api/accounts/user/${admin.userId}/`)).statusCode).toBe(400);

    const demote = await call(owner, 'PUT', `/api/accounts/user/${owner.userId}/`, { role: 'admin' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error.code).toBe('last_owner');
    const me = (await call(owner, 'GET', `/api/accounts/user/?q=${encodeURIComponent(owner.email)}`)).json();
    expect(me.results[0].role).toBe('owner');

    // With a second owner, the first may step down; the second then is the last and stays.
    const second = (await newUser(owner, 'owner', 'co-owner@users.example')).json();
    expect(
      (await call(owner, 'PUT', `/api/accounts/user/${owner.userId}/`, { role: 'admin' })).statusCode,
    ).toBe(200);
    const coOwner = await t.tokens.issue({ userId: second.id });
    const coHeaders = { headers: { authorization: `Bearer ${coOwner.access_token}` } };
    expect(
      (await call(coHeaders, 'PUT', `/api/accounts/user/${owner.userId}/`, { role: 'owner' })).statusCode,
    ).toBe(200);
    expect(
      (await call(owner, 'PUT', `/api/accounts/user/${second.id}/`, { is_active: false })).statusCode,
    ).toBe(200);
    const deactivated = await call(coHeaders, 'GET', '/api/accounts/verify/');
    expect(deactivated.statusCode).toBe(401);
    const deleteLast = await call(admin, 'DELETE', `/api/accounts/user/${owner.userId}/`);
    expect(deleteLast.statusCode).toBe(403);
  });

  it("hides another company's users: 404, never 403", async () => {
    for (const [method, payload] of [
      ['PUT', { first_name: 'Hacked' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(owner, method, `/api/accounts/user/${other.userId}/`, payload);
      expect(response.statusCode).toBe(404);
    }
    const list = (await call(owner, 'GET', '/api/accounts/user/?page_size=100')).json();
    expect(list.results.map((user: { id: number }) => user.id)).not.toContain(other.userId);
  });

  it('refuses marketers, analysts and company tokens', async () => {
    const analyst = await t.newUser(company.companyId, 'analyst');
    const marketer = await t.newUser(company.companyId, 'marketer');
    for (const caller of [analyst, marketer]) {
      const response = await call(caller, 'GET', '/api/accounts/user/');
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('role_forbidden');
    }
    const token = await call(company, 'GET', '/api/accounts/user/');
    expect(token.statusCode).toBe(403);
    expect(token.json().error.code).toBe('user_required');
  });
});
