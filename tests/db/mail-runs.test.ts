import { generateKeyPairSync } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendRunner, type SendRunnerSettings } from '../../server/jobs/send-runner.js';
import { suppressAddress } from '../../server/repositories/mail-suppressions.repository.js';
import { mailRunsService } from '../../server/services/mail-runs.service.js';
import { runTransport, type DkimSettings } from '../../server/sending/run-transport.js';
import { sendingSettingsFrom } from '../../server/sending/sending-settings.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeSubscriber, systemScope } from '../support/factories.js';
import { startRunSink, type RunSink } from '../support/run-sink.js';

/**
 * The mail-run engine end to end on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL) and a real
 * SMTP sink: freezing, rendering, compliance headers, suppression at freeze and at send, SMTP refusals and
 * retries, pause/resume/cancel, isolation, DKIM. Every figure is read back from the sink or the tables.
 */

const silentLog = { error: () => undefined };
const CONTENT = {
  from: '"Harbor Vine" <news@harbor.example>',
  subject: 'Hello {{first_name}}',
  html: '<html><body><p>Hi {{first_name}} {{last_name}} of {{location_name}}</p></body></html>',
  text: 'Hi {{first_name}} {{last_name}}',
  tracking: false,
};

describe('mail runs: freeze, send, comply', () => {
  let test: TestDatabase;
  let companyId: number;
  let otherCompanyId: number;
  let sink: RunSink | null = null;
  const service = () => mailRunsService(test.db, 'localhost');

  beforeAll(async () => {
    test = await openTestDatabase();
    companyId = (await makeCompany(test.db, 'Harbor Vine')).id;
    otherCompanyId = (await makeCompany(test.db, 'Other Co')).id;
  });
  afterAll(() => test.drop());
  afterEach(async () => {
    await sink?.stop();
    sink = null;
  });

  /** A runner over the sink with no waits between retries unless asked. */
  function runnerFor(url: string, overrides: Partial<SendRunnerSettings> = {}, dkim?: DkimSettings) {
    const settings = sendingSettingsFrom(
      { publicUrl: 'https://mail.harbor.example', smtpUrl: url },
      { batchSize: 10, ratePerSecond: 10_000, retryBaseMs: 0, ...overrides },
    );
    const transport = runTransport(test.db, { ...settings.transport, dkim });
    return { runner: sendRunner(test.db, transport, silentLog, settings.runner), transport };
  }

  async function drain(url: string, overrides: Partial<SendRunnerSettings> = {}, dkim?: DkimSettings) {
    const { runner, transport } = runnerFor(url, overrides, dkim);
    while ((await runner.runBatch()) > 0);
    await transport.close();
  }

  async function subscribers(count: number, prefix: string, company = companyId) {
    const made = [];
    for (let i = 0; i < count; i += 1) {
      made.push(
        await makeSubscriber(test.db, company, { email: `${prefix}${i}@example.com`, first_name: `P${i}` }),
      );
    }
    return made;
  }

  const freeze = (runKey: string, subscriberIds: number[], company = companyId) =>
    service().freezeRun(systemScope(company), {
      kind: 'campaign',
      sourceId: 1,
      runKey,
      content: CONTENT,
      audience: { subscriberIds },
    });

  it('refuses to freeze a run until the company has a postal address, naming the setting', async () => {
    const [one] = await subscribers(1, 'nopostal');
    await expect(freeze('no-postal', [one!.id])).rejects.toMatchObject({
      status: 400,
      code: 'postal_address_required',
      fields: { postal_address: { code: 'required' } },
    });
    await service().setPostalAddress(systemScope(companyId), '12 Quay Street, Portland, ME 04101');
    await service().setPostalAddress(systemScope(otherCompanyId), '1 Other Road');
  });

  it('sends every queued recipient once, with merge values escaped, the footer and both List-Unsubscribe headers', async () => {
    const people = await subscribers(5, 'first');
    const tricky = await makeSubscriber(test.db, companyId, {
      email: 'tricky@example.com',
      first_name: '<script>alert(1)</script>',
      last_name: 'O\'Neil & "Co"',
    });
    const gone = await makeSubscriber(test.db, companyId, { email: 'gone@example.com', subscribed: false });
    const blocked = await makeSubscriber(test.db, companyId, { email: 'Blocked@Example.com' });
    await test.db.tenant(companyId, (sql) =>
      suppressAddress(sql, companyId, 'blocked@example.com', 'bounced', null),
    );
    const ids = [...people.map((p) => p.id), tricky.id, gone.id, blocked.id];

    const frozen = await freeze('2026-11-26T10:00', ids);
    expect(frozen).toMatchObject({ created: true, recipients: 7 });
    // The same key again (a second process, a retried request) finds the first run and adds nothing.
    const again = await freeze('2026-11-26T10:00', ids);
    expect(again).toMatchObject({ created: false, recipients: 7 });
    expect(again.run.id).toBe(frozen.run.id);

    sink = await startRunSink();
    await drain(sink.url);
    const recipients = sink.received.flatMap((m) => m.to).sort();
    expect(recipients).toEqual([...people.map((p) => p.email), 'tricky@example.com'].sort());

    const progress = await service().progress(companyId, frozen.run.id);
    expect(progress.counts).toMatchObject({ sent: 6, suppressed: 1, queued: 0, sending: 0, failed: 0 });
    expect(progress.run.status).toBe('sent');

    const raw = sink.received.find((m) => m.to[0] === 'tricky@example.com')!;
    expect(raw.messageId).toBe(`<r${frozen.run.id}.s${tricky.id}@localhost>`);
    expect(raw.raw).toMatch(
      /^List-Unsubscribe: <https:\/\/mail\.harbor\.example\/u\/[A-Za-z0-9_-]{43}>, <mailto:unsubscribe@mail\.harbor\.example\?subject=unsubscribe%20[A-Za-z0-9_-]{43}>\r$/m,
    );
    expect(raw.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    const parsed = await simpleParser(raw.raw);
    expect(parsed.subject).toBe('Hello <script>alert(1)</script>');
    expect(parsed.html).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt; O&#39;Neil &amp; &quot;Co&quot;');
    expect(parsed.html).not.toContain('<script>');
    expect(parsed.html).toContain('12 Quay Street, Portland, ME 04101');
    expect(parsed.text).toContain('Hi <script>alert(1)</script> O\'Neil & "Co"');
    expect(parsed.text).toMatch(/Unsubscribe: https:\/\/mail\.harbor\.example\/u\/[A-Za-z0-9_-]{43}/);
    // The footer sits inside the body, before </body>.
    expect(parsed.html).toMatch(/Quay Street[\s\S]*<\/div>\s*<\/body>/);

    const rows = await test.db.tenant(companyId, (sql) =>
      sql.query<{ provider_message_id: string | null }>(
        `SELECT provider_message_id FROM mail_outbox WHERE run_id = $1 AND status = 'sent'`,
        [frozen.run.id],
      ),
    );
    expect(rows.rows.every((row) => /^q\d+$/.test(row.provider_message_id ?? ''))).toBe(true);
  });

  it('skips an address suppressed after the freeze, just before its message goes', async () => {
    const people = await subscribers(3, 'late');
    const frozen = await freeze(
      'late-suppression',
      people.map((p) => p.id),
    );
    await test.db.tenant(companyId, (sql) =>
      suppressAddress(sql, companyId, 'LATE1@example.com', 'unsubscribed', null),
    );
    sink = await startRunSink();
    await drain(sink.url);
    expect(sink.received.flatMap((m) => m.to).sort()).toEqual(['late0@example.com', 'late2@example.com']);
    expect((await service().progress(companyId, frozen.run.id)).counts).toMatchObject({
      sent: 2,
      suppressed: 1,
    });
  });

  it('fails and suppresses an address the server refuses (5xx), and retries a temporary refusal (4xx)', async () => {
    const people = await subscribers(3, 'smtp');
    let temporaryLeft = 2;
    sink = await startRunSink({
      reply: (address) => {
        if (address === 'smtp0@example.com') return 550;
        if (address === 'smtp1@example.com' && temporaryLeft > 0) {
          temporaryLeft -= 1;
          return 451;
        }
        return null;
      },
    });
    const frozen = await freeze(
      'refusals',
      people.map((p) => p.id),
    );
    const { runner, transport } = runnerFor(sink.url, { retryBaseMs: 60_000 });
    await runner.runBatch();
    const after = await test.db.tenant(companyId, (sql) =>
      sql.query<{
        email: string;
        status: string;
        attempts: number;
        error_class: string | null;
        later: boolean;
      }>(
        `SELECT email, status, attempts, error_class, next_attempt_at > now() + interval '30 seconds' AS later
         FROM mail_outbox WHERE run_id = $1 ORDER BY email`,
        [frozen.run.id],
      ),
    );
    expect(after.rows).toEqual([
      { email: 'smtp0@example.com', status: 'failed', attempts: 1, error_class: 'smtp_550', later: false },
      { email: 'smtp1@example.com', status: 'queued', attempts: 1, error_class: 'smtp_451', later: true },
      { email: 'smtp2@example.com', status: 'sent', attempts: 0, error_class: null, later: false },
    ]);
    const suppression = await test.db.tenant(companyId, (sql) =>
      sql.query<{ reason: string }>(`SELECT reason FROM mail_suppressions WHERE email = 'smtp0@example.com'`),
    );
    expect(suppression.rows).toEqual([{ reason: 'bounced' }]);
    // A retry waits its back-off: nothing is due now.
    expect(await runner.runBatch()).toBe(0);
    await transport.close();
    // With no back-off the second 4xx is retried too, and the third try goes through.
    await drain(sink.url);
    expect((await service().progress(companyId, frozen.run.id)).counts).toMatchObject({
      sent: 1,
      failed: 1,
      queued: 1,
    });
    await test.db.tenant(companyId, (sql) =>
      sql.query(`UPDATE mail_outbox SET next_attempt_at = now() WHERE run_id = $1`, [frozen.run.id]),
    );
    await drain(sink.url);
    const final = await service().progress(companyId, frozen.run.id);
    expect(final.counts).toMatchObject({ sent: 2, failed: 1, queued: 0 });
    expect(final.run.status).toBe('sent');
    expect(sink.received.flatMap((m) => m.to).filter((to) => to === 'smtp1@example.com')).toHaveLength(1);
  });

  it('gives a temporary failure up after the most attempts, without suppressing the address', async () => {
    const [one] = await subscribers(1, 'flaky');
    sink = await startRunSink({ reply: () => 421 });
    const frozen = await freeze('flaky', [one!.id]);
    await drain(sink.url, { maxAttempts: 3 });
    expect((await service().progress(companyId, frozen.run.id)).counts).toMatchObject({
      failed: 1,
      queued: 0,
    });
    const rows = await test.db.tenant(companyId, (sql) =>
      sql.query(`SELECT 1 FROM mail_suppressions WHERE email = 'flaky0@example.com'`),
    );
    expect(rows.rowCount).toBe(0);
  });

  it('pauses, resumes and cancels a run between batches', async () => {
    const people = await subscribers(25, 'pause');
    const frozen = await freeze(
      'pausing',
      people.map((p) => p.id),
    );
    sink = await startRunSink();
    const { runner, transport } = runnerFor(sink.url);
    expect(await runner.runBatch()).toBe(10);
    await service().pauseRun(systemScope(companyId), frozen.run.id);
    expect(await runner.runBatch()).toBe(0);
    await expect(service().pauseRun(systemScope(companyId), frozen.run.id)).rejects.toMatchObject({
      status: 409,
    });
    await service().resumeRun(systemScope(companyId), frozen.run.id);
    expect(await runner.runBatch()).toBe(10);
    await service().cancelRun(systemScope(companyId), frozen.run.id);
    expect(await runner.runBatch()).toBe(0);
    await transport.close();
    const progress = await service().progress(companyId, frozen.run.id);
    expect(progress.counts).toMatchObject({ sent: 20, cancelled: 5, queued: 0 });
    expect(progress.run.status).toBe('cancelled');
    expect(sink.received).toHaveLength(20);
  });

  it("answers 404 for another company's run and sends nothing to another company's subscribers", async () => {
    const [theirs] = await subscribers(1, 'theirs', otherCompanyId);
    const frozen = await freeze('isolation', [theirs!.id]);
    expect(frozen.recipients).toBe(0);
    await expect(service().progress(otherCompanyId, frozen.run.id)).rejects.toMatchObject({ status: 404 });
    await expect(service().cancelRun(systemScope(otherCompanyId), frozen.run.id)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('signs both List-* headers with DKIM when a key is configured', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const dkim = {
      domainName: 'harbor.example',
      keySelector: 'mail',
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    const [one] = await subscribers(1, 'dkim');
    await freeze('dkim', [one!.id]);
    sink = await startRunSink();
    await drain(sink.url, {}, dkim);
    expect(sink.received).toHaveLength(1);
    const parsed = await simpleParser(sink.received[0]!.raw);
    const signature = parsed.headerLines
      .find((line) => line.key === 'dkim-signature')!
      .line.replace(/\s+/g, '');
    expect(signature).toContain('d=harbor.example');
    expect(signature).toContain('s=mail');
    const signed = /(?:^|;)h=([^;]+)/.exec(signature)![1]!.toLowerCase().split(':');
    expect(signed).toEqual(
      expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post', 'from', 'subject']),
    );
  });
});
