import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestClock, type SharedTestClock } from '../../server/flows/clock.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { makeCompany, makeSubscriber, makeUser } from '../support/factories.js';
import { makeLiveFlow } from '../support/flow-fixture.js';

/**
 * The flow engine's calls: `GET /api/campaigns/flows/{id}/node-counts/`, `GET /api/customers/subscribers/{id}/flows/`
 * and the test clock's `POST /api/test/clock/` (present only with a test clock) — 401, roles, validation naming
 * the field, and another company's record as 404.
 */

describe('flow engine calls', () => {
  let t: TestApp;
  let plain: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let flowId: number;
  let subscriberId: number;
  let clock: SharedTestClock;

  beforeAll(async () => {
    // The app's clock keeps its offset in the test database, as a test installation's does.
    t = await openTestApp({ flows: (db) => ({ testClock: (clock = sharedTestClock(db)) }) });
    plain = await openTestApp();
    alice = await t.newCaller('Alice Bistro');
    bob = await t.newCaller('Bob Diner');
    ({ flowId } = await makeLiveFlow(t.database.db, alice.companyId, [
      {
        key: 't',
        kind: 'trigger',
        settings: { type: 'new_subscriber' },
        position: { x: 0, y: 0 },
        next_key: null,
        no_key: null,
      },
    ]));
    subscriberId = (await makeSubscriber(t.database.db, alice.companyId)).id;
  });
  afterAll(async () => {
    await t.close();
    await plain.close();
  });

  const get = (caller: ApiCaller | null, url: string) =>
    t.app.inject({ method: 'GET', url, headers: caller?.headers ?? {} });

  it('answers per-node counts of the caller’s flow; 404 for another company’s; 401 without credentials', async () => {
    const url = `/api/campaigns/flows/${flowId}/node-counts/`;
    const answer = await get(alice, url);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ flow_id: flowId, counts: {} });
    expect((await get(bob, url)).statusCode).toBe(404);
    expect((await get(null, url)).statusCode).toBe(401);
    const bad = await get(alice, '/api/campaigns/flows/abc/node-counts/');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('id');
  });

  it('answers a subscriber’s flow paths; 404 for another company’s; 401 without credentials', async () => {
    const url = `/api/customers/subscribers/${subscriberId}/flows/`;
    const answer = await get(alice, url);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ results: [] });
    expect((await get(bob, url)).statusCode).toBe(404);
    expect((await get(null, url)).statusCode).toBe(401);
  });

  it('moves the test clock for platform staff only, in every process, naming a bad field; absent without a test clock', async () => {
    const owner = await t.newUser(alice.companyId, 'owner');
    const support = await makeCompany(t.database.db, 'Regulars Support');
    const staffUser = await makeUser(t.database.db, support.id, { role: 'owner', is_staff: true });
    const staff = {
      authorization: `Bearer ${(await t.tokens.issue({ userId: staffUser.id })).access_token}`,
    };
    const post = (headers: object, payload: object, app = t) =>
      app.app.inject({
        method: 'POST',
        url: '/api/test/clock/',
        headers: headers as Record<string, string>,
        payload,
      });
    // Another process (a `npm run worker`) has its own clock object on the same database.
    const worker = sharedTestClock(t.database.db);
    await worker.sync();
    const workerBefore = worker.now().getTime();
    const before = clock.now().getTime();
    const moved = await post(staff, { advance_seconds: 86_400 });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().offset_seconds).toBe(86_400);
    expect(Date.parse(moved.json().now)).toBeGreaterThanOrEqual(before + 86_400_000);
    // The other process sees the move at its next turn (sync), not before.
    expect(worker.now().getTime() - workerBefore).toBeLessThan(60_000);
    await worker.sync();
    expect(worker.now().getTime()).toBeGreaterThanOrEqual(workerBefore + 86_400_000);
    // Moves add up, and a second move is seen by both.
    expect((await post(staff, { advance_seconds: 60 })).json().offset_seconds).toBe(86_460);
    await worker.sync();
    expect(worker.now().getTime() - Date.now()).toBeGreaterThanOrEqual(86_460_000 - 1000);

    const bad = await post(staff, { advance_seconds: -5 });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('advance_seconds');
    // Company roles, even an owner, may not move the installation's clock; nothing moved.
    const refused = await post(owner.headers, { advance_seconds: 1 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('staff_required');
    expect((await post(alice.headers, { advance_seconds: 1 })).statusCode).toBe(403);
    expect((await post({}, { advance_seconds: 1 })).statusCode).toBe(401);
    await worker.sync();
    expect(worker.now().getTime() - Date.now()).toBeLessThan(86_460_000 + 1000);
    const absentOwner = await plain.newUser((await plain.newCaller('Plain')).companyId, 'owner');
    expect((await post(absentOwner.headers, { advance_seconds: 1 }, plain)).statusCode).toBe(404);
  });
});
