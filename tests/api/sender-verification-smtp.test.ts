import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { listCapturedEmails } from '../../server/repositories/captured-emails.repository.js';
import { openTestApp, type TestApp, type UserCaller } from '../support/app.js';
import { startSink } from '../support/smtp-sink.js';

// The same calls with SMTP_URL set: the email goes to a real local SMTP server, nothing is captured, a
// refusal answers 502, and no log line holds the address.

describe('Sender verification API with an SMTP server', () => {
  let t: TestApp;
  let owner: UserCaller;
  const lines: string[] = [];

  /** The app as main.ts builds it with SMTP_URL, on the test app's database and signing keys. */
  async function smtpApp(smtpUrl: string): Promise<FastifyInstance> {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    return buildApp({
      db: t.database.db,
      logLevel: 'info',
      clientDir: null,
      auth: t.auth,
      logStream: stream,
      mail: { smtpUrl, from: 'Harbor <no-reply@harbor.example>' },
    });
  }

  beforeAll(async () => {
    t = await openTestApp();
    owner = await t.newUser((await t.newCaller('Smtp Co')).companyId, 'owner');
  });
  afterAll(() => t.close());

  async function addSender(app: FastifyInstance, email: string): Promise<number> {
    const created = await app.inject({
      method: 'POST',
      url: '/api/campaigns/email-sender/',
      payload: { name: 'Harbor', email },
      headers: owner.headers,
    });
    expect(created.statusCode).toBe(201);
    return created.json().id as number;
  }

  it('sends the email through SMTP with a working link and captures nothing', async () => {
    const sink = await startSink();
    const app = await smtpApp(sink.url);
    try {
      const id = await addSender(app, 'smtp@harbor.example');
      const sent = await app.inject({
        method: 'POST',
        url: `/api/campaigns/email-sender/${id}/verification/`,
        headers: owner.headers,
      });
      expect(sent.json()).toEqual({ delivery: 'sent', message: null });
      expect(sink.received).toHaveLength(1);
      expect(sink.received[0]!.to).toEqual(['smtp@harbor.example']);
      // Quoted-printable: soft line breaks and '=' written as =3D.
      const data = sink.received[0]!.data.replace(/=\r?\n/g, '').replaceAll('=3D', '=');
      expect(data).toContain('Subject: Verify smtp@harbor.example for Regulars');
      const token = /verify-sender\?token=([\w-]{43})/.exec(data)![1]!;
      const verified = await app.inject({
        method: 'POST',
        url: '/api/campaigns/email-sender/verify/',
        payload: { token },
        headers: owner.headers,
      });
      expect(verified.json().verified_at).toEqual(expect.any(String));
      const captured = await t.database.db.tenant(owner.companyId, (sql) =>
        listCapturedEmails(sql, owner.companyId, 10),
      );
      expect(captured).toEqual([]);
    } finally {
      await app.close();
      await sink.stop();
    }
  });

  it('answers 502 mail_not_sent when the server refuses, and logs no address', async () => {
    const sink = await startSink({ refuse: true });
    const app = await smtpApp(sink.url);
    try {
      const id = await addSender(app, 'refused@harbor.example');
      const refused = await app.inject({
        method: 'POST',
        url: `/api/campaigns/email-sender/${id}/verification/`,
        headers: owner.headers,
      });
      expect(refused.statusCode).toBe(502);
      expect(refused.json().error.code).toBe('mail_not_sent');
    } finally {
      await app.close();
      await sink.stop();
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toMatch(/smtp@harbor\.example|refused@harbor\.example/);
    expect(lines.some((line) => line.includes('"delivery":"sent"'))).toBe(true);
  });
});
