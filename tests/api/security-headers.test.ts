import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import { CSP_NONCE_PLACEHOLDER } from '../../server/http/app-page.js';
import { TEST_RATE_LIMITS } from '../support/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { pkcePair, startAuthorization, TestBrowser } from '../support/oidc.js';

const INLINE_SCRIPT = 'globalThis.__zod_globalConfig = { jitless: true };';
const INLINE_SCRIPT_HASH = `'sha256-${createHash('sha256').update(INLINE_SCRIPT).digest('base64')}'`;
const PAGE = `<!doctype html><html><head><script nonce="${CSP_NONCE_PLACEHOLDER}">${INLINE_SCRIPT}</script><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"><title>the app</title></head><body></body></html>`;

/** The directives of a Content-Security-Policy header, by name. */
function directives(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The headers every answer carries, whatever produced it. */
function expectHardened(response: LightMyRequestResponse, framing: 'none' | 'self' = 'none') {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toBe(framing === 'none' ? 'DENY' : 'SAMEORIGIN');
  expect(response.headers['referrer-policy']).toMatch(/^(strict-origin-when-cross-origin|no-referrer)$/);
  const policy = directives(response);
  expect(policy.get('frame-ancestors')).toEqual([`'${framing}'`]);
  expect(policy.get('base-uri')?.[0]).toMatch(/^'(self|none)'$/);
  const scripts = policy.get('script-src') ?? policy.get('default-src') ?? [];
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect([...policy.values()].flat()).not.toContain("'unsafe-inline'");
}

describe('security headers on every kind of answer', () => {
  let database: TestDatabase;
  let clientDir: string;
  let app: FastifyInstance;
  let httpsApp: FastifyInstance;

  beforeAll(async () => {
    database = await openTestDatabase();
    clientDir = await mkdtemp(join(tmpdir(), 'regulars-client-'));
    await writeFile(join(clientDir, 'index.html'), PAGE);
    await mkdir(join(clientDir, 'assets'));
    await writeFile(join(clientDir, 'assets', 'app.js'), 'console.log(1);');
    const common = { db: database.db, logLevel: 'silent', clientDir, rateLimits: TEST_RATE_LIMITS };
    app = await buildApp({ ...common, auth: authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' }) });
    httpsApp = await buildApp({
      ...common,
      auth: authSettingsFrom({ PUBLIC_URL: 'https://regulars.example.com' }),
      imports: { runJobs: false },
    });
  });

  afterAll(async () => {
    await app?.close();
    await httpsApp?.close();
    await database?.drop();
    await rm(clientDir, { recursive: true, force: true });
  });

  it("answers the app's page with a fresh style nonce in its policy and its meta tag, its script by hash", async () => {
    const seen = new Set<string>();
    for (const url of ['/', '/dashboard', '/index.html']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expectHardened(response);
      const styles = directives(response).get('style-src') ?? [];
      const nonce = /'nonce-([^']+)'/.exec(styles.join(' '))?.[1];
      expect(nonce).toBeTruthy();
      expect(response.body).toContain(`nonce="${nonce}"`);
      expect(response.body).not.toContain(CSP_NONCE_PLACEHOLDER);
      expect(response.headers['cache-control']).toBe('no-cache');
      // The page's own inline script by its hash; no other inline script can run.
      expect(directives(response).get('script-src')).toEqual(["'self'", INLINE_SCRIPT_HASH]);
      seen.add(nonce!);
    }
    expect(seen.size).toBe(3);
  });

  it("serves the template editor's pages with inline styles allowed (GrapesJS), scripts as strict as anywhere", async () => {
    for (const url of ['/editor-template', '/editor-template/12', '/editor-template/12/?x=1']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(directives(response).get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(directives(response).get('script-src')).toEqual(["'self'", INLINE_SCRIPT_HASH]);
      expect(response.body).toContain('<html data-inline-styles="allowed"');
    }
    // Any other page keeps the nonce alone, and no mark.
    for (const url of ['/templates', '/editor-template/x', '/editor-templates']) {
      const response = await app.inject({ method: 'GET', url });
      expect(directives(response).get('style-src')?.join(' ')).toMatch(/^'self' 'nonce-[^']+'$/);
      expect(response.body).not.toContain('data-inline-styles');
    }
  });

  it('lets only the app frame its silent-renewal page', async () => {
    const response = await app.inject({ method: 'GET', url: '/authenticate?code=x&state=y' });
    expect(response.statusCode).toBe(200);
    expectHardened(response, 'self');
  });

  it('covers static assets, the JSON API, its refusals and /api/docs', async () => {
    const answers = await Promise.all([
      app.inject({ method: 'GET', url: '/assets/app.js' }),
      app.inject({ method: 'GET', url: '/api/health' }),
      app.inject({ method: 'GET', url: '/api/customers/locations/' }),
      app.inject({ method: 'GET', url: '/api/no-such-call/' }),
      app.inject({ method: 'POST', url: '/nowhere' }),
      app.inject({
        method: 'POST',
        url: '/api/accounts/login/',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      }),
      app.inject({
        method: 'POST',
        url: '/api/accounts/login/',
        headers: { 'content-type': 'application/x-unknown' },
        payload: 'x',
      }),
      app.inject({ method: 'GET', url: '/api/customers/locations/%E0%A4%A/' }),
      app.inject({ method: 'GET', url: '/guest/%E0%A4%A' }),
      app.inject({ method: 'GET', url: '/api/docs' }),
      app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' }),
      app.inject({ method: 'GET', url: '/api/openapi.json' }),
      app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([
      200, 200, 401, 401, 404, 400, 415, 400, 200, 200, 200, 200, 200,
    ]);
    for (const answer of answers) expectHardened(answer);
    expect(answers[4].json()).toMatchObject({ error: { code: 'not_found' } });
    expect(answers[0].headers['strict-transport-security']).toBeUndefined();
  });

  it('serves the sign-in page under its own policy: its style sheet by hash, no script at all', async () => {
    const auth = authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' });
    const { page } = await startAuthorization(new TestBrowser(app, auth.publicUrl), auth, pkcePair());
    expect(page.statusCode).toBe(200);
    expectHardened(page);
    const policy = directives(page);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('style-src')?.[0]).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
    expect(policy.has('script-src')).toBe(false);
    expect(policy.get('form-action')).toEqual(["'self'", 'http://localhost:3000']);
  });

  it('sends HSTS only when the public address is https', async () => {
    for (const url of ['/', '/api/health', '/api/no-such-call/', '/api/customers/locations/%E0%A4%A/']) {
      const response = await httpsApp.inject({ method: 'GET', url });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
      expectHardened(response);
    }
  });
});
