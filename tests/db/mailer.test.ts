import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/mail/create-mailer.js';
import { MailDeliveryError } from '../../server/mail/mail-delivery-error.js';
import { listCapturedEmails } from '../../server/repositories/captured-emails.repository.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany } from '../support/factories.js';
import { startSink } from '../support/smtp-sink.js';

const message = (companyId: number) => ({
  companyId,
  from: '"Regulars" <no-reply@localhost>',
  to: 'owner@mailer.example',
  subject: 'Verify owner@mailer.example for Regulars',
  text: 'Open http://localhost:3000/verify-sender?token=abc',
  html: '<p><a href="http://localhost:3000/verify-sender?token=abc">verify</a></p>',
});

describe('mailer: capture without SMTP_URL, SMTP with it', () => {
  let test: TestDatabase;
  let companyId: number;

  beforeAll(async () => {
    test = await openTestDatabase();
    companyId = (await makeCompany(test.db, 'Mail Co')).id;
  });
  afterAll(() => test.drop());

  const captured = () => test.db.tenant(companyId, (sql) => listCapturedEmails(sql, companyId, 10));

  it('keeps the message in the database for its company when no SMTP_URL is set', async () => {
    const mailer = createMailer(test.db, {});
    expect(mailer.mode).toBe('capture');
    const delivery = await mailer.send(message(companyId));
    expect(delivery.kind).toBe('captured');
    const rows = await captured();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      to_address: 'owner@mailer.example',
      subject: 'Verify owner@mailer.example for Regulars',
      text_body: 'Open http://localhost:3000/verify-sender?token=abc',
    });
    await mailer.close();
  });

  it('hands the message to the SMTP server when SMTP_URL is set, and captures nothing', async () => {
    const sink = await startSink();
    const mailer = createMailer(test.db, { smtpUrl: sink.url });
    try {
      expect(mailer.mode).toBe('smtp');
      const before = (await captured()).length;
      const delivery = await mailer.send(message(companyId));
      expect(delivery.kind).toBe('sent');
      expect(sink.received).toHaveLength(1);
      expect(sink.received[0]!.to).toEqual(['owner@mailer.example']);
      expect(sink.received[0]!.data).toContain('Subject: Verify owner@mailer.example for Regulars');
      expect(sink.received[0]!.data).toContain('verify-sender?token=abc');
      expect(await captured()).toHaveLength(before);
    } finally {
      await mailer.close();
      await sink.stop();
    }
  });

  it('turns a refusal into an error that names neither the recipient nor the reply', async () => {
    const sink = await startSink({ refuse: true });
    const mailer = createMailer(test.db, { smtpUrl: sink.url });
    try {
      const failure = await mailer.send(message(companyId)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MailDeliveryError);
      expect(failure).toMatchObject({ code: 'EENVELOPE', responseCode: 550 });
      expect(
        JSON.stringify({ message: (failure as Error).message, stack: (failure as Error).stack }),
      ).not.toContain('owner@mailer.example');
      expect(sink.received).toEqual([]);
    } finally {
      await mailer.close();
      await sink.stop();
    }
  });

  it('logs a fingerprint of the recipient, never the address', async () => {
    const lines: unknown[] = [];
    const log = { info: (object: unknown) => lines.push(object) } as unknown as Parameters<
      typeof createMailer
    >[2];
    await createMailer(test.db, {}, log).send(message(companyId));
    expect(JSON.stringify(lines)).not.toContain('owner@mailer.example');
    expect(JSON.stringify(lines)).toMatch(/sha256:[0-9a-f]{16}/);
  });
});
