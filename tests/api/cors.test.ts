import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import { TEST_RATE_LIMITS } from '../support/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

const ALLOWED = 'https://partner.example.com';

function preflight(app: FastifyInstance, origin: string) {
  return app.inject({
    method: 'OPTIONS',
    url: '/api/customers/locations/',
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });
}

describe('CORS', () => {
  let database: TestDatabase;
  let closed: FastifyInstance;
  let open: FastifyInstance;

  beforeAll(async () => {
    database = await openTestDatabase();
    const common = {
      db: database.db,
      logLevel: 'silent',
      clientDir: null,
      auth: authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' }),
      rateLimits: TEST_RATE_LIMITS,
      imports: { runJobs: false },
    };
    closed = await buildApp(common);
    open = await buildApp({ ...common, corsOrigins: [ALLOWED] });
  });

  afterAll(async () => {
    await closed?.close();
    await open?.close();
    await database?.drop();
  });

  it('allows no other origin by default', async () => {
    const response = await preflight(closed, ALLOWED);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const simple = await closed.inject({ method: 'GET', url: '/api/health', headers: { origin: ALLOWED } });
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a preflight from an unknown origin without allowing it', async () => {
    const response = await preflight(open, 'https://evil.example.net');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('allows an origin of the allow-list, without credentials', async () => {
    const response = await preflight(open, ALLOWED);
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    const simple = await open.inject({ method: 'GET', url: '/api/health', headers: { origin: ALLOWED } });
    expect(simple.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(simple.headers['access-control-expose-headers']).toLowerCase()).toContain('retry-after');
  });
});
