import type { RouteOptions } from 'fastify';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppWithServices, type BuiltApp } from '../../server/app.js';
import { generateCompanyKey } from '../../server/auth/company-token.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import { loadSigningKeys, SIGNING_ALGORITHM } from '../../server/auth/signing-keys.js';
import { setCompanyFeatures } from '../../server/repositories/company-features.repository.js';
import {
  createCompanyToken,
  revokeCompanyToken,
} from '../../server/repositories/company-tokens.repository.js';
import type { RouteAccess } from '../../server/http/access.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeUser, systemScope } from '../support/factories.js';

/**
 * Every route the app registers is checked here, so a route added by any later change is covered the
 * moment it exists: without credentials, with bad ones, with too little role, feature or kind of caller.
 */

/** The only /api routes anyone may call without credentials. */
const PUBLIC_API_ROUTES = [
  'GET /api/health',
  'GET /api/brand/',
  'GET /api/demo/status/',
  'GET /api/auth/config/',
  'POST /api/accounts/login/',
  'POST /api/accounts/register/',
];

type Headers = { authorization: string };

interface ApiRoute {
  method: string;
  url: string;
  /** The URL with every path parameter filled with a number no row has. */
  path: string;
  isPublic: boolean;
  access: RouteAccess | undefined;
}

function isDocs(url: string): boolean {
  return url === '/api/docs' || url.startsWith('/api/docs/') || url === '/api/openapi.json';
}

function apiRoutes(routes: readonly RouteOptions[]): ApiRoute[] {
  const found: ApiRoute[] = [];
  for (const route of routes) {
    if (!route.url.startsWith('/api/') || isDocs(route.url)) continue;
    const config = (route.config ?? {}) as { public?: boolean; access?: RouteAccess };
    for (const method of [route.method].flat()) {
      // HEAD routes are Fastify's automatic twins of GET routes, with the same config.
      if (method === 'HEAD') continue;
      found.push({
        method,
        url: route.url,
        path: route.url.replace(/:\w+/g, '999999'),
        isPublic: config.public === true,
        access: config.access,
      });
    }
  }
  return found;
}

