import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppWithServices } from '../../server/app.js';
import { hashPassword } from '../../server/auth/passwords.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import { loadSigningKeys } from '../../server/auth/signing-keys.js';
import {
  deleteSessionsForAccount,
  findOidcPayload,
  upsertOidcPayload,
} from '../../server/repositories/oidc-payloads.repository.js';
import { LOGIN_FAILED_MESSAGE } from '../../src/schemas/accounts.js';
import { makeUser } from '../support/factories.js';
import { openTestApp, type TestApp } from '../support/app.js';
import {
  authorizationUrl,
  callbackParams,
  exchangeCode,
  followToCallback,
  jwtClaims,
  locationOf,
  pkcePair,
  signInForCode,
  startAuthorization,
  TestBrowser,
} from '../support/oidc.js';

const PUBLIC_URL = 'http://localhost:3000';
const PASSWORD = 'correct horse battery';

/** The installation's product name: the pages must show it, never the default. */
const BRAND = 'Harbor Loyalty';

describe('embedded OpenID provider', () => {
  let t: TestApp;
  let companyId: number;
  let user: { id: number; email: string };

  const newBrowser = () => new TestBrowser(t.app, PUBLIC_URL);

  /** A user of the test company who can sign in with PASSWORD. */
  const newSignInUser = async () => {
    const created = await makeUser(t.database.db, companyId, {
      role: 'owner',
      password_hash: await hashPassword(PASSWORD),
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    return { id: created.id, email: created.email };
  };

  /** Counts the provider's stored objects of a model (owner read: the test looks past the repository). */
  const countPayloads = (model: string, accountId?: string) =>
    t.database.db.owner(async (sql) => {
      const { rows } = await sql.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM oidc_payloads
          WHERE model = $1 AND ($2::text IS NULL OR account_id = $2)`,
        [model, accountId ?? null],
      );
      return rows[0]!.count;
    });

  beforeAll(async () => {
    t = await openTestApp({ auth: authSettingsFrom({ PUBLIC_URL }), brandName: BRAND });
    companyId = (await t.newCaller('Harbor Group')).companyId;
    user = await newSignInUser();
  });
  afterAll(() => t.close());

  describe('discovery', () => {
    it('publishes its endpoints under the issuer ${publicUrl}/oidc', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' });
      expect(response.statusCode).toBe(200);
      const document = response.json();
      expect(document.issuer).toBe(`${PUBLIC_URL}/oidc`);
      expect(document.issuer).toBe(t.auth.issuer);
      expect(document.authorization_endpoint).toBe(`${PUBLIC_URL}/oidc/auth`);
      expect(document.token_endpoint).toBe(`${PUBLIC_URL}/oidc/token`);
      expect(document.jwks_uri).toBe(`${PUBLIC_URL}/oidc/jwks`);
      expect(document.end_session_endpoint).toBe(`${PUBLIC_URL}/oidc/session/end`);
      expect(document.code_challenge_methods_supported).toEqual(['S256']);
      expect(document.response_types_supported).toEqual(['code']);
      expect(document.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email']));
    });

    it('publishes the stored signing key, public half only', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/oidc/jwks' });
      expect(response.statusCode).toBe(200);
      const { keys } = response.json();
      const stored = await loadSigningKeys(t.database.db);
      expect(keys.map((key: { kid: string }) => key.kid)).toEqual(stored.publicJwks.map((key) => key.kid));
      expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      expect(keys[0].d).toBeUndefined();
    });
  });

  describe('authorization code flow with PKCE', () => {
    it('signs in, exchanges the code, and the API accepts the access token', async () => {
      const browser = newBrowser();
      const pkce = pkcePair();
      const { uid, page } = await startAuthorization(browser, t.auth, pkce);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('<html lang="en">');
      expect(page.body).toContain(`action="/oidc/interaction/${uid}/login"`);
      expect(page.body).toContain(`href="/oidc/interaction/${uid}/register"`);

      const submitted = await browser.post(`/oidc/interaction/${uid}/login`, {
        email: user.email,
        password: PASSWORD,
      });
      expect(submitted.statusCode).toBe(303);
      const callback = await followToCallback(browser, t.auth, submitted);
      expect(callback.get('iss')).toBe(t.auth.issuer);
      const code = callback.get('code')!;
      expect(code).toBeTruthy();

      const token = await exchangeCode(t.app, t.auth, code, pkce.verifier);
      expect(token.statusCode).toBe(200);
      const body = token.json();
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: t.auth.accessTokenTtlSeconds });
      expect(typeof body.id_token).toBe('string');
      const claims = jwtClaims(body.access_token);
      expect(claims).toMatchObject({
        iss: t.auth.issuer,
        aud: t.auth.audience,
        sub: String(user.id),
        client_id: t.auth.clientId,
      });
      expect(String(claims.scope).split(' ')).toContain('api');
      // The millisecond issue time that lets a logout refuse exactly the earlier tokens.
      expect(Math.abs(Number(claims.issued_at_ms) - Number(claims.iat) * 1000)).toBeLessThan(2000);
      const idToken = jwtClaims(body.id_token);
      expect(idToken).toMatchObject({
        sub: String(user.id),
        email: user.email,
        name: 'Ada Lovelace',
        locale: 'en',
      });

      const headers = { authorization: `Bearer ${body.access_token}` };
      const features = await t.app.inject({
        method: 'GET',
        url: '/api/customers/company-features/',
        headers,
      });
      expect(features.statusCode).toBe(200);
      const locations = await t.app.inject({ method: 'GET', url: '/api/customers/locations/', headers });
      expect(locations.statusCode).toBe(200);
    });

    it('refuses code_challenge_method=plain', async () => {
      const browser = newBrowser();
      const pkce = pkcePair();
      const response = await browser.get(
        authorizationUrl(t.auth, pkce, { code_challenge: pkce.verifier, code_challenge_method: 'plain' }),
      );
      const callback = callbackParams(response);
      expect(callback.get('error')).toBe('invalid_request');
      expect(callback.get('code')).toBeNull();
    });

    it('refuses an authorization request without a code challenge', async () => {
      const browser = newBrowser();
      const response = await browser.get(
        authorizationUrl(t.auth, pkcePair(), { code_challenge: undefined, code_challenge_method: undefined }),
      );
      const callback = callbackParams(response);
      expect(callback.get('error')).toBe('invalid_request');
      expect(callback.get('error_description')).toMatch(/PKCE/);
    });

    it('refuses a redirect_uri that is not registered, without redirecting there', async () => {
      const browser = newBrowser();
      const response = await browser.get(
        authorizationUrl(t.auth, pkcePair(), { redirect_uri: `${PUBLIC_URL}/authenticate/elsewhere` }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain('redirect_uri');
    });

    it('refuses a wrong code verifier at the token endpoint', async () => {
      const { code } = await signInForCode(newBrowser(), t.auth, { email: user.email, password: PASSWORD });
      const token = await exchangeCode(t.app, t.auth, code, pkcePair().verifier);
      expect(token.statusCode).toBe(400);
      expect(token.json().error).toBe('invalid_grant');
    });

    it('answers a code with a NUL or lone surrogate as an unknown code, not a server error', async () => {
      for (const code of ['a\u0000b', 'a\uD800b']) {
        const token = await exchangeCode(t.app, t.auth, code, pkcePair().verifier);
        expect(token.statusCode, token.body).toBe(400);
        expect(token.json().error).toBe('invalid_grant');
      }
    });

    it('accepts a code once: a second exchange fails', async () => {
      const { code, pkce } = await signInForCode(newBrowser(), t.auth, {
        email: user.email,
        password: PASSWORD,
      });
      const first = await exchangeCode(t.app, t.auth, code, pkce.verifier);
      expect(first.statusCode).toBe(200);
      const second = await exchangeCode(t.app, t.auth, code, pkce.verifier);
      expect(second.statusCode).toBe(400);
      expect(second.json().error).toBe('invalid_grant');
    });

    it('revokes the tokens issued from a code when the code is replayed (RFC 6749 §4.1.2)', async () => {
      const { code, pkce } = await signInForCode(newBrowser(), t.auth, {
        email: user.email,
        password: PASSWORD,
      });
      const first = await exchangeCode(t.app, t.auth, code, pkce.verifier);
      expect(first.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${first.json().access_token}` };
      const verify = () => t.app.inject({ method: 'GET', url: '/api/accounts/verify/', headers });
      expect((await verify()).statusCode).toBe(200);

      const replay = await exchangeCode(t.app, t.auth, code, pkce.verifier);
      expect(replay.statusCode).toBe(400);
      expect(replay.json().error).toBe('invalid_grant');
      const refused = await verify();
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error).toMatchObject({
        code: 'unauthenticated',
        message: 'The access token was revoked',
      });

      // Another sign-in of the same user is a new grant, untouched by the revocation.
      const other = await signInForCode(newBrowser(), t.auth, { email: user.email, password: PASSWORD });
      const fresh = await exchangeCode(t.app, t.auth, other.code, other.pkce.verifier);
      const freshHeaders = { authorization: `Bearer ${fresh.json().access_token}` };
      const stillFine = await t.app.inject({
        method: 'GET',
        url: '/api/accounts/verify/',
        headers: freshHeaders,
      });
      expect(stillFine.statusCode).toBe(200);
    });

    it('returns a code without any page for prompt=none while the session lives', async () => {
      const browser = newBrowser();
      await signInForCode(browser, t.auth, { email: user.email, password: PASSWORD });
      const pkce = pkcePair();
      const silent = await browser.get(authorizationUrl(t.auth, pkce, { prompt: 'none' }));
      expect(silent.statusCode).toBe(303);
      const callback = callbackParams(silent);
      expect(callback.get('error')).toBeNull();
      const token = await exchangeCode(t.app, t.auth, callback.get('code')!, pkce.verifier);
      expect(token.statusCode).toBe(200);
      expect(jwtClaims(token.json().access_token).sub).toBe(String(user.id));
    });

    it('answers prompt=none with login_required when there is no session', async () => {
      const silent = await newBrowser().get(authorizationUrl(t.auth, pkcePair(), { prompt: 'none' }));
      expect(callbackParams(silent).get('error')).toBe('login_required');
    });
  });

  describe('login page', () => {
    it('answers a wrong password with the generic message and 401, keeps the email, issues nothing', async () => {
      const victim = await newSignInUser();
      const browser = newBrowser();
      const { uid } = await startAuthorization(browser, t.auth, pkcePair());
      const response = await browser.post(`/oidc/interaction/${uid}/login`, {
        email: victim.email,
        password: 'not the password',
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain(LOGIN_FAILED_MESSAGE);
      expect(response.body).toContain(`value="${victim.email}"`);
      expect(response.body).not.toContain('not the password');

      const unknown = await browser.post(`/oidc/interaction/${uid}/login`, {
        email: 'nobody@example.com',
        password: PASSWORD,
      });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.body).toContain(LOGIN_FAILED_MESSAGE);

      expect(await countPayloads('Session', String(victim.id))).toBe(0);
      expect(await countPayloads('AuthorizationCode', String(victim.id))).toBe(0);
      expect(await countPayloads('AccessToken', String(victim.id))).toBe(0);
      const silent = await browser.get(authorizationUrl(t.auth, pkcePair(), { prompt: 'none' }));
      expect(callbackParams(silent).get('error')).toBe('login_required');
    });

    it('throttles repeated failures with 429 and a translated wait', async () => {
      const target = await newSignInUser();
      const browser = newBrowser();
      const { uid } = await startAuthorization(browser, t.auth, pkcePair(), { ui_locales: 'fr' });
      let last = await browser.post(`/oidc/interaction/${uid}/login`, {
        email: target.email,
        password: 'wrong-1',
      });
      for (let attempt = 2; attempt <= 8 && last.statusCode === 401; attempt += 1) {
        last = await browser.post(`/oidc/interaction/${uid}/login`, {
          email: target.email,
          password: `wrong-${attempt}`,
        });
      }
      expect(last.statusCode).toBe(429);
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
      expect(last.body).toMatch(/Trop de tentatives/);
      // Even the right password waits until the throttle lifts.
      const right = await browser.post(`/oidc/interaction/${uid}/login`, {
        email: target.email,
        password: PASSWORD,
      });
      expect(right.statusCode).toBe(429);
    });

    it('renders in German with ui_locales=de, failures included', async () => {
      const browser = newBrowser();
      const { uid, page } = await startAuthorization(browser, t.auth, pkcePair(), { ui_locales: 'de' });
      expect(page.body).toContain('<html lang="de">');
      expect(page.body).toContain('Anmelden');
      expect(page.body).toContain('<label for="field-password">Passwort</label>');
      expect(page.body).toContain('Konto erstellen');

      const failed = await browser.post(`/oidc/interaction/${uid}/login`, {
        email: user.email,
        password: 'falsch',
      });
      expect(failed.statusCode).toBe(401);
      expect(failed.body).toContain('Die Anmeldedaten sind nicht korrekt');

      const register = await browser.get(`/oidc/interaction/${uid}/register`);
      expect(register.body).toContain('<html lang="de">');
      expect(register.body).toContain('Firmenname');
    });

    it('falls back to Accept-Language, then English', async () => {
      const french = await startAuthorization(
        newBrowser(),
        t.auth,
        pkcePair(),
        {},
        {
          'accept-language': 'it;q=0.9, fr-CH, en;q=0.5',
        },
      );
      expect(french.page.body).toContain('<html lang="fr">');
      const japanese = await startAuthorization(newBrowser(), t.auth, pkcePair(), { ui_locales: 'ja-JP' });
      expect(japanese.page.body).toContain('<html lang="ja">');
      const english = await startAuthorization(
        newBrowser(),
        t.auth,
        pkcePair(),
        { ui_locales: 'pt' },
        {
          'accept-language': 'pt-BR',
        },
      );
      expect(english.page.body).toContain('<html lang="en">');
    });

    it("names the installation's product (BRAND_NAME) in its title, heading and text, in every language", async () => {
      for (const ui_locales of ['en', 'ja', 'de']) {
        const { page } = await startAuthorization(newBrowser(), t.auth, pkcePair(), { ui_locales });
        expect(page.body).toContain(`· ${BRAND}</title>`);
        expect(page.body).toContain(`<p class="brand">${BRAND}</p>`);
        // The introduction and the registration link name it too (each language words them its own way).
        expect(page.body.split(BRAND).length - 1).toBeGreaterThanOrEqual(4);
        expect(page.body).not.toContain('Regulars');
        expect(page.body).not.toContain('$t(');
      }
    });

    it('escapes what it echoes', async () => {
      const browser = newBrowser();
      const { uid } = await startAuthorization(browser, t.auth, pkcePair());
      const response = await browser.post(`/oidc/interaction/${uid}/login`, {
        email: '"><script>alert(1)</script>@example.com',
        password: 'x',
      });
      expect(response.statusCode).toBe(401);
      expect(response.body).not.toContain('<script>alert(1)</script>');
      expect(response.body).toContain('&quot;&gt;&lt;script&gt;');
    });

    it('answers a page whose interaction cookie is gone with an expired page', async () => {
      const browser = newBrowser();
      const { uid } = await startAuthorization(browser, t.auth, pkcePair());
      const stranger = await newBrowser().get(`/oidc/interaction/${uid}`);
      expect(stranger.statusCode).toBe(400);
      expect(stranger.body).toContain('expired');
      const posted = await newBrowser().post(`/oidc/interaction/${uid}/login`, {
        email: user.email,
        password: PASSWORD,
      });
      expect(posted.statusCode).toBe(400);
    });
  });

  describe('registration page', () => {
    const registration = {
      company_name: 'Blue Door Bistro',
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@bluedoor.example',
      password: 'a long enough password',
      confirm_password: 'a long enough password',
      accept_terms: 'on',
    };

    it('shows each field message next to its field, translated', async () => {
      const browser = newBrowser();
      const { uid } = await startAuthorization(browser, t.auth, pkcePair());
      const english = await browser.post(`/oidc/interaction/${uid}/register`, {
        ...registration,
        company_name: '',
        email: 'not-an-email',
        password: 'short',
        confirm_password: 'other',
        accept_terms: '',
      });
      expect(english.statusCode).toBe(400);
      expect(english.body).toContain('id="field-company_name-error">Company name is required<');
      expect(english.body).toContain('id="field-email-error">Email is not valid<');
      expect(english.body).toContain('id="field-password-error">Password minimum length is 8<');
      expect(english.body).toContain('id="field-confirm_password-error">Confirm password is not valid<');
      expect(english.body).toContain(
        'id="field-accept_terms-error">Accepting terms &amp; conditions are required<',
      );
      expect(english.body).toContain('value="not-an-email"');
      expect(english.body).not.toContain('value="short"');

      const germanBrowser = newBrowser();
      const german = await startAuthorization(germanBrowser, t.auth, pkcePair(), { ui_locales: 'de' });
      const refused = await germanBrowser.post(`/oidc/interaction/${german.uid}/register`, {
        ...registration,
        first_name: '',
        password: 'short',
        confirm_password: 'short',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('Vorname ist erforderlich');
      expect(refused.body).toContain('Passwort muss mindestens 8 Zeichen lang sein');
    });

    it('creates the company and its owner, then continues the authorization to a code', async () => {
      const browser = newBrowser();
      const pkce = pkcePair();
      const { uid } = await startAuthorization(browser, t.auth, pkce);
      const form = await browser.get(`/oidc/interaction/${uid}/register`);
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain(`href="/oidc/interaction/${uid}"`);
      expect(form.body).toContain('type="checkbox"');

      const created = await browser.post(`/oidc/interaction/${uid}/register`, registration);
      expect(created.statusCode).toBe(303);
      const callback = await followToCallback(browser, t.auth, created);
      const token = await exchangeCode(t.app, t.auth, callback.get('code')!, pkce.verifier);
      expect(token.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${token.json().access_token}` };

      const features = await t.app.inject({
        method: 'GET',
        url: '/api/customers/company-features/',
        headers,
      });
      expect(features.statusCode).toBe(200);
      expect(features.json().length).toBeGreaterThan(0);
      const idToken = jwtClaims(token.json().id_token);
      expect(idToken).toMatchObject({ email: registration.email, name: 'Grace Hopper' });

      // The new owner's browser is signed in: a silent request gets a code.
      const silent = await browser.get(authorizationUrl(t.auth, pkcePair(), { prompt: 'none' }));
      expect(callbackParams(silent).get('code')).toBeTruthy();
    });

    it('tells a taken email apart without creating anything', async () => {
      const browser = newBrowser();
      const { uid } = await startAuthorization(browser, t.auth, pkcePair());
      const response = await browser.post(`/oidc/interaction/${uid}/register`, {
        ...registration,
        company_name: 'Second Try',
        email: user.email,
      });
      expect(response.statusCode).toBe(409);
      expect(response.body).toContain('id="field-email-error">An account with this email already exists.<');
      const companies = await t.database.db.owner((sql) =>
        sql.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM companies WHERE name = 'Second Try'`,
        ),
      );
      expect(companies.rows[0]!.count).toBe(0);
    });
  });

  describe('sign-out', () => {
    it('ends the session without asking and lands on the login page', async () => {
      const browser = newBrowser();
      await signInForCode(browser, t.auth, { email: user.email, password: PASSWORD });
      const params = new URLSearchParams({
        client_id: t.auth.clientId,
        post_logout_redirect_uri: `${PUBLIC_URL}/login`,
      });
      const page = await browser.get(`/oidc/session/end?${params.toString()}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('name="logout" value="yes"');
      expect(page.body).toMatch(
        /<script nonce="[^"]+">document.getElementById\('op.logoutForm'\).submit\(\);/,
      );
      const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(page.body)![1]!;
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)![1]!;
      const confirmed = await browser.post(action, { xsrf, logout: 'yes' });
      expect(confirmed.statusCode).toBe(303);
      expect(locationOf(confirmed)).toBe(`${PUBLIC_URL}/login`);

      const silent = await browser.get(authorizationUrl(t.auth, pkcePair(), { prompt: 'none' }));
      expect(callbackParams(silent).get('error')).toBe('login_required');
    });

    it('deleteSessionsForAccount ends the provider session of a user (API logout)', async () => {
      const person = await newSignInUser();
      const browser = newBrowser();
      await signInForCode(browser, t.auth, { email: person.email, password: PASSWORD });
      expect(await t.database.db.platform((sql) => deleteSessionsForAccount(sql, String(person.id)))).toBe(1);
      const silent = await browser.get(authorizationUrl(t.auth, pkcePair(), { prompt: 'none' }));
      expect(callbackParams(silent).get('error')).toBe('login_required');
    });
  });

  describe('storage', () => {
    it('treats expired rows as absent', async () => {
      const db = t.database.db;
      await db.platform((sql) =>
        upsertOidcPayload(sql, {
          model: 'Interaction',
          id: 'expiring',
          payload: { uid: 'expiring' },
          grantId: null,
          userCode: null,
          uid: null,
          accountId: null,
          expiresInSeconds: 60,
        }),
      );
      expect(await db.platform((sql) => findOidcPayload(sql, 'Interaction', 'expiring'))).not.toBeNull();
      await db.owner((sql) =>
        sql.query(`UPDATE oidc_payloads SET expires_at = now() - interval '1 second' WHERE id = 'expiring'`),
      );
      expect(await db.platform((sql) => findOidcPayload(sql, 'Interaction', 'expiring'))).toBeNull();
    });

    it('keeps sessions, codes and keys across a rebuild of the app on the same database', async () => {
      const browser = newBrowser();
      const pending = await signInForCode(browser, t.auth, { email: user.email, password: PASSWORD });
      const kidBefore = (await t.app.inject({ method: 'GET', url: '/oidc/jwks' })).json().keys[0].kid;

      const rebuilt = await buildAppWithServices({
        db: t.database.db,
        logLevel: 'silent',
        clientDir: null,
        auth: t.auth,
      });
      await rebuilt.app.ready();
      try {
        const kidAfter = (await rebuilt.app.inject({ method: 'GET', url: '/oidc/jwks' })).json().keys[0].kid;
        expect(kidAfter).toBe(kidBefore);

        // A code issued before the rebuild is still redeemable, and its token works on the new app.
        const token = await exchangeCode(rebuilt.app, t.auth, pending.code, pending.pkce.verifier);
        expect(token.statusCode).toBe(200);
        const api = await rebuilt.app.inject({
          method: 'GET',
          url: '/api/customers/locations/',
          headers: { authorization: `Bearer ${token.json().access_token}` },
        });
        expect(api.statusCode).toBe(200);

        // The browser's session (cookie signed with the stored cookie keys) still signs in silently.
        browser.app = rebuilt.app;
        const pkce = pkcePair();
        const silent = await browser.get(authorizationUrl(t.auth, pkce, { prompt: 'none' }));
        const code = callbackParams(silent).get('code');
        expect(code).toBeTruthy();
        expect((await exchangeCode(rebuilt.app, t.auth, code!, pkce.verifier)).statusCode).toBe(200);
      } finally {
        await rebuilt.app.close();
      }
    });
  });
});
