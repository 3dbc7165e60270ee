import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

describe('GET /api/brand/', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  async function brandOf(brandName?: string): Promise<unknown> {
    const app = await buildApp({
      db: database.db,
      logLevel: 'silent',
      clientDir: null,
      ...(brandName === undefined ? {} : { brandName }),
    });
    const response = await app.inject({ method: 'GET', url: '/api/brand/' });
    await app.close();
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  it('answers Regulars to anyone when BRAND_NAME is not set', async () => {
    expect(await brandOf()).toEqual({ name: 'Regulars' });
  });

  it('answers the configured BRAND_NAME', async () => {
    expect(await brandOf('Harbor Loyalty')).toEqual({ name: 'Harbor Loyalty' });
  });
});
