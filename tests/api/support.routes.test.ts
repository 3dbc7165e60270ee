import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_LOG_LIMITS } from '../../src/schemas/support.js';
import { fingerprint } from '../../src/services/redact.js';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';
import { makeCompany, makeUser } from '../support/factories.js';

/** A realistic redacted log: a sign-in, a settings form and a done event with a hashed email. */
function entries(count = 3) {
  const all = [
    {
      seq: 1,
      at: 1_700_000_000_000,
      actor: 'auth#1',
      machine: 'auth',
      event: { type: 'xstate.init', input: { language: 'en' } },
    },
    {
      seq: 2,
      at: 1_700_000_000_500,
      actor: 'accountSettings#2',
      machine: 'accountSettings',
      source: 'accountSettings#2/x:1',
      event: {
        type: 'xstate.done.actor.loadSettings',
        output: { email: fingerprint('ann@example.com'), language: 'en' },
      },
    },
    {
      seq: 3,
      at: 1_700_000_001_000,
      actor: 'accountSettings#2',
      machine: 'accountSettings',
      event: { type: 'settings.submit' },
    },
  ];
  for (let seq = 4; seq <= count; seq++) {
    all.push({
      seq,
      at: 1_700_000_001_000 + seq,
      actor: 'auth#1',
      machine: 'auth',
      event: { type: 'session.verify' },
    });
  }
  return all.slice(0, count);
}

