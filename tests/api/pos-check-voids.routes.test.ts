import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { makeLocation } from '../support/factories.js';

describe('POS check voids API', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let home: number;
  let bobsPlace: number;

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
    home = (await makeLocation(t.database.db, alice.companyId, 'Home')).id;
    bobsPlace = (await makeLocation(t.database.db, bob.companyId, 'Bob’s')).id;
  });
  afterAll(() => t.close());

  const post = (caller: ApiCaller | null, url: string, checks: unknown) =>
    t.app.inject({ method: 'POST', url, payload: { checks }, headers: caller?.headers ?? {} });
  const identity = (location: number, number: string) => ({
    location_id: location,
    check_number: number,
    closed_at: '2025-03-09T19:30:00Z',
  });
  const check = (location: number, number: string, total: number) => ({
    ...identity(location, number),
    opened_at: '2025-03-09T18:00:00Z',
    total,
    guest: { pos_id: 'P-1' },
  });
  const guestFigures = (companyId: number) =>
    t.database.db.owner(
      async (sql) =>
        (
          await sql.query<{ visit_count: number; total_spend_cents: number }>(
            `SELECT visit_count, total_spend_cents::int AS total_spend_cents FROM guests
             WHERE company_id = $1 AND pos_id = 'P-1'`,
            [companyId],
          )
        ).rows[0],
    );

  it("voids a check sent before and takes it out of the guest's visits and spend", async () => {
    await post(alice, '/api/pos/checks/', [check(home, 'V-1', 20), check(home, 'V-2', 12.5)]);
    expect(await guestFigures(alice.companyId)).toEqual({ visit_count: 2, total_spend_cents: 3250 });
    const answer = await post(alice, '/api/pos/checks/void/', [identity(home, 'V-1'), identity(home, 'V-9')]);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ voided: 1, not_found: [1], rejected: [] });
    expect(await guestFigures(alice.companyId)).toEqual({ visit_count: 1, total_spend_cents: 1250 });
    // Voided again, it is simply not there.
    expect((await post(alice, '/api/pos/checks/void/', [identity(home, 'V-1')])).json()).toEqual({
      voided: 0,
      not_found: [0],
      rejected: [],
    });
  });

  it('rejects a bad entry with its index and field, and voids the good ones', async () => {
    await post(alice, '/api/pos/checks/', [check(home, 'W-1', 5)]);
    const answer = await post(alice, '/api/pos/checks/void/', [
      { location_id: home, check_number: 'W-1' },
      identity(home, 'W-1'),
      { ...identity(home, 'W-2'), location_id: 'x' },
    ]);
    expect(answer.json()).toEqual({
      voided: 1,
      not_found: [],
      rejected: [
        { index: 0, field: 'closed_at', reason: expect.stringContaining('closed_at') },
        { index: 2, field: 'location_id', reason: 'location_id must be a location id' },
      ],
    });
  });

  it('counts a check named twice once, refusing the repeat', async () => {
    await post(alice, '/api/pos/checks/', [check(home, 'T-1', 8)]);
    const answer = await post(alice, '/api/pos/checks/void/', [identity(home, 'T-1'), identity(home, 'T-1')]);
    expect(answer.json()).toEqual({
      voided: 1,
      not_found: [],
      rejected: [{ index: 1, field: 'check_number', reason: 'the same check is named earlier in the list' }],
    });
  });

  it("treats another company's check as not found and leaves it stored", async () => {
    await post(bob, '/api/pos/checks/', [check(bobsPlace, 'B-1', 30)]);
    const answer = await post(alice, '/api/pos/checks/void/', [identity(bobsPlace, 'B-1')]);
    expect(answer.json()).toEqual({ voided: 0, not_found: [0], rejected: [] });
    expect(await guestFigures(bob.companyId)).toEqual({ visit_count: 1, total_spend_cents: 3000 });
  });

  it('refuses callers without sign-in and a body that is not a list of checks', async () => {
    expect((await post(null, '/api/pos/checks/void/', [identity(home, 'V-2')])).statusCode).toBe(401);
    const empty = await post(alice, '/api/pos/checks/void/', []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toHaveProperty('checks');
  });
});
