import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  listDeletedCustomers,
  recordDeletedCustomer,
} from '../../server/repositories/deleted-customers.repository.js';
import { eraseGuest, eraseSubscriber } from '../../server/services/customer-erasure.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeCompany, makeGuest, makeSubscriber, makeUser, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('deleted customers repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('lists deletions newest first, filtered by type and POS id, with paging', async () => {
    const user = await makeUser(db, companyA);
    const scope = { companyId: companyA, userId: user.id, actorUserId: user.id };
    const g1 = await makeGuest(db, companyA, { pos_id: 'G-1' });
    const g2 = await makeGuest(db, companyA, { pos_id: 'SHARED' });
    const s1 = await makeSubscriber(db, companyA, { pos_id: 'SHARED' });
    const s2 = await makeSubscriber(db, companyA);
    for (const remove of [
      () => db.tenant(scope.companyId, (sql) => eraseGuest(sql, scope, g1.id)),
      () => db.tenant(scope.companyId, (sql) => eraseGuest(sql, scope, g2.id)),
      () => db.tenant(scope.companyId, (sql) => eraseSubscriber(sql, scope, s1.id)),
      () => db.tenant(scope.companyId, (sql) => eraseSubscriber(sql, scope, s2.id)),
    ]) {
      expect(await remove()).toBe(true);
    }

    const all = await db.tenant(companyA, (sql) =>
      listDeletedCustomers(sql, companyA, { limit: 3, offset: 0 }),
    );
    expect(all.count).toBe(4);
    expect(all.rows.map((row) => [row.customer_type, row.original_id])).toEqual([
      ['subscriber', s2.id],
      ['subscriber', s1.id],
      ['guest', g2.id],
    ]);
    expect(all.rows.every((row) => row.deleted_by === user.id && row.deleted_at instanceof Date)).toBe(true);
    expect(
      (
        await db.tenant(companyA, (sql) => listDeletedCustomers(sql, companyA, { limit: 3, offset: 3 }))
      ).rows.map((r) => r.original_id),
    ).toEqual([g1.id]);

    const guests = await db.tenant(companyA, (sql) =>
      listDeletedCustomers(sql, companyA, { customerType: 'guest', limit: 10, offset: 0 }),
    );
    expect(guests.rows.map((row) => row.pos_id)).toEqual(['SHARED', 'G-1']);
    const shared = await db.tenant(companyA, (sql) =>
      listDeletedCustomers(sql, companyA, { posId: 'SHARED', limit: 10, offset: 0 }),
    );
    expect(shared.rows.map((row) => row.customer_type)).toEqual(['subscriber', 'guest']);
    const sharedGuest = await db.tenant(companyA, (sql) =>
      listDeletedCustomers(sql, companyA, {
        customerType: 'guest',
        posId: 'SHARED',
        limit: 10,
        offset: 0,
      }),
    );
    expect(sharedGuest.rows.map((row) => row.original_id)).toEqual([g2.id]);
    expect(
      (
        await db.tenant(companyA, (sql) =>
          listDeletedCustomers(sql, companyA, { posId: 'shared', limit: 10, offset: 0 }),
        )
      ).count,
    ).toBe(0);
    // A subscriber without a POS id is recorded with none.
    expect(all.rows[0]).toMatchObject({ pos_id: null });

    // Only these columns exist: nothing personal can be in a row.
    expect(Object.keys(all.rows[0]!).sort()).toEqual(
      ['company_id', 'customer_type', 'deleted_at', 'deleted_by', 'id', 'original_id', 'pos_id'].sort(),
    );
    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'deleted_customer' }),
    );
    expect(audit).toHaveLength(4);
  });

  it('records inside the caller transaction, which decides whether it stays', async () => {
    const company = (await makeCompany(db, 'Tx')).id;
    await expect(
      db.tenant(company, async (sql) => {
        await recordDeletedCustomer(sql, systemScope(company), {
          customerType: 'guest',
          posId: 'P',
          originalId: 1,
        });
        throw new Error('the delete failed after all');
      }),
    ).rejects.toThrow('the delete failed after all');
    expect(
      (await db.tenant(company, (sql) => listDeletedCustomers(sql, company, { limit: 10, offset: 0 }))).count,
    ).toBe(0);
    const recorded = await db.tenant(company, (sql) =>
      recordDeletedCustomer(sql, systemScope(company), {
        customerType: 'subscriber',
        posId: null,
        originalId: 2,
      }),
    );
    expect(recorded).toMatchObject({ company_id: company, customer_type: 'subscriber', original_id: 2 });
    expect(
      (await db.tenant(company, (sql) => listDeletedCustomers(sql, company, { limit: 10, offset: 0 }))).count,
    ).toBe(1);
  });

  it("never lists another company's deletions, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirs = await makeGuest(guarded, companyB, { pos_id: 'THEIRS' });
      await guarded.tenant(companyB, (sql) => eraseGuest(sql, systemScope(companyB), theirs.id));
      const mine = await guarded.tenant(companyA, (sql) =>
        listDeletedCustomers(sql, companyA, { limit: 500, offset: 0 }),
      );
      expect(mine.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listDeletedCustomers(sql, companyA, { posId: 'THEIRS', limit: 10, offset: 0 }),
          )
        ).count,
      ).toBe(0);
      expect(
        (
          await guarded.tenant(companyB, (sql) =>
            listDeletedCustomers(sql, companyB, { posId: 'THEIRS', limit: 10, offset: 0 }),
          )
        ).count,
      ).toBeGreaterThan(0);
    }
  });
});
