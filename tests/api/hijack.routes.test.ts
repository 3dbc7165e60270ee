import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../server/auth/principal.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { listImpersonations } from '../../server/repositories/impersonations.repository.js';
import { updateUser } from '../../server/repositories/users.repository.js';
import { hijackService } from '../../server/services/hijack.service.js';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';
import { makeCompany, makeUser, systemScope } from '../support/factories.js';
import { changeAfterFirstTransaction } from '../db/support/between-transactions.js';

describe('Impersonation API (/hijack)', () => {
  let t: TestApp;
  let restaurant: ApiCaller;
  let owner: UserCaller;
  let marketer: UserCaller;
  let staff: { userId: number; email: string; headers: { authorization: string } };
  let otherStaffId: number;
  let staffCompanyId: number;

  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  const call = (
    caller: { headers: { authorization: string } },
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: caller.headers });

  beforeAll(async () => {
    t = await openTestApp();
    restaurant = await t.newCaller('Harbor Restaurants');
    owner = await t.newUser(restaurant.companyId, 'owner');
    marketer = await t.newUser(restaurant.companyId, 'marketer');
    const support = await makeCompany(t.database.db, 'Regulars Support');
    staffCompanyId = support.id;
    const staffUser = await makeUser(t.database.db, support.id, {
      email: 'staff@support.example',
      first_name: 'Sam',
      last_name: 'Support',
      role: 'owner',
      is_staff: true,
    });
    otherStaffId = (await makeUser(t.database.db, support.id, { role: 'admin', is_staff: true })).id;
    staff = {
      userId: staffUser.id,
      email: staffUser.email,
      ...bearer((await t.tokens.issue({ userId: staffUser.id })).access_token),
    };
  });
  afterAll(() => t.close());

  const start = async (userId: number) => {
    const response = await call(staff, 'POST', '/api/accounts/hijack/', { user_id: userId });
    expect(response.statusCode).toBe(201);
    return response.json<{ access_token: string; impersonation_id: number }>();
  };

  it('is refused to anyone who is not staff', async () => {
    for (const caller of [owner, marketer]) {
      const list = await call(caller, 'GET', '/api/accounts/hijack/users/');
      expect(list.statusCode).toBe(403);
      expect(list.json().error.code).toBe('staff_only');
      const begin = await call(caller, 'POST', '/api/accounts/hijack/', { user_id: marketer.userId });
      expect(begin.json().error.code).toBe('staff_only');
    }
    expect((await call(restaurant, 'GET', '/api/accounts/hijack/users/')).statusCode).toBe(403);
  });

  it('lists candidates across companies, never staff, searchable', async () => {
    const all = (await call(staff, 'GET', '/api/accounts/hijack/users/')).json();
    const ids = all.map((candidate: { id: number }) => candidate.id);
    expect(ids).toEqual(expect.arrayContaining([owner.userId, marketer.userId]));
    expect(ids).not.toContain(staff.userId);
    expect(ids).not.toContain(otherStaffId);
    const found = (
      await call(staff, 'GET', `/api/accounts/hijack/users/?q=${encodeURIComponent(marketer.email)}`)
    ).json();
    expect(found).toEqual([
      {
        id: marketer.userId,
        email: marketer.email,
        name: marketer.email,
        role: 'marketer',
        company: { id: restaurant.companyId, name: 'Harbor Restaurants' },
      },
    ]);
  });

  it('acts as the user with both identities in the audit log, until released', async () => {
    const started = await start(marketer.userId);
    const as = bearer(started.access_token);
    const me = (await call(as, 'GET', '/api/accounts/verify/')).json();
    expect(me).toMatchObject({
      id: marketer.userId,
      role: 'marketer',
      impersonator: { id: staff.userId, email: 'staff@support.example', name: 'Sam Support' },
    });

    const settings = (await call(as, 'GET', '/api/accounts/settings/')).json();
    expect(
      (await call(as, 'PUT', '/api/accounts/settings/', { ...settings, language: 'es' })).statusCode,
    ).toBe(200);
    const [entry] = await t.database.db.tenant(restaurant.companyId, (sql) =>
      listAudit(sql, restaurant.companyId, {
        entity: 'account_settings',
        entityId: marketer.userId,
      }),
    );
    expect(entry).toMatchObject({ user_id: marketer.userId, actor_user_id: staff.userId });

    // No impersonation inside an impersonation, and no taking over the user's password.
    expect((await call(as, 'GET', '/api/accounts/hijack/users/')).json().error.code).toBe('staff_only');
    const password = await call(as, 'PUT', '/api/accounts/password/', {
      current_password: 'whatever',
      new_password: 'taken-over',
      confirm_password: 'taken-over',
    });
    expect(password.statusCode).toBe(403);

    const sessions = (await call(owner, 'GET', '/api/accounts/impersonations/')).json();
    expect(sessions[0]).toMatchObject({
      id: started.impersonation_id,
      user_id: marketer.userId,
      staff_user_id: staff.userId,
      ended_at: null,
    });
    expect((await call(marketer, 'GET', '/api/accounts/impersonations/')).statusCode).toBe(403);

    const released = await call(as, 'POST', '/api/accounts/hijack/release/');
    expect(released.statusCode).toBe(200);
    expect((await call(as, 'GET', '/api/accounts/verify/')).statusCode).toBe(401);
    const ended = (await call(owner, 'GET', '/api/accounts/impersonations/')).json();
    expect(ended[0].ended_at).not.toBeNull();
    // The user's own session was never touched.
    expect((await call(marketer, 'GET', '/api/accounts/verify/')).json().impersonator).toBeNull();
  });

  it('audits changes as the owner with the staff actor; logout ends only the impersonation', async () => {
    const started = await start(owner.userId);
    const as = bearer(started.access_token);
    const location = await call(as, 'POST', '/api/customers/locations/', { name: 'Support-made' });
    expect(location.statusCode).toBe(201);
    const [entry] = await t.database.db.tenant(restaurant.companyId, (sql) =>
      listAudit(sql, restaurant.companyId, {
        entity: 'location',
        entityId: location.json().id,
      }),
    );
    expect(entry).toMatchObject({ user_id: owner.userId, actor_user_id: staff.userId });

    expect((await call(as, 'GET', '/api/accounts/logout/')).statusCode).toBe(200);
    expect((await call(as, 'GET', '/api/accounts/verify/')).statusCode).toBe(401);
    expect((await call(owner, 'GET', '/api/accounts/verify/')).statusCode).toBe(200);
    expect((await call(staff, 'GET', '/api/accounts/verify/')).statusCode).toBe(200);
  });

  it('names the staff member and the user on a note written while acting, on screen and in the audit', async () => {
    const subscriber = await call(owner, 'POST', '/api/subscriptions/subscribers/', {
      email: 'guest@harbor.example',
    });
    expect(subscriber.statusCode).toBe(201);
    const notesUrl = `/api/subscriptions/subscribers/${subscriber.json().id}/notes/`;
    const direct = await call(owner, 'POST', notesUrl, { body: 'Written by the owner' });
    const started = await start(owner.userId);
    const acting = await call(bearer(started.access_token), 'POST', notesUrl, { body: 'Written by support' });
    expect(acting.statusCode).toBe(201);
    await call(bearer(started.access_token), 'POST', '/api/accounts/hijack/release/');

    const notes = (await call(owner, 'GET', notesUrl)).json<
      { body: string; written_by_staff_name: string | null }[]
    >();
    expect(notes).toEqual([
      expect.objectContaining({
        body: 'Written by support',
        // The author stays the user acted as, as on the owner's own note.
        author_name: direct.json().author_name,
        written_by_staff_name: 'Sam Support',
      }),
      expect.objectContaining({ body: 'Written by the owner', written_by_staff_name: null }),
    ]);
    const audit = await t.database.db.tenant(restaurant.companyId, (sql) =>
      listAudit(sql, restaurant.companyId, { entity: 'note', entityId: acting.json().id }),
    );
    expect(audit).toEqual([expect.objectContaining({ user_id: owner.userId, actor_user_id: staff.userId })]);
    // Names stay out of the audit row: the ids above say who.
    expect(JSON.stringify(audit[0]?.after)).not.toContain('Sam');
    expect(direct.json().written_by_staff_name).toBeNull();
  });

  it('refuses staff targets, unknown users and a release without an impersonation', async () => {
    const target = await call(staff, 'POST', '/api/accounts/hijack/', { user_id: otherStaffId });
    expect(target.statusCode).toBe(403);
    expect(target.json().error.code).toBe('staff_target');
    expect((await call(staff, 'POST', '/api/accounts/hijack/', { user_id: 999999 })).statusCode).toBe(404);
    expect((await call(staff, 'POST', '/api/accounts/hijack/', { user_id: 'x' })).statusCode).toBe(400);
    const release = await call(staff, 'POST', '/api/accounts/hijack/release/');
    expect(release.statusCode).toBe(400);
    expect(release.json().error.code).toBe('not_impersonating');
  });

  it("checks the user's standing where the impersonation is recorded, not only at the look-up", async () => {
    const principal: Principal = {
      companyId: staffCompanyId,
      userId: staff.userId,
      actorUserId: staff.userId,
      tokenId: null,
      role: 'owner',
      isStaff: true,
      features: new Set(),
      impersonationId: null,
    };
    const sessions = () =>
      t.database.db.tenant(restaurant.companyId, (sql) => listImpersonations(sql, restaurant.companyId));
    const before = (await sessions()).length;

    // Deactivated by the owner right after the service looked the user up.
    const leaving = await makeUser(t.database.db, restaurant.companyId, { role: 'marketer' });
    const deactivated = changeAfterFirstTransaction(t.database.db, async (db) => {
      await db.tenant(restaurant.companyId, (sql) =>
        updateUser(sql, systemScope(restaurant.companyId), leaving.id, { is_active: false }),
      );
    });
    await expect(hijackService(deactivated.db, t.tokens).start(principal, leaving.id)).rejects.toMatchObject({
      status: 404,
    });
    expect(deactivated.changed()).toBe(true);

    // Made platform staff right after the look-up (only the owner connection may set the flag).
    const joining = await makeUser(t.database.db, restaurant.companyId, { role: 'marketer' });
    const madeStaff = changeAfterFirstTransaction(t.database.db, async (db) => {
      await db.owner((sql) => sql.query('UPDATE users SET is_staff = true WHERE id = $1', [joining.id]));
    });
    await expect(hijackService(madeStaff.db, t.tokens).start(principal, joining.id)).rejects.toMatchObject({
      status: 403,
      code: 'staff_target',
    });
    expect(madeStaff.changed()).toBe(true);

    expect((await sessions()).length).toBe(before);
  });
});
