import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { fingerprint } from '../../server/privacy.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  createProfileCard,
  deleteProfileCard,
  listProfileCards,
} from '../../server/repositories/profile-cards.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeGuest, makeSubscriber, makeUser, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('profile cards repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('links, lists and unlinks cards of a subscriber and of a guest separately', async () => {
    const user = await makeUser(db, companyA);
    const scope = { companyId: companyA, userId: user.id, actorUserId: user.id };
    const subscriber = { type: 'subscriber', id: (await makeSubscriber(db, companyA)).id } as const;
    const guest = { type: 'guest', id: (await makeGuest(db, companyA)).id } as const;

    const visa = await db.tenant(scope.companyId, (sql) =>
      createProfileCard(sql, scope, subscriber, {
        card_brand: 'Visa',
        name_on_card: 'Jo Park',
        last_four_digits: '4242',
      }),
    );
    expect(visa).toMatchObject({
      subscriber_id: subscriber.id,
      guest_id: null,
      card_brand: 'Visa',
      created_by: user.id,
    });
    const amex = await db.tenant(scope.companyId, (sql) =>
      createProfileCard(sql, scope, subscriber, { last_four_digits: '0005' }),
    );
    const guestCard = await db.tenant(scope.companyId, (sql) =>
      createProfileCard(sql, scope, guest, { last_four_digits: '1881' }),
    );
    expect(guestCard).toMatchObject({ guest_id: guest.id, subscriber_id: null });

    expect(
      (await db.tenant(companyA, (sql) => listProfileCards(sql, companyA, subscriber)))?.map((c) => c.id),
    ).toEqual([visa!.id, amex!.id]);
    expect(
      (await db.tenant(companyA, (sql) => listProfileCards(sql, companyA, guest)))?.map((c) => c.id),
    ).toEqual([guestCard!.id]);
    // A card is only deleted through its own profile.
    expect(await db.tenant(scope.companyId, (sql) => deleteProfileCard(sql, scope, guest, visa!.id))).toBe(
      false,
    );
    expect(
      await db.tenant(scope.companyId, (sql) => deleteProfileCard(sql, scope, subscriber, visa!.id)),
    ).toBe(true);
    expect(
      await db.tenant(scope.companyId, (sql) => deleteProfileCard(sql, scope, subscriber, visa!.id)),
    ).toBe(false);
    expect(
      (await db.tenant(companyA, (sql) => listProfileCards(sql, companyA, subscriber)))?.map((c) => c.id),
    ).toEqual([amex!.id]);

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'profile_card', entityId: visa!.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'create']);
    const after = audit[1]!.after as Record<string, unknown>;
    expect(after.name_on_card).toBe(fingerprint('Jo Park'));
    expect(after.last_four_digits).toBe(fingerprint('4242'));
    expect(audit[1]!.user_id).toBe(user.id);
  });

  it('answers null for a profile that does not exist and rejects malformed digits', async () => {
    const scope = systemScope(companyA);
    expect(
      await db.tenant(companyA, (sql) => listProfileCards(sql, companyA, { type: 'guest', id: 0 })),
    ).toBeNull();
    expect(
      await db.tenant(scope.companyId, (sql) =>
        createProfileCard(sql, scope, { type: 'subscriber', id: 0 }, { last_four_digits: '1111' }),
      ),
    ).toBeNull();
    const guest = { type: 'guest', id: (await makeGuest(db, companyA)).id } as const;
    await expect(
      db.tenant(scope.companyId, (sql) => createProfileCard(sql, scope, guest, { last_four_digits: '12a4' })),
    ).rejects.toThrow();
    expect(await db.tenant(companyA, (sql) => listProfileCards(sql, companyA, guest))).toEqual([]);
  });

  it("never returns or changes another company's cards, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirSubscriber = {
        type: 'subscriber',
        id: (await makeSubscriber(guarded, companyB)).id,
      } as const;
      const theirGuest = { type: 'guest', id: (await makeGuest(guarded, companyB)).id } as const;
      const theirCard = await guarded.tenant(companyB, (sql) =>
        createProfileCard(sql, systemScope(companyB), theirSubscriber, {
          last_four_digits: '9999',
        }),
      );
      await guarded.tenant(companyB, (sql) =>
        createProfileCard(sql, systemScope(companyB), theirGuest, { last_four_digits: '8888' }),
      );
      for (const owner of [theirSubscriber, theirGuest]) {
        expect(await guarded.tenant(companyA, (sql) => listProfileCards(sql, companyA, owner))).toBeNull();
        expect(
          await guarded.tenant(companyA, (sql) =>
            createProfileCard(sql, systemScope(companyA), owner, { last_four_digits: '1111' }),
          ),
        ).toBeNull();
      }
      expect(
        await guarded.tenant(companyA, (sql) =>
          deleteProfileCard(sql, systemScope(companyA), theirSubscriber, theirCard!.id),
        ),
      ).toBe(false);
      expect(
        (await guarded.tenant(companyB, (sql) => listProfileCards(sql, companyB, theirSubscriber)))?.map(
          (c) => c.last_four_digits,
        ),
      ).toEqual(['9999']);
    }
  });
});
