import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendRunner, type SendRunnerSettings } from '../../server/jobs/send-runner.js';
import { listCapturedEmails } from '../../server/repositories/captured-emails.repository.js';
import { upsertEmailProvider } from '../../server/repositories/email-providers.repository.js';
import { suppressAddress } from '../../server/repositories/mail-suppressions.repository.js';
import { eraseSubscriber } from '../../server/services/customer-erasure.js';
import { mailRunsService } from '../../server/services/mail-runs.service.js';
import { trackingService } from '../../server/services/tracking.service.js';
import { runTransport } from '../../server/sending/run-transport.js';
import { sendingSettingsFrom } from '../../server/sending/sending-settings.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeSubscriber, systemScope } from '../support/factories.js';
import { startRunSink, type RunSink } from '../support/run-sink.js';

/**
 * The sending extras on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL) and real SMTP sinks:
 * tracked messages carry a pixel and signed redirects that record on the right outbox row (a machine open
 * flagged apart), untracked ones carry neither; a company with its own provider sends through it while another
 * company's mail goes to SMTP_URL; captured mail keeps its headers; an erased subscriber's address, kept only
 * as a hash, is suppressed when it comes back.
 */

const silentLog = { error: () => undefined };
const PERSON =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0';
const HTML =
  '<html><body><p>Hi {{first_name}}</p>' +
  '<a href="https://harbor.example/menu?from=mail&amp;id={{first_name}}">Menu</a>' +
  '<a href="mailto:hello@harbor.example">Write</a>' +
  '<a href="{{unsubscribe_url}}">Leave</a></body></html>';

interface Engagement {
  opened_at: Date | null;
  machine_opened_at: Date | null;
  open_count: number;
  clicked_at: Date | null;
  click_count: number;
}

