import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCapturedEmail } from '../../server/repositories/captured-emails.repository.js';
import { findMailTokenSecret } from '../../server/repositories/mail-outbox.repository.js';
import { mailRunsService } from '../../server/services/mail-runs.service.js';
import { TRANSPARENT_GIF } from '../../server/routes/tracking.routes.js';
import { trackingTokens, type TrackingTokens } from '../../server/sending/tracking-token.js';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';
import { makeSubscriber, systemScope } from '../support/factories.js';

/**
 * The sending extras through the real app: the public open pixel and click redirects (no sign-in, 404 for
 * anything forged or altered, never an open redirect), and the company calls — postal address, email provider,
 * sent mail — with 401, validation naming the field, roles and another company's record as 404.
 */

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0';

describe('sending extras API', () => {
  let t: TestApp;
  let company: ApiCaller;
  let admin: UserCaller;
  let marketer: UserCaller;
  let other: ApiCaller;
  let signer: TrackingTokens;
  let outboxId: number;

  const call = (
    caller: { headers: { authorization: string } } | null,
    method: 'GET' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: caller?.headers ?? {} });

  beforeAll(async () => {
    t = await openTestApp();
    company = await t.newCaller('Harbor Vine');
    admin = await t.newUser(company.companyId, 'admin');
    marketer = await t.newUser(company.companyId, 'marketer');
    other = await t.newCaller('Other Co');
    const runs = mailRunsService(t.database.db, 'localhost');
    await runs.setPostalAddress(systemScope(company.companyId), '12 Quay Street');
    const reader = await makeSubscriber(t.database.db, company.companyId, { email: 'reader@example.com' });
    const frozen = await runs.freezeRun(systemScope(company.companyId), {
      kind: 'campaign',
      sourceId: null,
      runKey: 'one',
      content: { from: 'news@example.com', subject: 's', html: '<p>h</p>', text: 't', tracking: true },
      audience: { subscriberIds: [reader.id] },
    });
    outboxId = (
      await t.database.db.tenant(company.companyId, (sql) =>
        sql.query<{ id: number }>(
          `UPDATE mail_outbox SET status = 'sent', sent_at = now() - interval '1 hour' WHERE run_id = $1
           RETURNING id::int`,
          [frozen.run.id],
        ),
      )
    ).rows[0]!.id;
    signer = trackingTokens(await t.database.db.platform(findMailTokenSecret));
  });
  afterAll(() => t.close());

  const counts = () =>
    t.database.db.tenant(company.companyId, async (sql) => {
      const { rows } = await sql.query<{ open_count: number; click_count: number }>(
        'SELECT open_count, click_count FROM mail_outbox WHERE id = $1',
        [outboxId],
      );
      return rows[0]!;
    });

  describe('public tracking links', () => {
    it('answers the open pixel without sign-in: a 1×1 GIF, never cached, and records the open', async () => {
      const token = signer.signOpen({ companyId: company.companyId, outboxId });
      const answer = await t.app.inject({
        method: 'GET',
        url: `/o/${token}.gif`,
        headers: { 'user-agent': PERSON },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('image/gif');
      expect(answer.headers['cache-control']).toContain('no-store');
      expect(answer.rawPayload.equals(TRANSPARENT_GIF)).toBe(true);
      // GIF89a, 1×1.
      expect(answer.rawPayload.subarray(0, 6).toString('latin1')).toBe('GIF89a');
      expect(answer.rawPayload.readUInt16LE(6)).toBe(1);
      expect(answer.rawPayload.readUInt16LE(8)).toBe(1);
      expect((await counts()).open_count).toBe(1);
    });

    it('redirects a click to the exact signed URL and records it', async () => {
      const url = 'https://harbor.example/menu?x=1&y=%20';
      const token = signer.signClick({ companyId: company.companyId, outboxId }, url);
      const answer = await t.app.inject({
        method: 'GET',
        url: `/c/${token}`,
        headers: { 'user-agent': PERSON },
      });
      expect(answer.statusCode).toBe(302);
      expect(answer.headers.location).toBe(url);
      expect((await counts()).click_count).toBe(1);
    });

    it('answers 404 for forged, altered or misplaced tokens, and never redirects elsewhere', async () => {
      const row = { companyId: company.companyId, outboxId };
      const click = Buffer.from(signer.signClick(row, 'https://harbor.example/'), 'base64url');
      const tampered = Buffer.concat([click.subarray(0, 32), Buffer.from('https://evil.example/')]);
      const before = await counts();
      for (const url of [
        `/c/${tampered.toString('base64url')}`,
        `/c/${'A'.repeat(60)}`,
        `/c/${signer.signOpen(row)}`,
        `/o/${'A'.repeat(43)}.gif`,
        `/o/${signer.signOpen(row)}`,
        `/o/${signer.signClick(row, 'https://harbor.example/')}.gif`,
      ]) {
        const answer = await t.app.inject({ method: 'GET', url, headers: { 'user-agent': PERSON } });
        expect(answer.statusCode, url).toBe(404);
        expect(answer.headers.location).toBeUndefined();
        expect(answer.body).not.toContain('evil');
      }
      expect(await counts()).toEqual(before);
    });
  });

  describe('postal address', () => {
    const url = '/api/accounts/postal-address/';
    it('needs sign-in, reads for the company, and is set by an admin only', async () => {
      expect((await call(null, 'GET', url)).statusCode).toBe(401);
      expect((await call(null, 'PUT', url, { postal_address: 'x' })).statusCode).toBe(401);
      expect((await call(admin, 'GET', url)).json()).toEqual({ postal_address: '12 Quay Street' });
      expect((await call(other, 'GET', url)).json()).toEqual({ postal_address: '' });
      expect((await call(marketer, 'PUT', url, { postal_address: '1 Pier Road' })).statusCode).toBe(403);
      const saved = await call(admin, 'PUT', url, { postal_address: '  1 Pier Road\nPortland, ME 04101  ' });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({ postal_address: '1 Pier Road\nPortland, ME 04101' });
      expect((await call(marketer, 'GET', url)).json()).toEqual({
        postal_address: '1 Pier Road\nPortland, ME 04101',
      });
      // The other company's address is untouched.
      expect((await call(other, 'GET', url)).json()).toEqual({ postal_address: '' });
    });

    it('refuses a blank or too long address, naming postal_address', async () => {
      for (const postal_address of ['   ', 'x'.repeat(501)]) {
        const answer = await call(admin, 'PUT', url, { postal_address });
        expect(answer.statusCode).toBe(400);
        expect(Object.keys(answer.json().error.fields)).toEqual(['postal_address']);
      }
      expect((await call(admin, 'PUT', url, {})).json().error.fields).toHaveProperty('postal_address');
    });
  });

  describe('email provider', () => {
    const url = '/api/customers/email-provider/';
    it('sets a provider with its key masked, replaces it, and removes it; admin only', async () => {
      expect((await call(null, 'PUT', url, { provider: 'sendgrid', api_key: 'k' })).statusCode).toBe(401);
      expect((await call(marketer, 'PUT', url, { provider: 'sendgrid', api_key: 'SG.x' })).statusCode).toBe(
        403,
      );
      const set = await call(admin, 'PUT', url, { provider: 'sendgrid', api_key: 'SG.very-secret-key-1234' });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({
        provider: 'sendgrid',
        has_api_key: true,
        api_key_masked: '••••1234',
      });
      expect(set.body).not.toContain('very-secret');
      const replaced = await call(admin, 'PUT', url, {
        provider: 'mailgun',
        api_key: 'mailgun-password-abcd',
        settings: { smtp_login: 'postmaster@mg.harbor.example', region: 'eu' },
      });
      expect(replaced.statusCode).toBe(200);
      const listed = await call(admin, 'GET', url);
      expect(listed.json()).toEqual([
        expect.objectContaining({ provider: 'mailgun', api_key_masked: '••••abcd', has_api_key: true }),
      ]);
      expect(listed.body).not.toContain('mailgun-password');
      // Settings alone change; the saved key stays.
      const settingsOnly = await call(admin, 'PUT', url, {
        provider: 'mailgun',
        settings: { smtp_login: 'news@mg.harbor.example' },
      });
      expect(settingsOnly.json()).toMatchObject({ has_api_key: true, api_key_masked: '••••abcd' });
      const id = replaced.json().id as number;
      expect((await call(other, 'DELETE', `${url}${id}/`)).statusCode).toBe(404);
      expect((await call(admin, 'DELETE', `${url}${id}/`)).statusCode).toBe(204);
      expect((await call(admin, 'GET', url)).json()).toEqual([]);
    });

    it('refuses an unknown provider or a missing setting, naming the field', async () => {
      const unknown = await call(admin, 'PUT', url, { provider: 'carrier-pigeon', api_key: 'k' });
      expect(unknown.statusCode).toBe(400);
      expect(Object.keys(unknown.json().error.fields)).toEqual(['provider']);
      const mailgun = await call(admin, 'PUT', url, { provider: 'mailgun', api_key: 'k', settings: {} });
      expect(mailgun.json().error.fields).toHaveProperty(['settings.smtp_login']);
      const ses = await call(admin, 'PUT', url, {
        provider: 'ses',
        api_key: 'k',
        settings: { region: 'mars', smtp_username: 'AKIA' },
      });
      expect(Object.keys(ses.json().error.fields)).toEqual(['settings.region']);
      const smtp = await call(admin, 'PUT', url, {
        provider: 'smtp',
        api_key: 'k',
        settings: { host: 'mail.example', port: 70000 },
      });
      expect(Object.keys(smtp.json().error.fields)).toEqual(['settings.port']);
      const blankKey = await call(admin, 'PUT', url, { provider: 'postmark', api_key: '  ' });
      expect(Object.keys(blankKey.json().error.fields)).toEqual(['api_key']);
    });
  });

  describe('sent mail', () => {
    let mine: number;
    let theirs: number;
    beforeAll(async () => {
      const keep = (companyId: number, subject: string) =>
        t.database.db.tenant(companyId, (sql) =>
          insertCapturedEmail(sql, companyId, {
            from: 'news@harbor.example',
            to: 'reader@example.com',
            subject,
            text: 'Hello',
            html: '<p>Hello</p>',
            headers: { From: 'news@harbor.example', 'List-Unsubscribe': '<https://x.example/u/t>' },
            messageId: '<r1.s1@localhost>',
          }),
        );
      mine = (await keep(company.companyId, 'Autumn menu')).id;
      await keep(company.companyId, 'Winter offers');
      theirs = (await keep(other.companyId, 'Autumn menu elsewhere')).id;
    });

    it('lists the company’s kept mail newest first, searched by subject, paged', async () => {
      expect((await call(null, 'GET', '/api/campaigns/sent-mail/')).statusCode).toBe(401);
      const all = (await call(marketer, 'GET', '/api/campaigns/sent-mail/')).json();
      expect(all.results.map((m: { subject: string }) => m.subject)).toEqual([
        'Winter offers',
        'Autumn menu',
      ]);
      const searched = (await call(marketer, 'GET', '/api/campaigns/sent-mail/?q=autumn')).json();
      expect(searched).toMatchObject({ count: 1, results: [{ id: mine, subject: 'Autumn menu' }] });
      const paged = (await call(marketer, 'GET', '/api/campaigns/sent-mail/?page=2&page_size=1')).json();
      expect(paged).toMatchObject({ count: 2, results: [{ subject: 'Autumn menu' }] });
      const bad = await call(marketer, 'GET', '/api/campaigns/sent-mail/?page=0');
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().error.fields)).toEqual(['page']);
    });

    it('shows one message with HTML, text and headers; another company’s is 404', async () => {
      const one = await call(marketer, 'GET', `/api/campaigns/sent-mail/${mine}/`);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({
        html: '<p>Hello</p>',
        text: 'Hello',
        message_id: '<r1.s1@localhost>',
        headers: [
          { name: 'From', value: 'news@harbor.example' },
          { name: 'List-Unsubscribe', value: '<https://x.example/u/t>' },
        ],
      });
      expect((await call(marketer, 'GET', `/api/campaigns/sent-mail/${theirs}/`)).statusCode).toBe(404);
      expect((await call(null, 'GET', `/api/campaigns/sent-mail/${mine}/`)).statusCode).toBe(401);
    });
  });
});
