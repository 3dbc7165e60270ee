import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildAppWithServices } from '../../server/app.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import { authConfigService } from '../../server/services/auth-config.service.js';
import {
  SignInRejectedError,
  SignInThrottledError,
  verifyCredentials,
} from '../../server/auth/credentials.js';
import { hashPassword, verifyPassword } from '../../server/auth/passwords.js';
import type { Principal } from '../../server/auth/principal.js';
import type { Database } from '../../server/db/database.js';
import { ApiError } from '../../server/http/errors.js';
import { accountsService } from '../../server/services/accounts.service.js';
import { registerCompany, UserEmailTakenError } from '../../server/services/registration.service.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { listCompanyFeatures } from '../../server/repositories/company-features.repository.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import { LOGIN_FAILED_MESSAGE } from '../../src/schemas/accounts.js';
import { openTestApp, type TestApp } from '../support/app.js';
import { makeCompany, makeUser } from '../support/factories.js';
import { changeAfterFirstTransaction } from '../db/support/between-transactions.js';

let t: TestApp;

beforeAll(async () => {
  t = await openTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('verifyCredentials', () => {
  it('accepts the right password and refuses everything else with one message', async () => {
    const company = await makeCompany(t.database.db);
    const user = await makeUser(t.database.db, company.id, {
      email: 'cred@example.com',
      password_hash: await hashPassword('right-password'),
    });
    const ok = await verifyCredentials(t.database.db, {
      email: 'CRED@example.com',
      password: 'right-password',
      address: '10.0.0.1',
    });
    expect(ok.id).toBe(user.id);
    for (const [email, password] of [
      ['cred@example.com', 'wrong-password'],
      ['nobody@example.com', 'right-password'],
    ] as const) {
      const error = await verifyCredentials(t.database.db, { email, password, address: '10.0.0.1' }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(SignInRejectedError);
      expect((error as Error).message).toBe(LOGIN_FAILED_MESSAGE);
    }
  });

  it('throttles an account after five failures, even for the right password', async () => {
    const company = await makeCompany(t.database.db);
    await makeUser(t.database.db, company.id, {
      email: 'throttle@example.com',
      password_hash: await hashPassword('right-password'),
    });
    for (let i = 0; i < 5; i += 1) {
      await expect(
        verifyCredentials(t.database.db, {
          email: 'throttle@example.com',
          password: 'nope-nope',
          address: `10.1.0.${i}`,
        }),
      ).rejects.toBeInstanceOf(SignInRejectedError);
    }
    const error = await verifyCredentials(t.database.db, {
      email: 'throttle@example.com',
      password: 'right-password',
      address: '10.1.0.99',
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignInThrottledError);
    expect((error as SignInThrottledError).retryAfterSeconds).toBeGreaterThan(800);
    const keys = await t.database.db.owner(
      async (sql) => (await sql.query<{ key: string }>('SELECT key FROM sign_in_failures')).rows,
    );
    expect(keys.every((row) => /^(account|address):[0-9a-f]{64}$/.test(row.key))).toBe(true);
  });
});

describe('registerCompany', () => {
  it('creates the company with every feature and its owner, and refuses a taken email whole', async () => {
    const input = {
      company_name: 'Café Nova',
      first_name: 'Nova',
      last_name: 'Owner',
      email: 'nova@example.com',
      password: 'long-enough',
      confirm_password: 'long-enough',
      accept_terms: true as const,
    };
    const owner = await registerCompany(t.database.db, input);
    expect(owner).toMatchObject({ role: 'owner', username: 'nova@example.com', is_active: true });
    const features = await t.database.db.tenant(owner.company_id, (sql) =>
      listCompanyFeatures(sql, owner.company_id),
    );
    expect(features.map((row) => row.feature).sort()).toEqual([...ALL_FEATURES].sort());

    const count = () =>
      t.database.db.owner(
        async (sql) =>
          (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM companies')).rows[0]!.n,
      );
    const before = await count();
    await expect(
      registerCompany(t.database.db, { ...input, email: 'NOVA@example.com', company_name: 'Other' }),
    ).rejects.toBeInstanceOf(UserEmailTakenError);
    expect(await count()).toBe(before);
  });

  it("records the sign-up in the owner's name: their own creation, the company and its features", async () => {
    const owner = await registerCompany(t.database.db, {
      company_name: 'Audit Bistro',
      first_name: 'Aude',
      last_name: 'Owner',
      email: 'aude@example.com',
      password: 'long-enough',
      confirm_password: 'long-enough',
      accept_terms: true as const,
    });
    const entries = await t.database.db.tenant(owner.company_id, (sql) => listAudit(sql, owner.company_id));
    const starters = await t.database.db.tenant(owner.company_id, async (sql) => {
      const { rows } = await sql.query<{ id: string | number }>(
        'SELECT s.id FROM segments s WHERE s.company_id = $1 ORDER BY s.id',
        [owner.company_id],
      );
      return rows.map((row) => String(row.id));
    });
    expect(
      entries
        .map(({ action, entity, entity_id, user_id, actor_user_id }) => ({
          action,
          entity,
          entity_id,
          user_id,
          actor_user_id,
        }))
        .reverse(),
    ).toEqual([
      {
        action: 'create',
        entity: 'user',
        entity_id: String(owner.id),
        user_id: owner.id,
        actor_user_id: owner.id,
      },
      {
        action: 'create',
        entity: 'company',
        entity_id: String(owner.company_id),
        user_id: owner.id,
        actor_user_id: owner.id,
      },
      {
        action: 'update',
        entity: 'company_features',
        entity_id: String(owner.company_id),
        user_id: owner.id,
        actor_user_id: owner.id,
      },
      // The seven starter segments and their figures (docs/segments.md), in the owner's name too.
      ...starters.flatMap((id) =>
        ['segment', 'segment_cache'].map((entity) => ({
          action: 'create',
          entity,
          entity_id: id,
          user_id: owner.id,
          actor_user_id: owner.id,
        })),
      ),
    ]);
    expect(starters).toHaveLength(7);
    // The owner's entry holds a fingerprint of the address, never the address itself.
    expect(JSON.stringify(entries)).not.toContain('aude@example.com');
  });
});

describe('accountsService.changePassword', () => {
  it('answers 409 and keeps the other change when the password changed between its check and its write', async () => {
    const company = await makeCompany(t.database.db);
    const user = await makeUser(t.database.db, company.id, {
      email: 'race@example.com',
      password_hash: await hashPassword('first-password'),
    });
    const principal: Principal = {
      companyId: company.id,
      userId: user.id,
      actorUserId: user.id,
      tokenId: null,
      role: user.role,
      isStaff: false,
      features: new Set(),
      impersonationId: null,
    };
    const scope = { companyId: company.id, userId: user.id, actorUserId: user.id };
    const change = (db: Database, to: string) =>
      accountsService(db, t.auth, t.tokens).changePassword(principal, scope, {
        current_password: 'first-password',
        new_password: to,
        confirm_password: to,
      });
    // Another browser of the same user changes the password right after this call has read the old hash.
    const raced = changeAfterFirstTransaction(t.database.db, async (db) => {
      await change(db, 'other-browser-password');
    });

    const error = await change(raced.db, 'this-browser-password').catch((caught: unknown) => caught);

    expect(raced.changed()).toBe(true);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'password_changed' });
    const stored = await t.database.db.owner(
      async (sql) =>
        (await sql.query<{ h: string }>('SELECT password_hash AS h FROM users WHERE id = $1', [user.id]))
          .rows[0]!.h,
    );
    expect(await verifyPassword(stored, 'other-browser-password')).toBe(true);
    const changes = await t.database.db.tenant(company.id, (sql) =>
      listAudit(sql, company.id, { entity: 'user_password', entityId: user.id }),
    );
    expect(changes).toHaveLength(1);
  });
});

describe('Accounts API', () => {
  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    headers: Record<string, string> = {},
    payload?: object,
    remoteAddress?: string,
  ) => t.app.inject({ method, url, headers, payload, ...(remoteAddress ? { remoteAddress } : {}) });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('answers the embedded sign-in configuration to anyone', async () => {
    const response = await call('GET', '/api/auth/config/');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      issuer: 'http://localhost:3000/oidc',
      authorization_endpoint: 'http://localhost:3000/oidc/auth',
      token_endpoint: 'http://localhost:3000/oidc/token',
      end_session_endpoint: 'http://localhost:3000/oidc/session/end',
      client_id: 'regulars-web',
      redirect_uri: 'http://localhost:3000/authenticate',
      scope: 'openid profile email api',
      resource: 'http://localhost:3000/api',
    });
  });

  it('signs in with the right credentials and refuses wrong ones with the one message', async () => {
    const company = await makeCompany(t.database.db, 'Login Co');
    await makeUser(t.database.db, company.id, {
      email: 'login@example.com',
      password_hash: await hashPassword('right-password'),
      role: 'analyst',
    });
    const ok = await call(
      'POST',
      '/api/accounts/login/',
      {},
      {
        email: 'login@example.com',
        password: 'right-password',
      },
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    const me = await call('GET', '/api/accounts/verify/', bearer(ok.json().access_token));
    expect(me.json()).toMatchObject({ email: 'login@example.com', role: 'analyst', impersonator: null });
    // The company's zone, the dashboards' "today" in the browser (the demo companies' default zone).
    expect(me.json().company).toEqual({ id: company.id, name: 'Login Co', time_zone: company.time_zone });

    const wrong = await call(
      'POST',
      '/api/accounts/login/',
      {},
      {
        email: 'login@example.com',
        password: 'wrong-password',
      },
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: { code: 'login_failed', message: LOGIN_FAILED_MESSAGE } });
    const unknown = await call(
      'POST',
      '/api/accounts/login/',
      {},
      {
        email: 'ghost@example.com',
        password: 'right-password',
      },
    );
    expect(unknown.json()).toEqual(wrong.json());

    const invalid = await call('POST', '/api/accounts/login/', {}, { email: 'not-an-email', password: '' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields).toMatchObject({
      email: 'Email is not valid',
      password: 'Password is required',
    });
    // The codes the interface translates, beside the English messages.
    expect(invalid.json().error.field_problems).toMatchObject({
      email: { code: 'not_valid' },
      password: { code: 'required' },
    });
  });

  it('answers 429 with Retry-After once an address has failed too often', async () => {
    const address = '10.20.30.40';
    for (let i = 0; i < 20; i += 1) {
      const response = await call(
        'POST',
        '/api/accounts/login/',
        {},
        { email: `guess-${i}@example.com`, password: 'guessing' },
        address,
      );
      expect(response.statusCode).toBe(401);
    }
    const throttled = await call(
      'POST',
      '/api/accounts/login/',
      {},
      { email: 'another@example.com', password: 'guessing' },
      address,
    );
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.json().error.code).toBe('too_many_attempts');
  });

  it('registers a company whose owner is signed in with every feature; a taken email is 409', async () => {
    const registration = {
      company_name: 'Harbor Group',
      first_name: 'Hana',
      last_name: 'Harbor',
      email: 'hana@example.com',
      password: 'harbor-pass',
      confirm_password: 'harbor-pass',
      accept_terms: true,
    };
    const created = await call('POST', '/api/accounts/register/', {}, registration);
    expect(created.statusCode).toBe(201);
    const me = (await call('GET', '/api/accounts/verify/', bearer(created.json().access_token))).json();
    expect(me).toMatchObject({
      email: 'hana@example.com',
      username: 'hana@example.com',
      role: 'owner',
      is_staff: false,
      company: { name: 'Harbor Group' },
      settings: { language: 'en', communication: { email: true, sms: false, phone: false } },
      impersonator: null,
    });
    expect([...me.features].sort()).toEqual([...ALL_FEATURES].sort());

    const taken = await call('POST', '/api/accounts/register/', {}, { ...registration, company_name: 'Dup' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields).toEqual({ email: 'Email is already in use' });
    expect(taken.json().error.field_problems).toEqual({ email: { code: 'in_use' } });

    const terms = await call(
      'POST',
      '/api/accounts/register/',
      {},
      {
        ...registration,
        email: 'new@example.com',
        accept_terms: false,
      },
    );
    expect(terms.statusCode).toBe(400);
    expect(terms.json().error.fields).toEqual({ accept_terms: 'Accepting terms & conditions are required' });
    const mismatch = await call(
      'POST',
      '/api/accounts/register/',
      {},
      {
        ...registration,
        email: 'new@example.com',
        confirm_password: 'different',
      },
    );
    expect(mismatch.json().error.fields).toEqual({ confirm_password: 'Confirm password is not valid' });
  });

  it('changes the password: the current one is checked, old tokens stop, a fresh token works', async () => {
    const company = await makeCompany(t.database.db, 'Password Co');
    const user = await makeUser(t.database.db, company.id, {
      email: 'pw@example.com',
      password_hash: await hashPassword('first-password'),
    });
    const old = (await t.tokens.issue({ userId: user.id })).access_token;
    const wrong = await call('PUT', '/api/accounts/password/', bearer(old), {
      current_password: 'not-it',
      new_password: 'second-password',
      confirm_password: 'second-password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ current_password: 'Current password is not valid' });

    const changed = await call('PUT', '/api/accounts/password/', bearer(old), {
      current_password: 'first-password',
      new_password: 'second-password',
      confirm_password: 'second-password',
    });
    expect(changed.statusCode).toBe(200);
    expect((await call('GET', '/api/accounts/verify/', bearer(old))).statusCode).toBe(401);
    expect((await call('GET', '/api/accounts/verify/', bearer(changed.json().access_token))).statusCode).toBe(
      200,
    );
    const hash = await t.database.db.owner(
      async (sql) =>
        (await sql.query<{ h: string }>('SELECT password_hash AS h FROM users WHERE id = $1', [user.id]))
          .rows[0]!.h,
    );
    expect(hash.startsWith('$argon2id$')).toBe(true);
    const signIn = await call(
      'POST',
      '/api/accounts/login/',
      {},
      {
        email: 'pw@example.com',
        password: 'second-password',
      },
    );
    expect(signIn.statusCode).toBe(200);
  });

  it('logs out: every token of the user stops and their provider sessions end', async () => {
    const company = await makeCompany(t.database.db, 'Logout Co');
    const user = await makeUser(t.database.db, company.id, { role: 'analyst' });
    const token = (await t.tokens.issue({ userId: user.id })).access_token;
    await t.database.db.owner((sql) =>
      sql.query(
        `INSERT INTO oidc_payloads (model, id, payload, account_id) VALUES ('Session', 'sess-1', '{}', $1)`,
        [String(user.id)],
      ),
    );
    const out = await call('GET', '/api/accounts/logout/', bearer(token));
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    expect((await call('GET', '/api/accounts/verify/', bearer(token))).statusCode).toBe(401);
    const sessions = await t.database.db.owner(
      async (sql) =>
        (await sql.query('SELECT 1 FROM oidc_payloads WHERE account_id = $1', [String(user.id)])).rows,
    );
    expect(sessions).toEqual([]);
  });

  it('accepts a token issued the moment after a logout, in the same second, and refuses the one before', async () => {
    const company = await makeCompany(t.database.db, 'Quick Co');
    const user = await makeUser(t.database.db, company.id, { role: 'analyst' });
    // Whole-second `iat` cannot separate these two; the millisecond claim must.
    const before = (await t.tokens.issue({ userId: user.id })).access_token;
    expect((await call('GET', '/api/accounts/logout/', bearer(before))).statusCode).toBe(200);
    const after = (await t.tokens.issue({ userId: user.id })).access_token;
    expect((await call('GET', '/api/accounts/verify/', bearer(after))).statusCode).toBe(200);
    expect((await call('GET', '/api/accounts/verify/', bearer(before))).statusCode).toBe(401);
  });

  it('reads and saves own settings; an email in use is 409; company tokens may not', async () => {
    const caller = await t.newCaller('Settings Co');
    const me = await t.newUser(caller.companyId, 'marketer');
    const other = await t.newUser(caller.companyId, 'analyst');
    const current = await call('GET', '/api/accounts/settings/', me.headers);
    expect(current.json()).toEqual({
      username: me.email,
      email: me.email,
      language: 'en',
      time_zone: 'America/New_York',
      communication: { email: true, sms: false, phone: false },
    });
    const saved = await call('PUT', '/api/accounts/settings/', me.headers, {
      username: 'marketing-mia',
      email: 'mia@example.com',
      language: 'de',
      time_zone: 'Europe/Berlin',
      communication: { email: false, sms: true, phone: false },
    });
    expect(saved.statusCode).toBe(200);
    expect((await call('GET', '/api/accounts/settings/', me.headers)).json()).toEqual(saved.json());
    expect(saved.json()).toMatchObject({ username: 'marketing-mia', language: 'de' });

    const taken = await call('PUT', '/api/accounts/settings/', me.headers, {
      ...saved.json(),
      email: other.email.toUpperCase(),
      language: 'fr',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields).toEqual({ email: 'Email is already in use' });
    // Nothing of the refused save was written.
    expect((await call('GET', '/api/accounts/settings/', me.headers)).json().language).toBe('de');

    const badZone = await call('PUT', '/api/accounts/settings/', me.headers, {
      ...saved.json(),
      time_zone: 'Mars/Olympus',
    });
    expect(badZone.json().error.fields).toEqual({ time_zone: 'Time zone is not valid' });
    expect((await call('GET', '/api/accounts/settings/', caller.headers)).statusCode).toBe(403);
  });

  it('lists the company features to any caller, token or user', async () => {
    const caller = await t.newCaller('Features Co', { features: ['Campaigns', 'Locations'] });
    const analyst = await t.newUser(caller.companyId, 'analyst');
    for (const headers of [caller.headers, analyst.headers]) {
      const response = await call('GET', '/api/customers/company-features/', headers);
      expect(response.json()).toEqual(['Campaigns', 'Locations']);
    }
  });

  it('refuses password sign-in and registration when an external provider is trusted', async () => {
    const external = await buildAppWithServices({
      db: t.database.db,
      logLevel: 'silent',
      clientDir: null,
      auth: authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000', OIDC_ISSUER: 'https://idp.example' }),
    });
    try {
      const login = await external.app.inject({
        method: 'POST',
        url: '/api/accounts/login/',
        payload: { email: 'login@example.com', password: 'right-password' },
      });
      expect(login.statusCode).toBe(404);
      expect(login.json().error.message).toMatch(/identity provider/);
      const register = await external.app.inject({
        method: 'POST',
        url: '/api/accounts/register/',
        payload: {
          company_name: 'Elsewhere',
          first_name: 'E',
          email: 'elsewhere@example.com',
          password: 'long-enough',
          confirm_password: 'long-enough',
          accept_terms: true,
        },
      });
      expect(register.statusCode).toBe(404);
    } finally {
      await external.app.close();
    }
  });
});

describe('authConfigService', () => {
  const embedded = authSettingsFrom({
    PUBLIC_URL: 'http://localhost:3000',
    OIDC_REDIRECT_URIS: 'http://localhost:3000/authenticate,https://app.example.com/authenticate',
  });

  it('picks the redirect URI of the origin the browser is on, else the first', async () => {
    const service = authConfigService(embedded);
    expect((await service.config('https://app.example.com')).redirect_uri).toBe(
      'https://app.example.com/authenticate',
    );
    expect((await service.config('https://elsewhere.example')).redirect_uri).toBe(
      'http://localhost:3000/authenticate',
    );
  });

  it("reads an external issuer's discovery document once", async () => {
    const fetchMock = vi.fn(async () =>
      Response.json({
        issuer: 'https://idp.example',
        authorization_endpoint: 'https://idp.example/authorize',
        token_endpoint: 'https://idp.example/oauth/token',
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    try {
      const service = authConfigService(
        authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000', OIDC_ISSUER: 'https://idp.example' }),
      );
      const first = await service.config(null);
      await service.config(null);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(first).toMatchObject({
        issuer: 'https://idp.example',
        authorization_endpoint: 'https://idp.example/authorize',
        token_endpoint: 'https://idp.example/oauth/token',
        end_session_endpoint: null,
        resource: 'http://localhost:3000/api',
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
