import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app.js';
import { TEST_RATE_LIMITS, openTestApp, type TestApp } from '../support/app.js';
import { pkcePair, startAuthorization, TestBrowser } from '../support/oidc.js';

const LOW = { max: 2, windowSeconds: 60 };
const UPLOAD_URL = '/api/subscriptions/subscribers/upload/?file_name=people.csv';

function expectRateLimited(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(429);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
}

describe('rate limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp({
      rateLimits: { ...TEST_RATE_LIMITS, signIn: LOW, registration: LOW, upload: LOW },
    });
  });
  afterAll(() => t.close());

  const login = (address: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      remoteAddress: address,
      payload: { email: `nobody-${address}@example.com`, password: 'not the password' },
    });

  it('limits sign-in calls per client address, answering in the error shape with Retry-After', async () => {
    expect((await login('192.0.2.1')).statusCode).toBe(401);
    expect((await login('192.0.2.1')).statusCode).toBe(401);
    const refused = await login('192.0.2.1');
    expectRateLimited(refused);
    expect(refused.json()).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    // Another address is counted on its own.
    expect((await login('192.0.2.2')).statusCode).toBe(401);
  });

  it('counts each client behind a trusted proxy on its own (TRUST_PROXY)', async () => {
    const proxied = await buildApp({
      db: t.database.db,
      logLevel: 'silent',
      clientDir: null,
      auth: t.auth,
      trustProxyHops: 1,
      rateLimits: { ...TEST_RATE_LIMITS, signIn: LOW },
      imports: { runJobs: false },
    });
    try {
      const viaProxy = (client: string) =>
        proxied.inject({
          method: 'POST',
          url: '/api/accounts/login/',
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': client },
          payload: { email: 'nobody@example.com', password: 'not the password' },
        });
      await viaProxy('198.51.100.7');
      await viaProxy('198.51.100.7');
      expectRateLimited(await viaProxy('198.51.100.7'));
      expect((await viaProxy('198.51.100.8')).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('limits registrations per client address', async () => {
    const register = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/accounts/register/',
        remoteAddress: '192.0.2.3',
        payload: {},
      });
    expect((await register()).statusCode).toBe(400);
    expect((await register()).statusCode).toBe(400);
    expectRateLimited(await register());
  });

  it("limits the sign-in page's form too, with a page in the visitor's language", async () => {
    const browser = new TestBrowser(t.app, t.auth.publicUrl);
    const { uid } = await startAuthorization(browser, t.auth, pkcePair());
    const post = () =>
      browser.post(`/oidc/interaction/${uid}/login`, { email: 'nobody@example.com', password: 'wrong' });
    expect((await post()).statusCode).toBe(401);
    expect((await post()).statusCode).toBe(401);
    const refused = await post();
    expectRateLimited(refused);
    expect(refused.headers['content-type']).toContain('text/html');
    expect(refused.body).toContain('<h1>');
  });

  it('limits uploads per company, whichever user or token sends them', async () => {
    const first = await t.newCaller('Upload One');
    const user = await t.newUser(first.companyId);
    const second = await t.newCaller('Upload Two');
    const upload = (headers: { authorization: string }) =>
      t.app.inject({
        method: 'POST',
        url: UPLOAD_URL,
        headers: { ...headers, 'content-type': 'text/csv' },
        payload: 'email\nperson@example.com\n',
      });
    expect((await upload(first.headers)).statusCode).toBeLessThan(300);
    expect((await upload(user.headers)).statusCode).toBeLessThan(300);
    const refused = await upload(first.headers);
    expectRateLimited(refused);
    expect(refused.json().error.code).toBe('rate_limited');
    // Another company is not held back by the first one's uploads.
    expect((await upload(second.headers)).statusCode).toBeLessThan(300);
  });
});