describe('sending extras', () => {
  let test: TestDatabase;
  let companyId: number;
  let otherCompanyId: number;
  const sinks: RunSink[] = [];
  const service = () => mailRunsService(test.db, 'localhost');

  beforeAll(async () => {
    test = await openTestDatabase();
    companyId = (await makeCompany(test.db, 'Harbor Vine')).id;
    otherCompanyId = (await makeCompany(test.db, 'Other Co')).id;
    await service().setPostalAddress(systemScope(companyId), '12 Quay Street');
    await service().setPostalAddress(systemScope(otherCompanyId), '1 Other Road');
  });
  afterAll(() => test.drop());
  afterEach(async () => {
    while (sinks.length > 0) await sinks.pop()!.stop();
  });

  async function sink() {
    const started = await startRunSink();
    sinks.push(started);
    return started;
  }

  async function drain(smtpUrl: string | undefined, overrides: Partial<SendRunnerSettings> = {}) {
    const settings = sendingSettingsFrom(
      { publicUrl: 'https://mail.harbor.example', smtpUrl },
      { batchSize: 50, ratePerSecond: 10_000, ...overrides },
    );
    const transport = runTransport(test.db, { ...settings.transport, providerCheckMs: 0 });
    const runner = sendRunner(test.db, transport, silentLog, settings.runner);
    while ((await runner.runBatch()) > 0);
    await transport.close();
  }

  const freeze = (company: number, runKey: string, subscriberIds: number[], tracking: boolean) =>
    service().freezeRun(systemScope(company), {
      kind: 'campaign',
      sourceId: 1,
      runKey,
      content: {
        from: 'news@harbor.example',
        subject: 'Hi {{first_name}}',
        html: HTML,
        text: 'Hi',
        tracking,
      },
      audience: { subscriberIds },
    });

  const engagement = (outboxId: number) =>
    test.db.tenant(companyId, async (sql) => {
      const { rows } = await sql.query<Engagement>(
        `SELECT opened_at, machine_opened_at, open_count, clicked_at, click_count FROM mail_outbox WHERE id = $1`,
        [outboxId],
      );
      return rows[0]!;
    });

  const outboxIdOf = async (company: number, runId: number, subscriberId: number) =>
    (
      await test.db.tenant(company, (sql) =>
        sql.query<{ id: number }>(
          'SELECT id::int FROM mail_outbox WHERE run_id = $1 AND subscriber_id = $2',
          [runId, subscriberId],
        ),
      )
    ).rows[0]!.id;

  it('tracks a tracked run: the pixel and a signed redirect per http(s) link, recorded on the right row', async () => {
    const ann = await makeSubscriber(test.db, companyId, { email: 'ann@example.com', first_name: 'Ann' });
    const bob = await makeSubscriber(test.db, companyId, { email: 'bob@example.com', first_name: 'Bob' });
    const run = await freeze(companyId, 'tracked', [ann.id, bob.id], true);
    const box = await sink();
    await drain(box.url);
    expect(box.received).toHaveLength(2);
    const annMail = await simpleParser(box.received.find((m) => m.to[0] === 'ann@example.com')!.raw);
    const html = annMail.html as string;
    const pixel = /<img src="https:\/\/mail\.harbor\.example\/o\/([A-Za-z0-9_-]{43})\.gif"/.exec(html);
    expect(pixel).not.toBeNull();
    const clicks = [...html.matchAll(/href="https:\/\/mail\.harbor\.example\/c\/([A-Za-z0-9_-]+)"/g)];
    // Only the menu link: mailto, the template's unsubscribe link and the footer's stay as written.
    expect(clicks).toHaveLength(1);
    expect(html).toContain('href="mailto:hello@harbor.example"');
    expect(html.match(/href="https:\/\/mail\.harbor\.example\/u\/[A-Za-z0-9_-]{43}"/g)).toHaveLength(2);
    // The pixel is after the footer, the last thing in the body.
    expect(html).toMatch(/Quay Street[\s\S]*\/o\/[\s\S]*<\/body>/);

    const annRow = await outboxIdOf(companyId, run.run.id, ann.id);
    const bobRow = await outboxIdOf(companyId, run.run.id, bob.id);
    const tracking = trackingService(test.db);
    // Just sent: an open now is a prefetch at delivery, a machine's.
    expect(await tracking.open(pixel![1]!, { userAgent: PERSON, ip: '203.0.113.9' })).toBe('machine');
    let ann1 = await engagement(annRow);
    expect(ann1).toMatchObject({ opened_at: null, open_count: 0, clicked_at: null, click_count: 0 });
    expect(ann1.machine_opened_at).toBeInstanceOf(Date);
    // Later, a person: opened once, counted; Apple's proxy later still counts as a machine.
    await test.db.tenant(companyId, (sql) =>
      sql.query(`UPDATE mail_outbox SET sent_at = now() - interval '1 hour' WHERE run_id = $1`, [run.run.id]),
    );
    expect(await tracking.open(pixel![1]!, { userAgent: 'Mozilla/5.0', ip: '17.58.1.2' })).toBe('machine');
    expect(await tracking.open(pixel![1]!, { userAgent: PERSON, ip: '203.0.113.9' })).toBe('human');
    expect(await tracking.open(pixel![1]!, { userAgent: PERSON, ip: '203.0.113.9' })).toBe('human');
    ann1 = await engagement(annRow);
    expect(ann1.open_count).toBe(2);
    expect(ann1.opened_at).toBeInstanceOf(Date);

    const redirect = await tracking.click(clicks[0]![1]!, { userAgent: PERSON, ip: '203.0.113.9' });
    expect(redirect).toEqual({ url: 'https://harbor.example/menu?from=mail&id=Ann', outcome: 'human' });
    await tracking.click(clicks[0]![1]!, { userAgent: PERSON, ip: '203.0.113.9' });
    // A scanner following the link counts no click.
    await tracking.click(clicks[0]![1]!, { userAgent: 'Mimecast Link Scanner', ip: '198.51.100.1' });
    const ann2 = await engagement(annRow);
    expect(ann2).toMatchObject({ open_count: 2, click_count: 2 });
    expect(ann2.clicked_at).toBeInstanceOf(Date);
    // Nothing landed on Bob's row.
    expect(await engagement(bobRow)).toMatchObject({
      opened_at: null,
      machine_opened_at: null,
      open_count: 0,
      clicked_at: null,
      click_count: 0,
    });

    // A click with no open recorded is a person's open too (images blocked).
    const bobMail = await simpleParser(box.received.find((m) => m.to[0] === 'bob@example.com')!.raw);
    const bobClick = /\/c\/([A-Za-z0-9_-]+)"/.exec(bobMail.html as string)![1]!;
    expect((await tracking.click(bobClick, { userAgent: PERSON, ip: '203.0.113.7' })).url).toBe(
      'https://harbor.example/menu?from=mail&id=Bob',
    );
    expect(await engagement(bobRow)).toMatchObject({ open_count: 1, click_count: 1 });
    // A forged token is a 404 and records nothing.
    await expect(
      tracking.open('A'.repeat(43), { userAgent: PERSON, ip: '203.0.113.9' }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it('leaves an untracked run without pixel or redirects', async () => {
    const cy = await makeSubscriber(test.db, companyId, { email: 'cy@example.com', first_name: 'Cy' });
    await freeze(companyId, 'untracked', [cy.id], false);
    const box = await sink();
    await drain(box.url);
    const html = (await simpleParser(box.received[0]!.raw)).html as string;
    expect(html).not.toMatch(/\/o\/|\/c\//);
    expect(html).toContain('href="https://harbor.example/menu?from=mail&amp;id=Cy"');
  });

  it("sends a company's mail through its own provider and another company's through SMTP_URL", async () => {
    const own = await sink();
    const installation = await sink();
    const port = Number(new URL(own.url).port);
    await test.db.tenant(companyId, (sql) =>
      upsertEmailProvider(sql, systemScope(companyId), {
        provider: 'smtp',
        api_key: 'local-secret',
        settings: { host: '127.0.0.1', port },
      }),
    );
    const a = await makeSubscriber(test.db, companyId, { email: 'own@example.com' });
    const b = await makeSubscriber(test.db, otherCompanyId, { email: 'installation@example.com' });
    await freeze(companyId, 'provider', [a.id], false);
    await freeze(otherCompanyId, 'provider', [b.id], false);
    await drain(installation.url);
    expect(own.received.flatMap((m) => m.to)).toEqual(['own@example.com']);
    expect(installation.received.flatMap((m) => m.to)).toEqual(['installation@example.com']);

    // An entry with an empty key does not count: the company's mail goes to SMTP_URL again.
    await test.db.tenant(companyId, (sql) =>
      sql.query(`UPDATE email_providers SET api_key = '', updated_at = now() WHERE company_id = $1`, [
        companyId,
      ]),
    );
    const c = await makeSubscriber(test.db, companyId, { email: 'after@example.com' });
    await freeze(companyId, 'provider-removed', [c.id], false);
    await drain(installation.url);
    expect(own.received).toHaveLength(1);
    expect(installation.received.flatMap((m) => m.to)).toContain('after@example.com');
  });

  it('keeps captured run mail with its headers and its run and outbox row', async () => {
    const dee = await makeSubscriber(test.db, otherCompanyId, { email: 'dee@example.com' });
    const run = await freeze(otherCompanyId, 'captured', [dee.id], false);
    await drain(undefined);
    const kept = await test.db.tenant(otherCompanyId, (sql) => listCapturedEmails(sql, otherCompanyId, 5));
    const mail = kept.find((row) => row.run_id === run.run.id)!;
    expect(mail.to_address).toBe('dee@example.com');
    expect(mail.outbox_id).toBe(await outboxIdOf(otherCompanyId, run.run.id, dee.id));
    expect(mail.message_id).toBe(`<r${run.run.id}.s${dee.id}@localhost>`);
    const header = (name: string) => mail.headers.find((field) => field.name === name)?.value;
    expect(mail.headers.map((field) => field.name)).toEqual([
      'From',
      'To',
      'Subject',
      'Date',
      'Message-ID',
      'List-Unsubscribe',
      'List-Unsubscribe-Post',
    ]);
    expect(header('List-Unsubscribe')).toMatch(/^<https:\/\/mail\.harbor\.example\/u\/[\w-]{43}>, <mailto:/);
    expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(header('To')).toBe('dee@example.com');
  });

  it('suppresses an erased subscriber by hash alone: back as a new subscriber, the address goes in suppressed', async () => {
    const erased = await makeSubscriber(test.db, companyId, { email: 'Erased@Example.com', first_name: 'E' });
    const earlier = await freeze(companyId, 'before-erasure', [erased.id], false);
    // An earlier unsubscribe of the same address keeps it in clear until the erasure.
    await test.db.tenant(companyId, (sql) =>
      suppressAddress(sql, companyId, 'erased@example.com', 'bounced', null),
    );
    await test.db.tenant(companyId, (sql) => eraseSubscriber(sql, systemScope(companyId), erased.id));

    const stored = await test.db.tenant(companyId, (sql) =>
      sql.query<{ email: string | null; reason: string; hash: string }>(
        `SELECT email, reason, encode(email_hash, 'hex') AS hash FROM mail_suppressions
         WHERE email_hash = sha256(convert_to('erased@example.com', 'UTF8'))`,
      ),
    );
    expect(stored.rows).toEqual([
      {
        email: null,
        reason: 'deleted',
        hash: (await import('node:crypto')).createHash('sha256').update('erased@example.com').digest('hex'),
      },
    ]);
    // The earlier run's row is cancelled and keeps no address or merge values.
    const outbox = await test.db.tenant(companyId, (sql) =>
      sql.query<{ status: string; email: string; merge: object }>(
        'SELECT status, email, merge FROM mail_outbox WHERE run_id = $1',
        [earlier.run.id],
      ),
    );
    expect(outbox.rows).toEqual([
      { status: 'cancelled', email: expect.stringMatching(/^sha256:/), merge: {} },
    ]);

    const back = await makeSubscriber(test.db, companyId, { email: 'ERASED@example.com' });
    const fresh = await makeSubscriber(test.db, companyId, { email: 'fresh@example.com' });
    const run = await freeze(companyId, 'after-erasure', [back.id, fresh.id], false);
    const progress = await service().progress(companyId, run.run.id);
    expect(progress.counts).toMatchObject({ suppressed: 1, queued: 1 });
    const box = await sink();
    await drain(box.url);
    expect(box.received.flatMap((m) => m.to)).toEqual(['fresh@example.com']);
  });
});
