import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { redactUrl } from '../../server/logging.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

describe('JSON logs keep personal data out', () => {
  let database: TestDatabase;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  it('redacts search text, emails and credentials from request logs', async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const app = await buildApp({ db: database.db, logLevel: 'info', clientDir: null, logStream: stream });
    await app.inject({
      method: 'GET',
      url: '/api/customers/locations/?q=jane.doe%40example.com&page=2&email=jane.doe@example.com',
      headers: { authorization: 'Token rgl_secret_value' },
    });
    await app.close();

    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(log).toContain('/api/customers/locations/?q=[redacted]&page=2&email=[redacted]');
    expect(log).not.toMatch(/jane\.doe/);
    expect(log).not.toContain('rgl_secret_value');
  });

  it('keeps paging and filter parameters readable', () => {
    expect(redactUrl('/api/pos/guests/?page=3&location_id=4&q=SMITH')).toBe(
      '/api/pos/guests/?page=3&location_id=4&q=[redacted]',
    );
    expect(redactUrl('/api/health')).toBe('/api/health');
  });
});
