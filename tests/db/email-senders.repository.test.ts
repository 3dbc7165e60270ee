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
    const first = await db.tenant(scope.companyId, (sql) =>
      createEmailSender(sql, scope, {
        name: 'Harbor Grill',
        email: ' hello@harbor.example ',
      }),
    );
    expect(first).toMatchObject({ email: 'hello@harbor.example', is_default: true, reply_to: '' });
    const second = await db.tenant(scope.companyId, (sql) =>
      createEmailSender(sql, scope, { name: 'Alder Cafe', email: 'news@alder.example' }),
    );
    expect(second.is_default).toBe(false);

    const third = await db.tenant(scope.companyId, (sql) =>
      createEmailSender(sql, scope, {
        name: 'Zinc Bar',
        email: 'zinc@bar.example',
        is_default: true,
      }),
    );
    expect(third.is_default).toBe(true);
    let senders = await db.tenant(companyA, (sql) => listEmailSenders(sql, companyA));
    expect(senders.map((s) => [s.name, s.is_default])).toEqual([
      ['Zinc Bar', true],
      ['Alder Cafe', false],
      ['Harbor Grill', false],
    ]);

    expect(
      (
        await db.tenant(scope.companyId, (sql) =>
          updateEmailSender(sql, scope, second.id, { is_default: true }),
        )
      )?.is_default,
    ).toBe(true);
    senders = await db.tenant(companyA, (sql) => listEmailSenders(sql, companyA));
    expect(senders.filter((s) => s.is_default).map((s) => s.id)).toEqual([second.id]);

    // Deleting the default hands the mark to the oldest remaining sender.
    expect(await db.tenant(scope.companyId, (sql) => deleteEmailSender(sql, scope, second.id))).toBe(true);
    expect(await db.tenant(scope.companyId, (sql) => deleteEmailSender(sql, scope, second.id))).toBe(false);
    senders = await db.tenant(companyA, (sql) => listEmailSenders(sql, companyA));
    expect(senders.filter((s) => s.is_default).map((s) => s.id)).toEqual([first.id]);
  });

  it('refuses an address already used in the company whatever its case, leaving nothing half-written', async () => {
    const scope = systemScope(companyA);
    const sender = await db.tenant(scope.companyId, (sql) =>
      createEmailSender(sql, scope, { name: 'Promo', email: 'Promo@Regulars.example' }),
    );
    const before = await countRows(db, 'email_senders', companyA);
    await expect(
      db.tenant(scope.companyId, (sql) =>
        createEmailSender(sql, scope, { name: 'Again', email: 'promo@regulars.EXAMPLE' }),
      ),
    ).rejects.toBeInstanceOf(DuplicateSenderEmailError);
    // A refused default must not have cleared the current default either.
    const defaultBefore = (await db.tenant(companyA, (sql) => listEmailSenders(sql, companyA))).find(
      (s) => s.is_default,
    )?.id;
    await expect(
      db.tenant(scope.companyId, (sql) =>
        createEmailSender(sql, scope, { name: 'Again', email: 'PROMO@regulars.example', is_default: true }),
      ),
    ).rejects.toBeInstanceOf(DuplicateSenderEmailError);
    expect(
      (await db.tenant(companyA, (sql) => listEmailSenders(sql, companyA))).find((s) => s.is_default)?.id,
    ).toBe(defaultBefore);
    expect(await countRows(db, 'email_senders', companyA)).toBe(before);

    const other = await db.tenant(scope.companyId, (sql) =>
      createEmailSender(sql, scope, { name: 'Other', email: 'other@regulars.example' }),
    );
    await expect(
      db.tenant(scope.companyId, (sql) =>
        updateEmailSender(sql, scope, other.id, { email: 'PROMO@regulars.example' }),
      ),
    ).rejects.toBeInstanceOf(DuplicateSenderEmailError);
    // Changing only the case of its own address is fine.
    expect(
      (
        await db.tenant(scope.companyId, (sql) =>
          updateEmailSender(sql, scope, sender.id, { email: 'promo@regulars.example' }),
        )
      )?.email,
    ).toBe('promo@regulars.example');
    expect(
      await db.tenant(scope.companyId, (sql) => updateEmailSender(sql, scope, 0, { name: 'Nothing' })),
    ).toBeNull();
  });

  it('fingerprints addresses in the audit log', async () => {
    const scope = systemScope(companyA);
    const sender = await db.tenant(scope.companyId, (sql) =>
      createEmailSender(sql, scope, { name: 'Private', email: 'owner@private.example' }),
    );
    await db.tenant(scope.companyId, (sql) =>
      updateEmailSender(sql, scope, sender.id, { name: 'Private 2' }),
    );
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
      const theirs = await guarded.tenant(companyB, (sql) =>
        createEmailSender(sql, systemScope(companyB), {
          name: 'Theirs',
          email: `shared-${label}@example.com`,
          is_default: true,
        }),
      );
      const mine = await guarded.tenant(companyA, (sql) =>
        createEmailSender(sql, systemScope(companyA), {
          name: 'Mine',
          email: `SHARED-${label}@example.com`,
          is_default: true,
        }),
      );
      expect(mine.is_default).toBe(true);
      expect(
        (await guarded.tenant(companyB, (sql) => getEmailSender(sql, companyB, theirs.id)))?.is_default,
      ).toBe(true);

      const list = await guarded.tenant(companyA, (sql) => listEmailSenders(sql, companyA));
      expect(list.every((row) => row.company_id === companyA)).toBe(true);
      expect(await guarded.tenant(companyA, (sql) => getEmailSender(sql, companyA, theirs.id))).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) =>
          updateEmailSender(sql, systemScope(companyA), theirs.id, { name: 'Taken' }),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) => deleteEmailSender(sql, systemScope(companyA), theirs.id)),
      ).toBe(false);
      expect(await guarded.tenant(companyB, (sql) => getEmailSender(sql, companyB, theirs.id))).toEqual(
        theirs,
      );
    }
  });
});
