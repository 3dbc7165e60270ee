import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMailTokenSecret } from '../../server/repositories/mail-outbox.repository.js';
import { mailRunsService } from '../../server/services/mail-runs.service.js';
import { unsubscribeTokens, type UnsubscribeTokens } from '../../server/sending/unsubscribe-token.js';
import { openTestApp, type TestApp } from '../support/app.js';
import { makeSubscriber, systemScope } from '../support/factories.js';

/**
 * `GET`/`POST /u/{token}` through the real app: the GET only shows (translated), the one-click POST
 * unsubscribes without sign-in (consent and suppression), the page can resubscribe, and anything but a
 * token this installation signed for that row is a bare 404.
 */

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('unsubscribe links', () => {
  let test: TestApp;
  let signer: UnsubscribeTokens;
  let companyId: number;
  let otherCompanyId: number;
  let subscriberId: number;
  let outboxId: number;
  let otherOutboxId: number;

  const runs = () => mailRunsService(test.database.db, 'localhost');

  async function freezeOne(company: number, email: string, runKey: string) {
    const subscriber = await makeSubscriber(test.database.db, company, { email });
    const frozen = await runs().freezeRun(systemScope(company), {
      kind: 'campaign',
      sourceId: null,
      runKey,
      content: { from: 'news@example.com', subject: 's', html: '<p>h</p>', text: 't', tracking: false },
      audience: { subscriberIds: [subscriber.id] },
    });
    const row = await test.database.db.tenant(company, (sql) =>
      sql.query<{ id: number }>('SELECT id::int FROM mail_outbox WHERE run_id = $1', [frozen.run.id]),
    );
    return { subscriberId: subscriber.id, outboxId: row.rows[0]!.id };
  }

  const consent = () =>
    test.database.db.tenant(companyId, async (sql) => ({
      subscriber: (
        await sql.query<{ subscribed: boolean; stamped: boolean }>(
          'SELECT subscribed, unsubscribed_at IS NOT NULL AS stamped FROM subscribers WHERE id = $1',
          [subscriberId],
        )
      ).rows[0],
      suppressions: (
        await sql.query<{ reason: string }>(
          `SELECT reason FROM mail_suppressions WHERE lower(email) = 'reader@example.com'`,
        )
      ).rows,
    }));

  beforeAll(async () => {
    test = await openTestApp();
    companyId = (await test.newCaller('Harbor Vine')).companyId;
    otherCompanyId = (await test.newCaller('Other Co')).companyId;
    await runs().setPostalAddress(systemScope(companyId), '12 Quay Street');
    await runs().setPostalAddress(systemScope(otherCompanyId), '1 Other Road');
    ({ subscriberId, outboxId } = await freezeOne(companyId, 'Reader@example.com', 'one'));
    otherOutboxId = (await freezeOne(otherCompanyId, 'someone@other.example', 'other')).outboxId;
    signer = unsubscribeTokens(await test.database.db.platform(findMailTokenSecret));
  });
  afterAll(() => test.close());

  const url = () => `/u/${signer.sign({ companyId, outboxId })}`;

  it('shows a translated page on GET and changes nothing (link scanners open URLs)', async () => {
    const english = await test.app.inject({ method: 'GET', url: url() });
    expect(english.statusCode).toBe(200);
    expect(english.headers['content-type']).toMatch(/^text\/html/);
    expect(english.body).toContain('Stop receiving marketing email from Harbor Vine at Reader@example.com?');
    expect(english.body).toContain('name="List-Unsubscribe" value="One-Click"');
    const french = await test.app.inject({
      method: 'GET',
      url: url(),
      headers: { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.5' },
    });
    expect(french.body).toContain('<html lang="fr">');
    expect(french.body).toContain('Se désabonner');
    expect(await consent()).toEqual({ subscriber: { subscribed: true, stamped: false }, suppressions: [] });
  });

  it('unsubscribes on the one-click POST without sign-in: consent off and the address suppressed', async () => {
    const answer = await test.app.inject({
      method: 'POST',
      url: url(),
      headers: FORM,
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('You are unsubscribed');
    expect(await consent()).toEqual({
      subscriber: { subscribed: false, stamped: true },
      suppressions: [{ reason: 'unsubscribed' }],
    });
    // A second click changes nothing more and still answers.
    const twice = await test.app.inject({
      method: 'POST',
      url: url(),
      headers: FORM,
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(twice.statusCode).toBe(200);
    // The next run leaves the reader out.
    const next = await runs().freezeRun(systemScope(companyId), {
      kind: 'campaign',
      sourceId: null,
      runKey: 'after-unsubscribe',
      content: { from: 'news@example.com', subject: 's', html: 'h', text: 't', tracking: false },
      audience: { subscriberIds: [subscriberId] },
    });
    expect(next.recipients).toBe(0);
    // The page now offers the way back.
    const page = await test.app.inject({ method: 'GET', url: url() });
    expect(page.body).toContain('name="action" value="resubscribe"');
  });

  it('resubscribes from the page', async () => {
    const answer = await test.app.inject({
      method: 'POST',
      url: url(),
      headers: FORM,
      payload: 'action=resubscribe',
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('You are subscribed again');
    expect(await consent()).toEqual({ subscriber: { subscribed: true, stamped: false }, suppressions: [] });
  });

  it('refuses a POST without List-Unsubscribe=One-Click, naming the field', async () => {
    const answer = await test.app.inject({
      method: 'POST',
      url: url(),
      headers: FORM,
      payload: 'List-Unsubscribe=No',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      error: { code: 'unsubscribe_form', fields: { 'List-Unsubscribe': expect.any(String) } },
    });
    expect((await consent()).subscriber).toEqual({ subscribed: true, stamped: false });
  });

  it('answers a bare 404 for a made-up, altered or foreign token', async () => {
    const good = signer.sign({ companyId, outboxId });
    const altered = `${good.slice(0, 10)}${good[10] === 'A' ? 'B' : 'A'}${good.slice(11)}`;
    // Signed by this installation, but naming another company's row under this company.
    const crossed = signer.sign({ companyId, outboxId: otherOutboxId });
    const foreignSecret = unsubscribeTokens('another installation').sign({ companyId, outboxId });
    for (const token of ['abc', 'A'.repeat(43), altered, crossed, foreignSecret]) {
      for (const method of ['GET', 'POST'] as const) {
        const answer = await test.app.inject({
          method,
          url: `/u/${token}`,
          ...(method === 'POST' ? { headers: FORM, payload: 'List-Unsubscribe=One-Click' } : {}),
        });
        expect(answer.statusCode, `${method} ${token}`).toBe(404);
        expect(answer.body).toContain('This link does not work');
        expect(answer.body).not.toMatch(/Harbor Vine|Other Co|@example|@other/);
      }
    }
    expect((await consent()).subscriber).toEqual({ subscribed: true, stamped: false });
  });
});
