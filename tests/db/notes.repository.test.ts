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

    const first = await createNote(db, scope, subscriber, 'Prefers the patio');
    expect(first).toMatchObject({
      subscriber_id: subscriber.id,
      guest_id: null,
      body: 'Prefers the patio',
      author_id: author.id,
      author_name: 'Rae Quinn',
    });
    const second = await createNote(db, systemScope(companyA), subscriber, 'Birthday in May');
    expect(second?.author_name).toBeNull();
    await createNote(db, scope, guest, 'Guest note');

    const notes = await listNotes(db, companyA, subscriber);
    expect(notes?.map((n) => [n.body, n.author_name])).toEqual([
      ['Birthday in May', null],
      ['Prefers the patio', 'Rae Quinn'],
    ]);
    expect((await listNotes(db, companyA, guest))?.map((n) => n.body)).toEqual(['Guest note']);

    const [entry] = await listAudit(db, companyA, { entity: 'note', entityId: first!.id });
    const after = entry!.after as Record<string, unknown>;
    expect(after.body).toBe(fingerprint('Prefers the patio'));
    expect(JSON.stringify(entry)).not.toMatch(/patio|Rae|Quinn/);
  });

  it('answers null for a profile that does not exist and rejects a blank note', async () => {
    const scope = systemScope(companyA);
    expect(await listNotes(db, companyA, { type: 'subscriber', id: 0 })).toBeNull();
    expect(await createNote(db, scope, { type: 'guest', id: 0 }, 'Hello')).toBeNull();
    const guest = { type: 'guest', id: (await makeGuest(db, companyA)).id } as const;
    await expect(createNote(db, scope, guest, '   ')).rejects.toThrow();
    expect(await listNotes(db, companyA, guest)).toEqual([]);
  });

  it("never returns or adds to another company's notes, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirSubscriber = {
        type: 'subscriber',
        id: (await makeSubscriber(guarded, companyB)).id,
      } as const;
      const theirGuest = { type: 'guest', id: (await makeGuest(guarded, companyB)).id } as const;
      await createNote(guarded, systemScope(companyB), theirSubscriber, 'Their secret');
      await createNote(guarded, systemScope(companyB), theirGuest, 'Their guest secret');
      for (const owner of [theirSubscriber, theirGuest]) {
        expect(await listNotes(guarded, companyA, owner)).toBeNull();
        expect(await createNote(guarded, systemScope(companyA), owner, 'Intrusion')).toBeNull();
      }
      expect((await listNotes(guarded, companyB, theirSubscriber))?.map((n) => n.body)).toEqual([
        'Their secret',
      ]);
    }
  });
});
