import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { fingerprint } from '../../server/privacy.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { createNote, listNotes } from '../../server/repositories/notes.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeGuest, makeSubscriber, makeUser, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('notes repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('writes notes as the acting user and lists them newest first per profile', async () => {
    const author = await makeUser(db, companyA, { first_name: 'Rae', last_name: 'Quinn' });
    const scope = { companyId: companyA, userId: author.id, actorUserId: author.id };
    const subscriber = { type: 'subscriber', id: (await makeSubscriber(db, companyA)).id } as const;
    const guest = { type: 'guest', id: (await makeGuest(db, companyA)).id } as const;

    const first = await db.tenant(scope.companyId, (sql) =>
      createNote(sql, scope, subscriber, 'Prefers the patio'),
    );
    expect(first).toMatchObject({
      subscriber_id: subscriber.id,
      guest_id: null,
      body: 'Prefers the patio',
      author_id: author.id,
      author_name: 'Rae Quinn',
    });
    const second = await db.tenant(companyA, (sql) =>
      createNote(sql, systemScope(companyA), subscriber, 'Birthday in May'),
    );
    expect(second?.author_name).toBeNull();
    await db.tenant(scope.companyId, (sql) => createNote(sql, scope, guest, 'Guest note'));

    const notes = await db.tenant(companyA, (sql) => listNotes(sql, companyA, subscriber));
    expect(notes?.map((n) => [n.body, n.author_name])).toEqual([
      ['Birthday in May', null],
      ['Prefers the patio', 'Rae Quinn'],
    ]);
    expect((await db.tenant(companyA, (sql) => listNotes(sql, companyA, guest)))?.map((n) => n.body)).toEqual(
      ['Guest note'],
    );

    const [entry] = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'note', entityId: first!.id }),
    );
    const after = entry!.after as Record<string, unknown>;
    expect(after.body).toBe(fingerprint('Prefers the patio'));
    expect(JSON.stringify(entry)).not.toMatch(/patio|Rae|Quinn/);
  });

  it('answers null for a profile that does not exist and rejects a blank note', async () => {
    const scope = systemScope(companyA);
    expect(
      await db.tenant(companyA, (sql) => listNotes(sql, companyA, { type: 'subscriber', id: 0 })),
    ).toBeNull();
    expect(
      await db.tenant(scope.companyId, (sql) => createNote(sql, scope, { type: 'guest', id: 0 }, 'Hello')),
    ).toBeNull();
    const guest = { type: 'guest', id: (await makeGuest(db, companyA)).id } as const;
    await expect(db.tenant(scope.companyId, (sql) => createNote(sql, scope, guest, '   '))).rejects.toThrow();
    expect(await db.tenant(companyA, (sql) => listNotes(sql, companyA, guest))).toEqual([]);
  });

  it("never returns or adds to another company's notes, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirSubscriber = {
        type: 'subscriber',
        id: (await makeSubscriber(guarded, companyB)).id,
      } as const;
      const theirGuest = { type: 'guest', id: (await makeGuest(guarded, companyB)).id } as const;
      await guarded.tenant(companyB, (sql) =>
        createNote(sql, systemScope(companyB), theirSubscriber, 'Their secret'),
      );
      await guarded.tenant(companyB, (sql) =>
        createNote(sql, systemScope(companyB), theirGuest, 'Their guest secret'),
      );
      for (const owner of [theirSubscriber, theirGuest]) {
        expect(await guarded.tenant(companyA, (sql) => listNotes(sql, companyA, owner))).toBeNull();
        expect(
          await guarded.tenant(companyA, (sql) => createNote(sql, systemScope(companyA), owner, 'Intrusion')),
        ).toBeNull();
      }
      expect(
        (await guarded.tenant(companyB, (sql) => listNotes(sql, companyB, theirSubscriber)))?.map(
          (n) => n.body,
        ),
      ).toEqual(['Their secret']);
    }
  });
});