describe('access control of every route', () => {
  let database: TestDatabase;
  let built: BuiltApp;
  let routes: ApiRoute[];
  let expiredJwt: Headers;
  let foreignJwt: Headers;
  let tamperedJwt: Headers;
  let revokedToken: Headers;
  let companyToken: Headers;
  let analyst: Headers;
  let featurelessOwner: Headers;

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.db;
    built = await buildAppWithServices({
      db,
      logLevel: 'silent',
      clientDir: null,
      auth: authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' }),
    });
    await built.app.ready();
    routes = apiRoutes(built.routes);

    const full = await makeCompany(db, 'Full Co');
    await db.tenant(systemScope(full.id).companyId, (sql) =>
      setCompanyFeatures(sql, systemScope(full.id), [...ALL_FEATURES]),
    );
    const bare = await makeCompany(db, 'Bare Co');
    await db.tenant(systemScope(bare.id).companyId, (sql) =>
      setCompanyFeatures(sql, systemScope(bare.id), []),
    );
    const analystUser = await makeUser(db, full.id, { role: 'analyst' });
    const bareOwner = await makeUser(db, bare.id, { role: 'owner' });
    const bearer = async (userId: number) => ({
      authorization: `Bearer ${(await built.tokens.issue({ userId })).access_token}`,
    });
    analyst = await bearer(analystUser.id);
    featurelessOwner = await bearer(bareOwner.id);

    const key = generateCompanyKey();
    await db.tenant(full.id, (sql) =>
      createCompanyToken(sql, full.id, {
        name: 'live',
        keyPrefix: key.keyPrefix,
        keyHash: key.keyHash,
        createdBy: null,
      }),
    );
    companyToken = { authorization: `Token ${key.key}` };
    const revoked = generateCompanyKey();
    const revokedRow = await db.tenant(full.id, (sql) =>
      createCompanyToken(sql, full.id, {
        name: 'revoked',
        keyPrefix: revoked.keyPrefix,
        keyHash: revoked.keyHash,
        createdBy: null,
      }),
    );
    await db.tenant(full.id, (sql) => revokeCompanyToken(sql, full.id, revokedRow.id));
    revokedToken = { authorization: `Token ${revoked.key}` };

    const now = Math.floor(Date.now() / 1000);
    const claims = (signed: SignJWT) =>
      signed
        .setIssuer(built.auth.issuer)
        .setAudience(built.auth.audience)
        .setSubject(String(analystUser.id))
        .setJti(`test-${now}`);
    // Our own key, but long expired.
    const ownKey = (await loadSigningKeys(db)).privateJwks[0]!;
    const expired = await claims(new SignJWT({ scope: 'openid api' }))
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: ownKey.kid! })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(await importJWK(ownKey, SIGNING_ALGORITHM));
    expiredJwt = { authorization: `Bearer ${expired}` };
    // Right issuer, audience and subject, even our key id, but someone else's key.
    const foreign = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
    const forged = await claims(new SignJWT({ scope: 'openid api' }))
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: ownKey.kid! })
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(await importJWK(await exportJWK(foreign.privateKey), SIGNING_ALGORITHM));
    foreignJwt = { authorization: `Bearer ${forged}` };
    // A real token whose payload was changed afterwards to name the company's owner instead.
    const [header, payload, signature] = (
      await built.tokens.issue({ userId: analystUser.id })
    ).access_token.split('.');
    const owner = await makeUser(db, full.id, { role: 'owner' });
    const altered = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: String(owner.id) };
    const tampered = `${header}.${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}`;
    tamperedJwt = { authorization: `Bearer ${tampered}` };
  });
  afterAll(async () => {
    await built.app.close();
    await database.drop();
  });

  const call = (route: ApiRoute, headers: Headers | Record<string, never>) =>
    built.app.inject({ method: route.method as 'GET', url: route.path, headers });

  it('finds the routes, and only the expected ones are public', () => {
    const names = routes.map((route) => `${route.method} ${route.url}`);
    expect(new Set(names).size).toBe(names.length);
    expect(routes.length).toBeGreaterThan(30);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /api/accounts/verify/',
        'DELETE /api/accounts/user/:id/',
        'GET /api/customers/locations/',
      ]),
    );
    expect(
      routes
        .filter((route) => route.isPublic)
        .map((route) => `${route.method} ${route.url}`)
        .sort(),
    ).toEqual([...PUBLIC_API_ROUTES].sort());
  });

  it('gives every non-public /api route an access rule', () => {
    const missing = routes.filter((route) => !route.isPublic && !route.access);
    expect(missing.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  it('answers 401 without credentials, with expired, forged or tampered JWTs and with revoked tokens', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((candidate) => !candidate.isPublic)) {
      for (const [label, headers] of [
        ['no credentials', {}],
        ['expired JWT', expiredJwt],
        ['foreign-key JWT', foreignJwt],
        ['tampered JWT', tamperedJwt],
        ['revoked company token', revokedToken],
      ] as const) {
        const response = await call(route, headers);
        if (response.statusCode !== 401 || response.json().error.code !== 'unauthenticated') {
          failures.push(`${route.method} ${route.url} with ${label}: ${response.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a company lacking the feature, too little role, and tokens on user-only routes', async () => {
    const failures: string[] = [];
    const expectRefusal = async (route: ApiRoute, headers: Headers, code: string, label: string) => {
      const response = await call(route, headers);
      if (response.statusCode !== 403 || response.json().error.code !== code) {
        failures.push(`${route.method} ${route.url} for ${label}: ${response.statusCode} ${response.body}`);
      }
    };
    for (const route of routes) {
      const rule = route.access;
      if (route.isPublic || !rule) continue;
      if (rule.feature)
        await expectRefusal(route, featurelessOwner, 'feature_not_enabled', 'a company without it');
      if (rule.role !== 'analyst') await expectRefusal(route, analyst, 'role_forbidden', 'an analyst');
      if (rule.userOnly) await expectRefusal(route, companyToken, 'user_required', 'a company token');
    }
    expect(failures).toEqual([]);
  });
});
