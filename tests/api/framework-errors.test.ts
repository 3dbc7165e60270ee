import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

const MALFORMED = '/guest/profile/%E0%A4%A/x/1';

describe('a URL that does not decode', () => {
  let database: TestDatabase;
  let clientDir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await openTestDatabase();
    clientDir = await mkdtemp(join(tmpdir(), 'regulars-client-'));
    await writeFile(join(clientDir, 'index.html'), '<!doctype html><title>the app</title>');
    app = await buildApp({ db: database.db, logLevel: 'silent', clientDir });
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await rm(clientDir, { recursive: true, force: true });
  });

  it("opens the app's own page, which shows it as /404", async () => {
    const response = await app.inject({ method: 'GET', url: MALFORMED });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<title>the app</title>');
  });

  it('answers an API call in the error shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/customers/locations/%E0%A4%A/' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'bad_url', message: expect.any(String) } });
  });
});
