import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRunner } from '../../server/jobs/send-runner.js';
import { findMailTokenSecret } from '../../server/repositories/mail-outbox.repository.js';
import { suppressAddress } from '../../server/repositories/mail-suppressions.repository.js';
import { eraseSubscriber } from '../../server/services/customer-erasure.js';
import { mailRunsService } from '../../server/services/mail-runs.service.js';
import { runTransport } from '../../server/sending/run-transport.js';
import { sendingSettingsFrom } from '../../server/sending/sending-settings.js';
import { unsubscribeTokens } from '../../server/sending/unsubscribe-token.js';
import { viewTokens } from '../../server/sending/view-token.js';
import { openTestApp, type TestApp } from '../support/app.js';
import { makeSubscriber, systemScope } from '../support/factories.js';

/**
 * `GET /v/{token}` through the real app: the message as its recipient got it (merge values escaped, the
 * company's address and year, straight links, no pixel), under a strict policy and never indexed; a tampered
 * token, another purpose's token, another company's row, a message never sent (suppressed) and an erased
 * recipient's message are all the same bare 404.
 */

const CONTENT = {
  from: '"Harbor Vine" <news@harbor.example>',
  subject: 'Hello {{first_name}}',
  html:
    '<html><head><title>ignored</title></head><body><p>Hi {{first_name}} from {{company_name}}, ' +
    '{{company_address}} © {{current_year}}</p><a href="https://harbor.example/menu">Menu</a> ' +
    '<a href="{{view_in_browser_url}}">View in your browser</a></body></html>',
  text: 'Hi {{first_name}} {{view_in_browser_url}}',
  tracking: true,
};

/** A design that would lead the reader away, repoint its links and run script, were it served as stored. */
const HOSTILE = {
  ...CONTENT,
  html:
    '<html><head><meta charset="utf-8"><META HTTP-EQUIV="refresh" content="0;url=https://evil.example/">' +
    '<meta http-equiv="set-cookie" content="a=b"><base href="https://evil.example/">' +
    '<script>document.title = "owned"</script><meta name="viewport" content="width=device-width"></head>' +
    '<body onload="steal()"><p class="lead" ONCLICK=\'x()\'>Hi {{first_name}}</p>' +
    '<img src="/logo.png" onerror="steal()" alt="Logo"><svg><animate onbegin="steal()"/></svg>' +
    '<a href="https://harbor.example/menu">Menu</a><script src="https://evil.example/x.js"></script></body></html>',
};

