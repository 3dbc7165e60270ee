import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  addListMembers,
  countListMembers,
  createSubscriberList,
  deleteSubscriberList,
  getSubscriberList,
  listListMembers,
  listMembersAfter,
  listSubscriberLists,
  listSubscriberListsPage,
  removeListMembers,
  renameSubscriberList,
  subscriberListNames,
  UnknownSubscribersError,
} from '../../server/repositories/subscriber-lists.repository.js';
import { findSubscribersByIds } from '../../server/repositories/subscribers.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeCompany, makeSubscriber, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('subscriber lists repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('creates, renames, counts and deletes lists with an audit trail', async () => {
    const scope = systemScope(companyA);
    const vip = await db.tenant(scope.companyId, (sql) => createSubscriberList(sql, scope, 'VIP'));
    await db.tenant(scope.companyId, (sql) => createSubscriberList(sql, scope, 'brunch crowd'));
    expect(vip).toMatchObject({ name: 'VIP', member_count: 0 });
    expect(
      (await db.tenant(companyA, (sql) => listSubscriberLists(sql, companyA))).map((l) => l.name),
    ).toEqual(['brunch crowd', 'VIP']);

    const renamed = await db.tenant(scope.companyId, (sql) =>
      renameSubscriberList(sql, scope, vip.id, 'Very important'),
    );
    expect(renamed).toMatchObject({ id: vip.id, name: 'Very important' });
    expect(await db.tenant(scope.companyId, (sql) => renameSubscriberList(sql, scope, 0, 'Nope'))).toBeNull();
    await expect(
      db.tenant(scope.companyId, (sql) => renameSubscriberList(sql, scope, vip.id, '  ')),
    ).rejects.toThrow();

    const [one, two] = [await makeSubscriber(db, companyA), await makeSubscriber(db, companyA)];
    await db.tenant(scope.companyId, (sql) => addListMembers(sql, scope, vip.id, [one.id, two.id]));
    expect(await db.tenant(scope.companyId, (sql) => deleteSubscriberList(sql, scope, vip.id))).toBe(true);
    expect(await db.tenant(companyA, (sql) => getSubscriberList(sql, companyA, vip.id))).toBeNull();
    expect(await db.tenant(scope.companyId, (sql) => deleteSubscriberList(sql, scope, vip.id))).toBe(false);
    expect(await db.tenant(companyA, (sql) => countListMembers(sql, companyA, vip.id))).toBeNull();
    // The subscribers themselves stay.
    const still = await db.tenant(companyA, (sql) => findSubscribersByIds(sql, companyA, [one.id, two.id]));
    expect(still.map((s) => s.list_ids)).toEqual([[], []]);

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'subscriber_list', entityId: vip.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'update', 'update', 'create']);
  });

  it('adds and removes members, skipping repeats, and shows them on the subscriber', async () => {
    const scope = systemScope(companyA);
    const list = await db.tenant(scope.companyId, (sql) => createSubscriberList(sql, scope, 'Members'));
    const [a, b, c] = [
      await makeSubscriber(db, companyA),
      await makeSubscriber(db, companyA),
      await makeSubscriber(db, companyA),
    ];
    expect(
      await db.tenant(scope.companyId, (sql) => addListMembers(sql, scope, list.id, [a.id, b.id, a.id])),
    ).toBe(2);
    expect(await db.tenant(scope.companyId, (sql) => addListMembers(sql, scope, list.id, [b.id, c.id]))).toBe(
      1,
    );
    expect(await db.tenant(companyA, (sql) => countListMembers(sql, companyA, list.id))).toBe(3);
    expect(
      (await db.tenant(companyA, (sql) => getSubscriberList(sql, companyA, list.id)))?.member_count,
    ).toBe(3);
    const [withList] = await db.tenant(companyA, (sql) => findSubscribersByIds(sql, companyA, [a.id]));
    expect(withList?.list_ids).toEqual([list.id]);

    expect(
      await db.tenant(scope.companyId, (sql) => removeListMembers(sql, scope, list.id, [a.id, a.id, 0])),
    ).toBe(1);
    expect(await db.tenant(scope.companyId, (sql) => removeListMembers(sql, scope, list.id, [a.id]))).toBe(0);
    expect(await db.tenant(companyA, (sql) => countListMembers(sql, companyA, list.id))).toBe(2);
    expect(await db.tenant(scope.companyId, (sql) => addListMembers(sql, scope, 0, [a.id]))).toBeNull();
    expect(await db.tenant(scope.companyId, (sql) => removeListMembers(sql, scope, 0, [a.id]))).toBeNull();

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'subscriber_list', entityId: list.id }),
    );
    expect(audit.map((entry) => entry.after)).toEqual([
      { removed_subscriber_ids: [a.id] },
      { added_subscriber_ids: [c.id] },
      { added_subscriber_ids: [a.id, b.id].sort((x, y) => x - y) },
      expect.objectContaining({ name: 'Members' }),
    ]);
  });

  it("refuses members that are not the company's subscribers and adds none of the batch", async () => {
    const scope = systemScope(companyA);
    const list = await db.tenant(scope.companyId, (sql) => createSubscriberList(sql, scope, 'Strict'));
    const mine = await makeSubscriber(db, companyA);
    const theirs = await makeSubscriber(db, companyB);
    const error = await db
      .tenant(scope.companyId, (sql) => addListMembers(sql, scope, list.id, [mine.id, theirs.id, 0]))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownSubscribersError);
    expect((error as UnknownSubscribersError).ids).toEqual([theirs.id, 0]);
    expect(await db.tenant(companyA, (sql) => countListMembers(sql, companyA, list.id))).toBe(0);
  });

  it("never returns or changes another company's lists, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirScope = systemScope(companyB);
      const theirList = await guarded.tenant(theirScope.companyId, (sql) =>
        createSubscriberList(sql, theirScope, 'Their list'),
      );
      const theirMember = await makeSubscriber(guarded, companyB);
      await guarded.tenant(theirScope.companyId, (sql) =>
        addListMembers(sql, theirScope, theirList.id, [theirMember.id]),
      );
      const myList = await guarded.tenant(companyA, (sql) =>
        createSubscriberList(sql, systemScope(companyA), 'My list'),
      );

      expect(
        (await guarded.tenant(companyA, (sql) => listSubscriberLists(sql, companyA))).every(
          (l) => l.company_id === companyA,
        ),
      ).toBe(true);
      expect(
        await guarded.tenant(companyA, (sql) => getSubscriberList(sql, companyA, theirList.id)),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) => countListMembers(sql, companyA, theirList.id)),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) =>
          renameSubscriberList(sql, systemScope(companyA), theirList.id, 'Taken'),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) => addListMembers(sql, systemScope(companyA), theirList.id, [])),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) =>
          removeListMembers(sql, systemScope(companyA), theirList.id, [theirMember.id]),
        ),
      ).toBeNull();
      await expect(
        guarded.tenant(companyA, (sql) =>
          addListMembers(sql, systemScope(companyA), myList.id, [theirMember.id]),
        ),
      ).rejects.toBeInstanceOf(UnknownSubscribersError);
      expect(
        await guarded.tenant(companyA, (sql) =>
          deleteSubscriberList(sql, systemScope(companyA), theirList.id),
        ),
      ).toBe(false);
      expect(
        await guarded.tenant(companyB, (sql) => getSubscriberList(sql, companyB, theirList.id)),
      ).toMatchObject({
        name: 'Their list',
        member_count: 1,
      });
    }
  });
});

