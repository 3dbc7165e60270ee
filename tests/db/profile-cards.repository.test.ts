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

    const visa = await createProfileCard(db, scope, subscriber, {
      card_brand: 'Visa',
      name_on_card: 'Jo Park',
      last_four_digits: '4242',
    });
    expect(visa).toMatchObject({
      subscriber_id: subscriber.id,
      guest_id: null,
      card_brand: 'Visa',
      created_by: user.id,
    });
    const amex = await createProfileCard(db, scope, subscriber, { last_four_digits: '0005' });
    const guestCard = await createProfileCard(db, scope, guest, { last_four_digits: '1881' });
    expect(guestCard).toMatchObject({ guest_id: guest.id, subscriber_id: null });

    expect((await listProfileCards(db, companyA, subscriber))?.map((c) => c.id)).toEqual([
      visa!.id,
      amex!.id,
    ]);
    expect((await listProfileCards(db, companyA, guest))?.map((c) => c.id)).toEqual([guestCard!.id]);
    // A card is only deleted through its own profile.
    expect(await deleteProfileCard(db, scope, guest, visa!.id)).toBe(false);
    expect(await deleteProfileCard(db, scope, subscriber, visa!.id)).toBe(true);
    expect(await deleteProfileCard(db, scope, subscriber, visa!.id)).toBe(false);
    expect((await listProfileCards(db, companyA, subscriber))?.map((c) => c.id)).toEqual([amex!.id]);

    const audit = await listAudit(db, companyA, { entity: 'profile_card', entityId: visa!.id });
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'create']);
    const after = audit[1]!.after as Record<string, unknown>;
    expect(after.name_on_card).toBe(fingerprint('Jo Park'));
    expect(after.last_four_digits).toBe(fingerprint('4242'));
    expect(audit[1]!.user_id).toBe(user.id);
  });

  it('answers null for a profile that does not exist and rejects malformed digits', async () => {
    const scope = systemScope(companyA);
    expect(await listProfileCards(db, companyA, { type: 'guest', id: 0 })).toBeNull();
    expect(
      await createProfileCard(db, scope, { type: 'subscriber', id: 0 }, { last_four_digits: '1111' }),
    ).toBeNull();
    const guest = { type: 'guest', id: (await makeGuest(db, companyA)).id } as const;
    await expect(createProfileCard(db, scope, guest, { last_four_digits: '12a4' })).rejects.toThrow();
    expect(await listProfileCards(db, companyA, guest)).toEqual([]);
  });

  it("never returns or changes another company's cards, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirSubscriber = {
        type: 'subscriber',
        id: (await makeSubscriber(guarded, companyB)).id,
      } as const;
      const theirGuest = { type: 'guest', id: (await makeGuest(guarded, companyB)).id } as const;
      const theirCard = await createProfileCard(guarded, systemScope(companyB), theirSubscriber, {
        last_four_digits: '9999',
      });
      await createProfileCard(guarded, systemScope(companyB), theirGuest, { last_four_digits: '8888' });
      for (const owner of [theirSubscriber, theirGuest]) {
        expect(await listProfileCards(guarded, companyA, owner)).toBeNull();
        expect(
          await createProfileCard(guarded, systemScope(companyA), owner, { last_four_digits: '1111' }),
        ).toBeNull();
      }
      expect(await deleteProfileCard(guarded, systemScope(companyA), theirSubscriber, theirCard!.id)).toBe(
        false,
      );
      expect(
        (await listProfileCards(guarded, companyB, theirSubscriber))?.map((c) => c.last_four_digits),
      ).toEqual(['9999']);
    }
  });
});
