import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../server/auth/principal.js';
import type { Database } from '../../server/db/database.js';
import { ApiError } from '../../server/http/errors.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import type { WriteScope } from '../../server/repositories/scope.js';
import { getUser, updateUser, type UserRow } from '../../server/repositories/users.repository.js';
import { companyUsersService } from '../../server/services/company-users.service.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeUser } from '../support/factories.js';
import { changeAfterFirstTransaction } from './support/between-transactions.js';

/** A signed-in user of the company as the routes hand them to the service. */
function signedIn(user: UserRow): { principal: Principal; scope: WriteScope } {
  return {
    principal: {
      companyId: user.company_id,
      userId: user.id,
      actorUserId: user.id,
      tokenId: null,
      role: user.role,
      isStaff: false,
      features: new Set(),
      impersonationId: null,
    },
    scope: { companyId: user.company_id, userId: user.id, actorUserId: user.id },
  };
}

describe('company users service: the owner-only rules hold against a concurrent promotion', () => {
  let test: TestDatabase;
  let db: Database;
  let owner: UserRow;
  let admin: UserRow;

  beforeAll(async () => {
    test = await openTestDatabase();
    db = test.db;
    const company = await makeCompany(db, 'Rules Co');
    owner = await makeUser(db, company.id, { role: 'owner' });
    admin = await makeUser(db, company.id, { role: 'admin' });
  });
  afterAll(() => test.drop());

  /** The owner makes the user an owner too, as another request would. */
  const promote = (userId: number) => (plain: Database) =>
    plain
      .tenant(owner.company_id, (sql) => updateUser(sql, signedIn(owner).scope, userId, { role: 'owner' }))
      .then(() => undefined);

  /** What the admin's own audit entries about the user saw as the user's role before each change. */
  async function rolesTheAdminChanged(userId: number): Promise<unknown[]> {
    const entries = await db.tenant(owner.company_id, (sql) =>
      listAudit(sql, owner.company_id, { entity: 'user', entityId: userId }),
    );
    return entries
      .filter((entry) => entry.actor_user_id === admin.id)
      .map((entry) => (entry.before as { role: string }).role);
  }

  it("never applies an admin's change to a user who became an owner after the rules were checked", async () => {
    const target = await makeUser(db, owner.company_id, { role: 'marketer', first_name: 'Mara' });
    const raced = changeAfterFirstTransaction(db, promote(target.id));
    const { principal, scope } = signedIn(admin);

    const outcome = await companyUsersService(raced.db)
      .update(principal, scope, target.id, { first_name: 'Renamed' })
      .then(
        () => 'changed',
        (error: unknown) => error,
      );

    expect(raced.changed()).toBe(true);
    const after = await db.tenant(owner.company_id, (sql) => getUser(sql, owner.company_id, target.id));
    expect(after?.role).toBe('owner');
    if (outcome === 'changed') {
      // Allowed only because the admin's change landed while the user was still a marketer.
      expect(await rolesTheAdminChanged(target.id)).toEqual(['marketer']);
    } else {
      expect(outcome).toMatchObject({ status: 403, code: 'owner_required' });
      expect(after?.first_name).toBe('Mara');
    }
  });

  it('never lets an admin delete a user who became an owner after the rules were checked', async () => {
    const target = await makeUser(db, owner.company_id, { role: 'marketer' });
    const raced = changeAfterFirstTransaction(db, promote(target.id));
    const { principal, scope } = signedIn(admin);

    const outcome = await companyUsersService(raced.db)
      .remove(principal, scope, target.id)
      .then(
        () => 'deleted',
        (error: unknown) => error,
      );

    expect(raced.changed()).toBe(true);
    const after = await db.tenant(owner.company_id, (sql) => getUser(sql, owner.company_id, target.id));
    if (outcome === 'deleted') {
      expect(after).toBeNull();
      expect(await rolesTheAdminChanged(target.id)).toEqual(['marketer']);
    } else {
      expect(outcome).toBeInstanceOf(ApiError);
      expect(outcome).toMatchObject({ status: 403, code: 'owner_required' });
      expect(after?.role).toBe('owner');
    }
  });

  it('still refuses what the rules refuse, before writing anything', async () => {
    const { principal, scope } = signedIn(admin);
    const service = companyUsersService(db);
    await expect(service.update(principal, scope, owner.id, { first_name: 'Nope' })).rejects.toMatchObject({
      status: 403,
      code: 'owner_required',
    });
    await expect(service.remove(principal, scope, admin.id)).rejects.toMatchObject({
      status: 400,
      code: 'own_account',
    });
    await expect(service.update(principal, scope, 987654321, { first_name: 'Nobody' })).rejects.toMatchObject(
      { status: 404 },
    );
    expect(
      (await db.tenant(owner.company_id, (sql) => getUser(sql, owner.company_id, owner.id)))?.first_name,
    ).toBe(owner.first_name);
    expect(await rolesTheAdminChanged(owner.id)).toEqual([]);
  });
});
