import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { fingerprint } from '../../server/privacy.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  createSelfRegisteredUser,
  createUser,
  deleteUser,
  findUserByEmailForSignIn,
  findUserPasswordHash,
  getUser,
  listUsers,
  lockUser,
  lockUserAndOwners,
  setUserPassword,
  updateUser,
} from '../../server/repositories/users.repository.js';
import { UserEmailTakenError } from '../../server/repositories/references.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeUser, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('users repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('creates, pages, searches, updates and deletes users with a fingerprinted audit trail', async () => {
    const scope = systemScope(companyA);
    const ann = await db.tenant(scope.companyId, (sql) =>
      createUser(sql, scope, {
        email: '  Ann.Owner@Example.com ',
        first_name: 'Ann',
        last_name: 'Lee',
        role: 'owner',
        password_hash: 'secret-hash',
      }),
    );
    expect(ann).toMatchObject({
      email: 'Ann.Owner@Example.com',
      username: 'Ann.Owner@Example.com',
      role: 'owner',
    });
    expect(ann).not.toHaveProperty('password_hash');
    await db.tenant(scope.companyId, (sql) =>
      createUser(sql, scope, { email: 'bob@example.com', username: 'bob', role: 'analyst' }),
    );
    await db.tenant(scope.companyId, (sql) =>
      createUser(sql, scope, { email: 'cat_100%@example.com', username: 'cat', role: 'marketer' }),
    );

    const firstPage = await db.tenant(companyA, (sql) => listUsers(sql, companyA, { limit: 2, offset: 0 }));
    expect(firstPage.count).toBe(3);
    expect(firstPage.rows.map((row) => row.username)).toEqual(['Ann.Owner@Example.com', 'bob']);
    const secondPage = await db.tenant(companyA, (sql) => listUsers(sql, companyA, { limit: 2, offset: 2 }));
    expect(secondPage.rows.map((row) => row.username)).toEqual(['cat']);

    expect(
      (
        await db.tenant(companyA, (sql) => listUsers(sql, companyA, { q: 'LEE', limit: 10, offset: 0 }))
      ).rows.map((u) => u.id),
    ).toEqual([ann.id]);
    expect(
      (
        await db.tenant(companyA, (sql) => listUsers(sql, companyA, { q: '100%', limit: 10, offset: 0 }))
      ).rows.map((u) => u.username),
    ).toEqual(['cat']);
    // "_" and "%" are literal characters, not wildcards.
    expect(
      (await db.tenant(companyA, (sql) => listUsers(sql, companyA, { q: 'b_b', limit: 10, offset: 0 })))
        .count,
    ).toBe(0);
    expect(
      (await db.tenant(companyA, (sql) => listUsers(sql, companyA, { q: '%', limit: 10, offset: 0 }))).count,
    ).toBe(1);

    const updated = await db.tenant(scope.companyId, (sql) =>
      updateUser(sql, scope, ann.id, {
        role: 'admin',
        first_name: 'Anna',
        is_active: false,
      }),
    );
    expect(updated).toMatchObject({ role: 'admin', first_name: 'Anna', last_name: 'Lee', is_active: false });
    expect(updated!.updated_at.getTime()).toBeGreaterThanOrEqual(ann.updated_at.getTime());
    expect(
      await db.tenant(scope.companyId, (sql) => updateUser(sql, scope, 0, { role: 'admin' })),
    ).toBeNull();

    expect(await db.tenant(scope.companyId, (sql) => deleteUser(sql, scope, ann.id))).toBe(true);
    expect(await db.tenant(companyA, (sql) => getUser(sql, companyA, ann.id))).toBeNull();
    expect(await db.tenant(scope.companyId, (sql) => deleteUser(sql, scope, ann.id))).toBe(false);

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'user', entityId: ann.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'update', 'create']);
    const created = audit[2]!.after as Record<string, unknown>;
    expect(created.email).toBe(fingerprint('Ann.Owner@Example.com'));
    expect(created.username).toBe(fingerprint('Ann.Owner@Example.com'));
    expect(created.first_name).toBe(fingerprint('Ann'));
    expect(JSON.stringify(audit)).not.toMatch(/Ann\.Owner|secret-hash|"Anna"/);
    expect(created.role).toBe('owner');
  });

  it('rejects an email used by any account, whatever the case and company', async () => {
    await db.tenant(companyA, (sql) =>
      createUser(sql, systemScope(companyA), { email: 'taken@example.com', role: 'marketer' }),
    );
    await expect(
      db.tenant(companyA, (sql) =>
        createUser(sql, systemScope(companyA), { email: 'TAKEN@example.com', role: 'marketer' }),
      ),
    ).rejects.toBeInstanceOf(UserEmailTakenError);
    await expect(
      db.tenant(companyB, (sql) =>
        createUser(sql, systemScope(companyB), { email: ' Taken@Example.COM', role: 'owner' }),
      ),
    ).rejects.toBeInstanceOf(UserEmailTakenError);
    // The failed insert left no audit entry behind.
    const audit = await db.tenant(companyB, (sql) => listAudit(sql, companyB, { entity: 'user' }));
    expect(audit).toEqual([]);
  });

  it('finds the account for sign-in by email in any case, with its password hash', async () => {
    const user = await makeUser(db, companyB, { email: 'Sign.In@Example.com', password_hash: 'argon-hash' });
    const found = await db.platform((sql) => findUserByEmailForSignIn(sql, '  sign.in@EXAMPLE.com '));
    expect(found).toMatchObject({ id: user.id, company_id: companyB, password_hash: 'argon-hash' });
    expect(await db.platform((sql) => findUserByEmailForSignIn(sql, 'sign.in@example.co'))).toBeNull();
    expect(await db.platform((sql) => findUserByEmailForSignIn(sql, 'sign_in@example.com'))).toBeNull();
  });

  it('locks and returns the one user asked for, also when it is not an owner', async () => {
    const owner = await makeUser(db, companyA, { role: 'owner' });
    const analyst = await makeUser(db, companyA, { role: 'analyst' });
    expect(await db.tenant(companyA, (sql) => lockUserAndOwners(sql, companyA, analyst.id))).toMatchObject({
      id: analyst.id,
      role: 'analyst',
    });
    expect((await db.tenant(companyA, (sql) => lockUserAndOwners(sql, companyA, owner.id)))?.id).toBe(
      owner.id,
    );
    expect((await db.tenant(companyA, (sql) => lockUser(sql, companyA, analyst.id)))?.id).toBe(analyst.id);
    expect(await db.tenant(companyA, (sql) => lockUser(sql, companyA, 987654321))).toBeNull();
  });

  it('writes a new password only while the hash the caller verified is still stored', async () => {
    const user = await makeUser(db, companyA, { password_hash: 'old-hash' });
    const scope = systemScope(companyA);
    const stored = () => db.tenant(companyA, (sql) => findUserPasswordHash(sql, companyA, user.id));
    expect(
      await db.tenant(companyA, (sql) =>
        setUserPassword(sql, scope, user.id, { from: 'someone-elses-hash', to: 'new-hash' }),
      ),
    ).toBeNull();
    expect(await stored()).toBe('old-hash');
    expect(
      await db.tenant(companyA, (sql) =>
        setUserPassword(sql, scope, user.id, { from: 'old-hash', to: 'new-hash' }),
      ),
    ).toBeInstanceOf(Date);
    expect(await stored()).toBe('new-hash');
    const changes = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'user_password', entityId: user.id }),
    );
    expect(changes.map((entry) => entry.after)).toEqual([{ changed: true }]);
  });

  it('records a self-registered user as creating themselves', async () => {
    const created = await db.tenant(companyB, (sql) =>
      createSelfRegisteredUser(sql, companyB, { email: 'self@example.com', role: 'owner' }),
    );
    const [entry] = await db.tenant(companyB, (sql) =>
      listAudit(sql, companyB, { entity: 'user', entityId: created.id }),
    );
    expect(entry).toMatchObject({ action: 'create', user_id: created.id, actor_user_id: created.id });
    await expect(
      db.tenant(companyA, (sql) =>
        createSelfRegisteredUser(sql, companyA, { email: 'SELF@example.com', role: 'owner' }),
      ),
    ).rejects.toBeInstanceOf(UserEmailTakenError);
  });

  it("never returns or changes another company's users, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirs = await makeUser(guarded, companyB, { first_name: 'Theirs' });
      const mine = await guarded.tenant(companyA, (sql) =>
        listUsers(sql, companyA, { limit: 100, offset: 0 }),
      );
      expect(mine.rows.length).toBeGreaterThan(0);
      expect(mine.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listUsers(sql, companyA, { q: 'Theirs', limit: 10, offset: 0 }),
          )
        ).count,
      ).toBe(0);
      expect(await guarded.tenant(companyA, (sql) => getUser(sql, companyA, theirs.id))).toBeNull();
      expect(await guarded.tenant(companyA, (sql) => lockUser(sql, companyA, theirs.id))).toBeNull();
      expect(await guarded.tenant(companyA, (sql) => lockUserAndOwners(sql, companyA, theirs.id))).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) =>
          updateUser(sql, systemScope(companyA), theirs.id, { role: 'owner' }),
        ),
      ).toBeNull();
      expect(await guarded.tenant(companyA, (sql) => deleteUser(sql, systemScope(companyA), theirs.id))).toBe(
        false,
      );
      expect(await guarded.tenant(companyB, (sql) => getUser(sql, companyB, theirs.id))).toMatchObject({
        role: 'marketer',
        first_name: 'Theirs',
      });
    }
  });
});
