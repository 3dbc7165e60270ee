import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

/** Twenty failed sign-ins, all through the same proxy, claiming to come from `client`. */
async function failTwentyTimes(app: Awaited<ReturnType<typeof buildApp>>, client: string) {
  for (let i = 0; i < 20; i += 1) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': client },
      payload: { email: `proxy-guess-${client}-${i}@example.com`, password: 'guessing' },
    });
    expect(response.statusCode).toBe(401);
  }
}

function attempt(app: Awaited<ReturnType<typeof buildApp>>, client: string) {
  return app.inject({
    method: 'POST',
    url: '/api/accounts/login/',
    remoteAddress: '10.0.0.1',
    headers: { 'x-forwarded-for': client },
    payload: { email: 'someone-new@example.com', password: 'guessing' },
  });
}

describe('sign-in throttling behind a load balancer', () => {
  let database: TestDatabase;
  const auth = authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' });

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('counts per client address from X-Forwarded-For when told to trust one proxy', async () => {
    const app = await buildApp({
      db: database.db,
      logLevel: 'silent',
      clientDir: null,
      auth,
      trustProxyHops: 1,
    });
    try {
      await failTwentyTimes(app, '198.51.100.7');
      expect((await attempt(app, '198.51.100.7')).statusCode).toBe(429);
      // Another client behind the same proxy is not punished for the first one's guesses.
      expect((await attempt(app, '198.51.100.8')).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('ignores X-Forwarded-For by default, so a caller cannot dodge the limit by inventing addresses', async () => {
    const app = await buildApp({ db: database.db, logLevel: 'silent', clientDir: null, auth });
    try {
      await failTwentyTimes(app, '203.0.113.1');
      expect((await attempt(app, '203.0.113.99')).statusCode).toBe(429);
    } finally {
      await app.close();
    }
  });
});