describe('Support event logs API', () => {
  let t: TestApp;
  let harbor: ApiCaller;
  let analyst: UserCaller;
  let owner: UserCaller;
  let otherOwner: UserCaller;
  let staff: { headers: { authorization: string } };

  const send = (caller: { headers: { authorization: string } }, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/support/event-logs/',
      payload: payload as object,
      headers: caller.headers,
    });
  const get = (caller: { headers: { authorization: string } }, url: string) =>
    t.app.inject({ method: 'GET', url, headers: caller.headers });

  beforeAll(async () => {
    t = await openTestApp();
    harbor = await t.newCaller('Harbor Restaurants');
    const named = await makeUser(t.database.db, harbor.companyId, {
      role: 'analyst',
      first_name: 'Dana',
      last_name: 'Whitfield',
      email: 'dana.whitfield@harbor.example',
    });
    analyst = {
      companyId: harbor.companyId,
      userId: named.id,
      email: named.email,
      headers: { authorization: `Bearer ${(await t.tokens.issue({ userId: named.id })).access_token}` },
    };
    owner = await t.newUser(harbor.companyId, 'owner');
    const other = await t.newCaller('Other Diner');
    otherOwner = await t.newUser(other.companyId, 'owner');
    const support = await makeCompany(t.database.db, 'Regulars Support');
    const staffUser = await makeUser(t.database.db, support.id, {
      role: 'owner',
      is_staff: true,
      first_name: 'Sasha',
      last_name: 'Support',
      email: 'sasha@support.example',
    });
    staff = {
      headers: { authorization: `Bearer ${(await t.tokens.issue({ userId: staffUser.id })).access_token}` },
    };
  });
  afterAll(() => t.close());

  it('stores any signed-in user’s log and lets staff list and download it as JSON Lines', async () => {
    const created = await send(analyst, { entries: entries() });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect(id).toEqual(expect.any(Number));

    const list = await get(staff, '/api/support/event-logs/');
    expect(list.statusCode).toBe(200);
    const row = list.json().results.find((item: { id: number }) => item.id === id);
    expect(row).toMatchObject({
      company_id: harbor.companyId,
      company_name: 'Harbor Restaurants',
      user_id: analyst.userId,
      user_name: 'Dana Whitfield',
      user_email: 'dana.whitfield@harbor.example',
      actor_user_id: analyst.userId,
      actor_name: 'Dana Whitfield',
      actor_email: 'dana.whitfield@harbor.example',
      entry_count: 3,
    });

    const download = await get(staff, `/api/support/event-logs/${id}/`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toContain('application/x-ndjson');
    expect(download.headers['content-disposition']).toContain(`event-log-${id}.jsonl`);
    const lines = download.body.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual(entries());
    expect(row.byte_size).toBe(Buffer.byteLength(download.body));
  });

  it('names the staff member who sent a log while acting as a user, beside that user', async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/hijack/',
      payload: { user_id: analyst.userId },
      headers: staff.headers,
    });
    expect(started.statusCode).toBe(201);
    const acting = { headers: { authorization: `Bearer ${started.json().access_token}` } };
    const { id } = (await send(acting, { entries: entries() })).json();
    await t.app.inject({ method: 'POST', url: '/api/accounts/hijack/release/', headers: acting.headers });

    const row = (await get(staff, '/api/support/event-logs/'))
      .json()
      .results.find((item: { id: number }) => item.id === id);
    expect(row).toMatchObject({
      user_id: analyst.userId,
      user_name: 'Dana Whitfield',
      user_email: 'dana.whitfield@harbor.example',
      actor_name: 'Sasha Support',
      actor_email: 'sasha@support.example',
    });
    expect(row.actor_user_id).not.toBe(analyst.userId);
  });

  it('is listed and downloaded by platform staff only, never by a company (its own or another)', async () => {
    const { id } = (await send(otherOwner, { entries: entries() })).json();
    for (const caller of [owner, analyst, otherOwner]) {
      const list = await get(caller, '/api/support/event-logs/');
      expect(list.statusCode).toBe(403);
      expect(list.json().error.code).toBe('staff_only');
      const download = await get(caller, `/api/support/event-logs/${id}/`);
      expect(download.statusCode).toBe(403);
      expect(download.json().error.code).toBe('staff_only');
    }
    expect((await get(harbor, '/api/support/event-logs/')).statusCode).toBe(403);
    expect((await get(staff, '/api/support/event-logs/999999/')).statusCode).toBe(404);
  });

  it('refuses a company token (no browser session) and anonymous callers', async () => {
    expect((await send(harbor, { entries: entries() })).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/support/event-logs/',
      payload: { entries: entries() },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('names the field and line of a bad entry', async () => {
    const broken = entries();
    (broken[1] as { machine: unknown }).machine = '';
    const shape = await send(owner, { entries: broken });
    expect(shape.statusCode).toBe(400);
    expect(shape.json().error.fields).toEqual({ 'entries.1.machine': 'machine is required' });

    expect((await send(owner, { entries: [] })).json().error.fields).toEqual({
      entries: 'entries must hold at least one entry',
    });

    const reordered = entries();
    reordered[2]!.seq = 1;
    const order = await send(owner, { entries: reordered });
    expect(order.statusCode).toBe(400);
    expect(order.json().error.fields).toEqual({ 'entries.2.seq': 'line 3: seq must grow (after 2)' });
  });

  it('refuses a log that still holds an email address in clear', async () => {
    const leaking = entries();
    leaking[1]!.event = {
      type: 'xstate.done.actor.loadSettings',
      output: { email: 'ann@example.com', language: 'en' },
    };
    const response = await send(owner, { entries: leaking });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({
      'entries.1.event': 'line 2: the event holds an email address in clear',
    });
  });

  it('is published in the OpenAPI document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).toEqual(
      expect.arrayContaining(['/api/support/event-logs/', '/api/support/event-logs/{id}/']),
    );
  });

  it('caps a log at 5000 entries and 5 MB', async () => {
    const many = await send(owner, { entries: entries(SUPPORT_LOG_LIMITS.maxEntries + 1) });
    expect(many.statusCode).toBe(400);
    expect(many.json().error.fields).toEqual({ entries: 'entries must hold at most 5000 entries' });

    const padding = 'x'.repeat(1100);
    const big = entries(SUPPORT_LOG_LIMITS.maxEntries).map((entry) => ({
      ...entry,
      event: { ...entry.event, padding },
    }));
    const tooBig = await send(owner, { entries: big });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.code).toBe('log_too_large');
    // Two five-megabyte bodies through the whole stack: slow on a busy machine.
  }, 90_000);
});
