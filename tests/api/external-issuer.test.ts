import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type KeyObject } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSettingsFrom } from '../../server/auth/settings.js';
import { openTestApp, type TestApp } from '../support/app.js';
import { makeCompany, makeUser } from '../support/factories.js';

/**
 * Another OpenID provider on a real port: its discovery document and key set, as Keycloak or Auth0 would
 * publish them. The API must verify its tokens against that key set and match accounts by email.
 */
interface ExternalProvider {
  issuer: string;
  sign(claims: { sub: string; email?: string; aud?: string }, key?: KeyObject): Promise<string>;
  jwksRequests(): number;
  close(): Promise<void>;
}

async function startExternalProvider(): Promise<ExternalProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid: 'idp-key-1', alg: 'RS256', use: 'sig' };
  let jwksRequests = 0;
  const server: Server = createServer((request, response) => {
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    response.setHeader('content-type', 'application/json');
    if (request.url === '/.well-known/openid-configuration') {
      response.end(
        JSON.stringify({
          issuer,
          jwks_uri: `${issuer}/keys`,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
        }),
      );
    } else if (request.url === '/keys') {
      jwksRequests += 1;
      response.end(JSON.stringify({ keys: [publicJwk] }));
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    async sign({ sub, email, aud = 'https://api.regulars.example' }, key = privateKey) {
      return new SignJWT(email ? { email } : {})
        .setProtectedHeader({ alg: 'RS256', kid: 'idp-key-1', typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(aud)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(key);
    },
    jwksRequests: () => jwksRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('trusting an external OpenID provider', () => {
  let provider: ExternalProvider;
  let t: TestApp;
  let userId: number;

  beforeAll(async () => {
    provider = await startExternalProvider();
    t = await openTestApp({
      auth: authSettingsFrom({
        PUBLIC_URL: 'http://localhost:3000',
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: 'regulars-at-idp',
        OIDC_AUDIENCE: 'https://api.regulars.example',
      }),
    });
    const company = await makeCompany(t.database.db, 'Keycloak Co');
    userId = (await makeUser(t.database.db, company.id, { email: 'chef@keycloak.example', role: 'owner' }))
      .id;
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  const verify = (token: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/accounts/verify/',
      headers: { authorization: `Bearer ${token}` },
    });

  it("accepts the provider's token, verified against its published keys, for the account with that email", async () => {
    const response = await verify(await provider.sign({ sub: 'idp-7f3a', email: 'CHEF@keycloak.example' }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: userId, email: 'chef@keycloak.example' });
    expect(provider.jwksRequests()).toBe(1);
  });

  it('refuses its tokens for unknown emails, without an email, for another audience, or signed by another key', async () => {
    const otherKey = (await generateKeyPair('RS256')).privateKey as KeyObject;
    const refused = [
      await provider.sign({ sub: 'idp-1', email: 'stranger@keycloak.example' }),
      await provider.sign({ sub: 'idp-2' }),
      await provider.sign({
        sub: 'idp-3',
        email: 'chef@keycloak.example',
        aud: 'https://someone-else.example',
      }),
      await provider.sign({ sub: 'idp-4', email: 'chef@keycloak.example' }, otherKey),
    ];
    for (const token of refused) {
      const response = await verify(token);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('unauthenticated');
    }
  });

  it('does not mount the embedded provider, and tells the app where to sign in', async () => {
    const discovery = await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' });
    expect(discovery.statusCode).toBe(404);
    const config = await t.app.inject({ method: 'GET', url: '/api/auth/config/' });
    expect(config.statusCode).toBe(200);
    expect(config.json()).toMatchObject({
      issuer: provider.issuer,
      authorization_endpoint: `${provider.issuer}/auth`,
      token_endpoint: `${provider.issuer}/token`,
      end_session_endpoint: null,
      client_id: 'regulars-at-idp',
      resource: 'https://api.regulars.example',
    });
  });
});
