import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  createEmailSender,
  deleteEmailSender,
  DuplicateSenderEmailError,
  getEmailSender,
  listEmailSenders,
  updateEmailSender,
} from '../../server/repositories/email-senders.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { countRows } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('email senders repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('keeps exactly one default: the first sender, then whichever is made default, then a survivor', async () => {
    const scope = systemScope(companyA);
    const first = await createEmailSender(db, scope, {
      name: 'Harbor Grill',
      email: ' hello@harbor.example ',
    });
    expect(first).toMatchObject({ email: 'hello@harbor.example', is_default: true, reply_to: '' });
    const second = await createEmailSender(db, scope, { name: 'Alder Cafe', email: 'news@alder.example' });
    expect(second.is_default).toBe(false);

    const third = await createEmailSender(db, scope, {
      name: 'Zinc Bar',
      email: 'zinc@bar.example',
      is_default: true,
    });
    expect(third.is_default).toBe(true);
    let senders = await listEmailSenders(db, companyA);
    expect(senders.map((s) => [s.name, s.is_default])).toEqual([
      ['Zinc Bar', true],
      ['Alder Cafe', false],
      ['Harbor Grill', false],
    ]);

    expect((await updateEmailSender(db, scope, second.id, { is_default: true }))?.is_default).toBe(true);
    senders = await listEmailSenders(db, companyA);
    expect(senders.filter((s) => s.is_default).map((s) => s.id)).toEqual([second.id]);

    // Deleting the default hands the mark to the oldest remaining sender.
    expect(await deleteEmailSender(db, scope, second.id)).toBe(true);
    expect(await deleteEmailSender(db, scope, second.id)).toBe(false);
    senders = await listEmailSenders(db, companyA);
    expect(senders.filter((s) => s.is_default).map((s) => s.id)).toEqual([first.id]);
  });

  it('refuses an address already used in the company whatever its case, leaving nothing half-written', async () => {
    const scope = systemScope(companyA);
    const sender = await createEmailSender(db, scope, { name: 'Promo', email: 'Promo@Regulars.example' });
    const before = await countRows(db, 'email_senders', companyA);
    await expect(
      createEmailSender(db, scope, { name: 'Again', email: 'promo@regulars.EXAMPLE' }),
    ).rejects.toBeInstanceOf(DuplicateSenderEmailError);
    // A refused default must not have cleared the current default either.
    const defaultBefore = (await listEmailSenders(db, companyA)).find((s) => s.is_default)?.id;
    await expect(
      createEmailSender(db, scope, { name: 'Again', email: 'PROMO@regulars.example', is_default: true }),
    ).rejects.toBeInstanceOf(DuplicateSenderEmailError);
    expect((await listEmailSenders(db, companyA)).find((s) => s.is_default)?.id).toBe(defaultBefore);
    expect(await countRows(db, 'email_senders', companyA)).toBe(before);

    const other = await createEmailSender(db, scope, { name: 'Other', email: 'other@regulars.example' });
    await expect(
      updateEmailSender(db, scope, other.id, { email: 'PROMO@regulars.example' }),
    ).rejects.toBeInstanceOf(DuplicateSenderEmailError);
    // Changing only the case of its own address is fine.
    expect((await updateEmailSender(db, scope, sender.id, { email: 'promo@regulars.example' }))?.email).toBe(
      'promo@regulars.example',
    );
    expect(await updateEmailSender(db, scope, 0, { name: 'Nothing' })).toBeNull();
  });

  it('fingerprints addresses in the audit log', async () => {
    const scope = systemScope(companyA);
    const sender = await createEmailSender(db, scope, { name: 'Private', email: 'owner@private.example' });
    await updateEmailSender(db, scope, sender.id, { name: 'Private 2' });
    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'email_sender', entityId: sender.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['update', 'create']);
    expect(JSON.stringify(audit)).not.toContain('owner@private.example');
    expect((audit[1]?.after as { email: string }).email).toMatch(/^sha256:/);
  });

  it("never reads or changes another company's senders, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const label = guarded === db ? 'rls' : 'plain';
      // The same address may be used by two companies.
      const theirs = await createEmailSender(guarded, systemScope(companyB), {
        name: 'Theirs',
        email: `shared-${label}@example.com`,
        is_default: true,
      });
      const mine = await createEmailSender(guarded, systemScope(companyA), {
        name: 'Mine',
        email: `SHARED-${label}@example.com`,
        is_default: true,
      });
      expect(mine.is_default).toBe(true);
      expect((await getEmailSender(guarded, companyB, theirs.id))?.is_default).toBe(true);

      const list = await listEmailSenders(guarded, companyA);
      expect(list.every((row) => row.company_id === companyA)).toBe(true);
      expect(await getEmailSender(guarded, companyA, theirs.id)).toBeNull();
      expect(
        await updateEmailSender(guarded, systemScope(companyA), theirs.id, { name: 'Taken' }),
      ).toBeNull();
      expect(await deleteEmailSender(guarded, systemScope(companyA), theirs.id)).toBe(false);
      expect(await getEmailSender(guarded, companyB, theirs.id)).toEqual(theirs);
    }
  });
});