describe('subscriber lists repository: pages of lists and members', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it("names only the company's own lists asked for, by name, even without row-level security", async () => {
    const wine = await db.tenant(companyA, (sql) =>
      createSubscriberList(sql, systemScope(companyA), 'Wine club'),
    );
    const brunch = await db.tenant(companyA, (sql) =>
      createSubscriberList(sql, systemScope(companyA), 'brunch'),
    );
    await db.tenant(companyA, (sql) => createSubscriberList(sql, systemScope(companyA), 'Not asked'));
    const theirs = await db.tenant(companyB, (sql) =>
      createSubscriberList(sql, systemScope(companyB), 'Theirs'),
    );
    for (const handle of [db, withoutRowLevelSecurity(db)]) {
      expect(
        await handle.tenant(companyA, (sql) =>
          subscriberListNames(sql, companyA, [wine.id, theirs.id, brunch.id]),
        ),
      ).toEqual([
        { id: brunch.id, name: 'brunch' },
        { id: wine.id, name: 'Wine club' },
      ]);
    }
    expect(await db.tenant(companyA, (sql) => subscriberListNames(sql, companyA, []))).toEqual([]);
  });

  it('pages lists by name and members newest first, and reads members after an id', async () => {
    const company = (await makeCompany(db, 'Pages')).id;
    const scope = systemScope(company);
    const zed = await db.tenant(scope.companyId, (sql) => createSubscriberList(sql, scope, 'zed'));
    await db.tenant(scope.companyId, (sql) => createSubscriberList(sql, scope, 'Alpha'));
    await db.tenant(scope.companyId, (sql) => createSubscriberList(sql, scope, 'mid'));
    const page = await db.tenant(company, (sql) =>
      listSubscriberListsPage(sql, company, { limit: 2, offset: 1 }),
    );
    expect(page.count).toBe(3);
    expect(page.rows.map((l) => l.name)).toEqual(['mid', 'zed']);

    const members: { id: number }[] = [];
    for (let index = 0; index < 3; index += 1) members.push(await makeSubscriber(db, company));
    await makeSubscriber(db, company);
    await db.tenant(scope.companyId, (sql) =>
      addListMembers(
        sql,
        scope,
        zed.id,
        members.map((m) => m.id),
      ),
    );
    const first = await db.tenant(company, (sql) =>
      listListMembers(sql, company, zed.id, { limit: 2, offset: 0 }),
    );
    expect(first?.count).toBe(3);
    expect(first?.rows.map((s) => s.id)).toEqual([members[2]!.id, members[1]!.id]);
    expect(first?.rows[0]?.list_ids).toEqual([zed.id]);
    expect(
      (
        await db.tenant(company, (sql) => listListMembers(sql, company, zed.id, { limit: 2, offset: 2 }))
      )?.rows.map((s) => s.id),
    ).toEqual([members[0]!.id]);
    expect(
      await db.tenant(company, (sql) => listListMembers(sql, company, 0, { limit: 2, offset: 0 })),
    ).toBeNull();
    expect(
      (await db.tenant(company, (sql) => listMembersAfter(sql, company, zed.id, members[0]!.id, 10))).map(
        (s) => s.id,
      ),
    ).toEqual([members[1]!.id, members[2]!.id]);
  });

  it("never pages another company's lists or members, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirs = await guarded.tenant(companyB, (sql) =>
        createSubscriberList(sql, systemScope(companyB), 'Theirs'),
      );
      const member = await makeSubscriber(guarded, companyB);
      await guarded.tenant(companyB, (sql) =>
        addListMembers(sql, systemScope(companyB), theirs.id, [member.id]),
      );
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listSubscriberListsPage(sql, companyA, { limit: 500, offset: 0 }),
          )
        ).rows.map((l) => l.id),
      ).not.toContain(theirs.id);
      expect(
        await guarded.tenant(companyA, (sql) =>
          listListMembers(sql, companyA, theirs.id, { limit: 10, offset: 0 }),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) => listMembersAfter(sql, companyA, theirs.id, 0, 10)),
      ).toEqual([]);
    }
  });
});