describe('view in browser', () => {
  let test: TestApp;
  let companyId: number;
  let otherCompanyId: number;
  let secret: string;
  const rows: Record<string, { outboxId: number; subscriberId: number }> = {};

  const db = () => test.database.db;
  const runs = () => mailRunsService(db(), 'localhost');

  /** Freezes one run to `emails` and sends it through the runner into the captured mail. */
  async function sendTo(
    company: number,
    runKey: string,
    people: { email: string; first_name: string }[],
    content = CONTENT,
  ) {
    const subscribers = [];
    for (const person of people) subscribers.push(await makeSubscriber(db(), company, person));
    const frozen = await runs().freezeRun(systemScope(company), {
      kind: 'campaign',
      sourceId: null,
      runKey,
      content,
      audience: { subscriberIds: subscribers.map((entry) => entry.id) },
    });
    const settings = sendingSettingsFrom({ publicUrl: 'https://mail.harbor.example' }, { batchSize: 10 });
    const transport = runTransport(db(), settings.transport);
    const runner = sendRunner(db(), transport, { error: () => undefined }, settings.runner);
    while ((await runner.runBatch()) > 0);
    await transport.close();
    const outbox = await db().tenant(company, (sql) =>
      sql.query<{ id: number; subscriber_id: number; email: string }>(
        'SELECT id::int, subscriber_id::int, email FROM mail_outbox WHERE run_id = $1',
        [frozen.run.id],
      ),
    );
    for (const row of outbox.rows) rows[row.email] = { outboxId: row.id, subscriberId: row.subscriber_id };
  }

  const view = (token: string) => test.app.inject({ method: 'GET', url: `/v/${token}` });
  const tokenOf = (email: string, company = companyId) =>
    viewTokens(secret).sign({ companyId: company, outboxId: rows[email]!.outboxId });

  beforeAll(async () => {
    test = await openTestApp();
    companyId = (await test.newCaller('Harbor Vine')).companyId;
    otherCompanyId = (await test.newCaller('Other Co')).companyId;
    await runs().setPostalAddress(systemScope(companyId), '12 Quay Street');
    await runs().setPostalAddress(systemScope(otherCompanyId), '1 Other Road');
    // One address suppressed before the freeze: its row is frozen `suppressed` and never sent.
    await db().tenant(companyId, (sql) =>
      suppressAddress(sql, companyId, 'gone@example.com', 'bounced', null),
    );
    await sendTo(companyId, 'one', [
      { email: 'ann@example.com', first_name: '<b>Ann</b>' },
      { email: 'gone@example.com', first_name: 'Gone' },
      { email: 'erased@example.com', first_name: 'Erin' },
    ]);
    await sendTo(otherCompanyId, 'other', [{ email: 'other@other.example', first_name: 'Otto' }]);
    await sendTo(companyId, 'hostile', [{ email: 'hostile@example.com', first_name: 'Hal' }], HOSTILE);
    secret = await db().platform(findMailTokenSecret);
  });
  afterAll(() => test.close());

  it('sends each message with its own view link, and the page shows that message again as the recipient got it', async () => {
    const captured = await db().owner((sql) =>
      sql.query<{ html_body: string; text_body: string }>(
        `SELECT html_body, text_body FROM captured_emails WHERE company_id = $1 AND to_address = 'ann@example.com'`,
        [companyId],
      ),
    );
    const mail = captured.rows[0]!;
    const link = /href="https:\/\/mail\.harbor\.example\/v\/([A-Za-z0-9_-]{43})"/.exec(mail.html_body);
    expect(link?.[1]).toBe(tokenOf('ann@example.com'));
    expect(mail.text_body).toContain(`https://mail.harbor.example/v/${link![1]}`);
    expect(mail.html_body).toContain('12 Quay Street ©');
    // The mail itself is tracked: its link is a redirect and it carries the pixel.
    expect(mail.html_body).toMatch(/\/o\/[A-Za-z0-9_-]+\.gif/);

    const answer = await view(link![1]!);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    // The first name escaped, never markup; the company's name, address and the year the message was sent.
    const year = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', year: 'numeric' }).format(
      new Date(),
    );
    expect(answer.body).toContain(`Hi &lt;b&gt;Ann&lt;/b&gt; from Harbor Vine, 12 Quay Street © ${year}`);
    expect(answer.body).not.toContain('<b>Ann</b>');
    expect(answer.body).toContain('<title>Hello &lt;b&gt;Ann&lt;/b&gt;</title>');
    expect(answer.body).not.toContain('ignored');
    // Straight links, no pixel: reading in a browser is not measured.
    expect(answer.body).toContain('href="https://harbor.example/menu"');
    expect(answer.body).not.toMatch(/\/o\/|\/c\//);
    // The footer's unsubscribe link still works.
    const unsubscribe = unsubscribeTokens(secret).sign({
      companyId,
      outboxId: rows['ann@example.com']!.outboxId,
    });
    expect(answer.body).toContain(`/u/${unsubscribe}`);
    // Strict headers: email's inline styles only, no script, no form, never framed, stored or indexed.
    const policy = String(answer.headers['content-security-policy']);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'none'");
    expect(policy).toContain("form-action 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(answer.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.body).toContain('<meta name="robots" content="noindex, nofollow">');
  });

  it('serves a design with a refresh, a base, scripts and event handlers inert, sandboxed without scripts', async () => {
    const token = tokenOf('hostile@example.com');
    const answer = await view(token);
    expect(answer.statusCode).toBe(200);
    const page = answer.body;
    expect(page).not.toMatch(/http-equiv/i);
    expect(page).not.toMatch(/<base\b/i);
    expect(page).not.toMatch(/<script\b/i);
    expect(page).not.toContain('owned');
    expect(page).not.toMatch(/\son[a-z]+\s*=/i);
    expect(page).not.toContain('steal()');
    // The rest stays as designed.
    expect(page).toContain('<meta charset="utf-8">');
    expect(page).toContain('<meta name="viewport" content="width=device-width">');
    expect(page).toContain('<p class="lead">Hi Hal</p>');
    expect(page).toContain('<img src="/logo.png" alt="Logo">');
    expect(page).toContain('<a href="https://harbor.example/menu">Menu</a>');
    const policy = String(answer.headers['content-security-policy'])
      .split(';')
      .map((directive) => directive.trim());
    const sandbox = policy.find((directive) => directive.startsWith('sandbox'));
    expect(sandbox?.split(' ').sort()).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox', 'sandbox']);
    expect(policy).toContain("script-src 'none'");
    expect(policy).toContain("base-uri 'none'");
  });

  it('answers a bare 404 for a tampered token, another purpose, another company, a message never sent and an erased recipient', async () => {
    const good = tokenOf('ann@example.com');
    const tampered = `${good.slice(0, 10)}${good[10] === 'A' ? 'B' : 'A'}${good.slice(11)}`;
    const wrongPurpose = unsubscribeTokens(secret).sign({
      companyId,
      outboxId: rows['ann@example.com']!.outboxId,
    });
    // A real row of the other company, under this company's id: no such row here.
    const crossed = viewTokens(secret).sign({ companyId, outboxId: rows['other@other.example']!.outboxId });
    const suppressed = tokenOf('gone@example.com');
    const erased = tokenOf('erased@example.com');
    expect((await view(erased)).statusCode).toBe(200);
    await db().tenant(companyId, (sql) =>
      eraseSubscriber(sql, systemScope(companyId), rows['erased@example.com']!.subscriberId),
    );
    for (const token of [tampered, wrongPurpose, crossed, suppressed, erased, 'test', 'x'.repeat(43)]) {
      const answer = await view(token);
      expect(answer.statusCode, token).toBe(404);
      expect(answer.body).toContain('This link does not work');
      expect(answer.body).not.toMatch(/Ann|Erin|Gone|Otto|Harbor Vine|Other Co|Quay/);
      expect(answer.headers['x-robots-tag']).toBe('noindex, nofollow');
    }
    // The other company's own token still shows its own message.
    expect((await view(tokenOf('other@other.example', otherCompanyId))).body).toContain(
      'Hi Otto from Other Co',
    );
  });
});
