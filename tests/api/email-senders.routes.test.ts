import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertEmailProvider } from '../../server/repositories/email-providers.repository.js';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';
import { systemScope } from '../support/factories.js';

describe('Email senders API', () => {
  let t: TestApp;
  let company: ApiCaller;
  let admin: UserCaller;
  let analyst: UserCaller;
  let other: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp();
    company = await t.newCaller('Senders Co');
    admin = await t.newUser(company.companyId, 'admin');
    analyst = await t.newUser(company.companyId, 'analyst');
    other = await t.newCaller('Other Senders Co');
  });
  afterAll(() => t.close());

  const call = (
    caller: { headers: { authorization: string } },
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: caller.headers });

  it('creates, lists, changes and deletes senders; the first is the default', async () => {
    const first = await call(admin, 'POST', '/api/campaigns/email-sender/', {
      name: 'Harbor Grill',
      email: 'hello@harbor.example',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ reply_to: '', is_default: true, verified_at: null });
    const second = (
      await call(admin, 'POST', '/api/campaigns/email-sender/', {
        name: 'Harbor Offers',
        email: 'offers@harbor.example',
        reply_to: 'team@harbor.example',
        is_default: true,
      })
    ).json();
    const listed = (await call(analyst, 'GET', '/api/campaigns/email-sender/')).json();
    expect(
      listed.map((sender: { id: number; is_default: boolean }) => [sender.id, sender.is_default]),
    ).toEqual([
      [second.id, true],
      [first.json().id, false],
    ]);

    const changed = await call(admin, 'PUT', `/api/campaigns/email-sender/${first.json().id}/`, {
      name: 'Harbor Grill Team',
      email: 'team@harbor.example',
    });
    expect(changed.json()).toMatchObject({ name: 'Harbor Grill Team', email: 'team@harbor.example' });
    const duplicate = await call(admin, 'POST', '/api/campaigns/email-sender/', {
      name: 'Again',
      email: 'TEAM@harbor.example',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.fields).toEqual({ email: 'Email is already in use' });
    const invalid = await call(admin, 'POST', '/api/campaigns/email-sender/', {
      name: '',
      email: 'nope',
      reply_to: 'also nope',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields).toEqual({
      name: 'Name is required',
      email: 'Email is not valid',
      reply_to: 'Reply-to is not valid',
    });

    expect((await call(admin, 'DELETE', `/api/campaigns/email-sender/${second.id}/`)).statusCode).toBe(204);
    const after = (await call(admin, 'GET', '/api/campaigns/email-sender/')).json();
    expect(after).toHaveLength(1);
    expect(after[0].is_default).toBe(true);
  });

  it('lets analysts read but not change senders; needs the Campaigns feature', async () => {
    const refused = await call(analyst, 'POST', '/api/campaigns/email-sender/', {
      name: 'X',
      email: 'x@x.example',
    });
    expect(refused.json().error.code).toBe('role_forbidden');
    const noCampaigns = await t.newCaller('No Campaigns Co', { features: ['Locations'] });
    const response = await call(noCampaigns, 'GET', '/api/campaigns/email-sender/');
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('feature_not_enabled');
  });

  it("keeps another company's senders invisible and unchangeable", async () => {
    const mine = (
      await call(company, 'POST', '/api/campaigns/email-sender/', {
        name: 'Mine',
        email: 'mine@senders.example',
      })
    ).json();
    expect((await call(other, 'GET', '/api/campaigns/email-sender/')).json()).toEqual([]);
    const update = await call(other, 'PUT', `/api/campaigns/email-sender/${mine.id}/`, {
      name: 'Stolen',
      email: 'stolen@example.com',
    });
    expect(update.statusCode).toBe(404);
    expect((await call(other, 'DELETE', `/api/campaigns/email-sender/${mine.id}/`)).statusCode).toBe(404);
    // The same address is free in another company.
    const same = await call(other, 'POST', '/api/campaigns/email-sender/', {
      name: 'Theirs',
      email: mine.email,
    });
    expect(same.statusCode).toBe(201);
  });

  it('shows the email provider set-up without its secrets', async () => {
    await t.database.db.tenant(systemScope(company.companyId).companyId, (sql) =>
      upsertEmailProvider(sql, systemScope(company.companyId), {
        provider: 'sendgrid',
        api_key: 'SG.very-secret-api-key-1234',
        settings: { region: 'eu', webhook_secret: 'whsec-long-secret-value' },
      }),
    );
    const response = await call(admin, 'GET', '/api/customers/email-provider/');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      expect.objectContaining({ provider: 'sendgrid', has_api_key: true, api_key_masked: '••••1234' }),
    ]);
    expect(response.json()[0].settings.region).toBe('eu');
    expect(response.body).not.toContain('very-secret');
    expect(response.body).not.toContain('whsec-long');
    expect((await call(analyst, 'GET', '/api/customers/email-provider/')).statusCode).toBe(403);
  });
});
