import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import {
  DEFAULT_ACCOUNT_SETTINGS,
  getAccountSettings,
  upsertAccountSettings,
} from '../../server/repositories/account-settings.repository.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { deleteUser } from '../../server/repositories/users.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeUser, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('account settings repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('answers the defaults before the first save, then merges saves into the stored row', async () => {
    const user = await makeUser(db, companyA);
    const scope = { companyId: companyA, userId: user.id, actorUserId: user.id };

    const fresh = await db.tenant(companyA, (sql) => getAccountSettings(sql, companyA, user.id));
    expect(fresh).toEqual({
      user_id: user.id,
      company_id: companyA,
      ...DEFAULT_ACCOUNT_SETTINGS,
      verification: {},
      updated_at: null,
    });

    const saved = await db.tenant(scope.companyId, (sql) =>
      upsertAccountSettings(sql, scope, user.id, {
        language: 'de',
        communication: { sms: true },
      }),
    );
    expect(saved).toMatchObject({
      language: 'de',
      time_zone: 'America/New_York',
      communication: { email: true, sms: true, phone: false },
    });
    expect(saved!.updated_at).toBeInstanceOf(Date);

    const again = await db.tenant(scope.companyId, (sql) =>
      upsertAccountSettings(sql, scope, user.id, {
        time_zone: 'Europe/Berlin',
        communication: { email: false },
        verification: { phone: 'pending' },
      }),
    );
    expect(again).toMatchObject({
      language: 'de',
      time_zone: 'Europe/Berlin',
      communication: { email: false, sms: true, phone: false },
      verification: { phone: 'pending' },
    });
    expect(await db.tenant(companyA, (sql) => getAccountSettings(sql, companyA, user.id))).toEqual(again);

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'account_settings', entityId: user.id }),
    );
    expect(audit.map((entry) => [entry.action, entry.user_id])).toEqual([
      ['update', user.id],
      ['create', user.id],
    ]);
    expect(audit[0]!.before).toMatchObject({ time_zone: 'America/New_York' });
    expect(audit[0]!.after).toMatchObject({ time_zone: 'Europe/Berlin' });
  });

  it('rejects a language the schema does not know and leaves the settings as they were', async () => {
    const user = await makeUser(db, companyA);
    await expect(
      db.tenant(companyA, (sql) =>
        upsertAccountSettings(sql, systemScope(companyA), user.id, { language: 'xx' as 'en' }),
      ),
    ).rejects.toThrow();
    expect(
      (await db.tenant(companyA, (sql) => getAccountSettings(sql, companyA, user.id)))?.updated_at,
    ).toBeNull();
  });

  it('answers null for a user that does not exist', async () => {
    const user = await makeUser(db, companyA);
    await db.tenant(companyA, (sql) => deleteUser(sql, systemScope(companyA), user.id));
    expect(await db.tenant(companyA, (sql) => getAccountSettings(sql, companyA, user.id))).toBeNull();
    expect(
      await db.tenant(companyA, (sql) =>
        upsertAccountSettings(sql, systemScope(companyA), user.id, { language: 'fr' }),
      ),
    ).toBeNull();
  });

  it("never returns or changes another company's settings, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirs = await makeUser(guarded, companyB);
      await guarded.tenant(companyB, (sql) =>
        upsertAccountSettings(sql, systemScope(companyB), theirs.id, { language: 'jp' }),
      );
      expect(
        await guarded.tenant(companyA, (sql) => getAccountSettings(sql, companyA, theirs.id)),
      ).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) =>
          upsertAccountSettings(sql, systemScope(companyA), theirs.id, { language: 'es' }),
        ),
      ).toBeNull();
      expect(
        (await guarded.tenant(companyB, (sql) => getAccountSettings(sql, companyB, theirs.id)))?.language,
      ).toBe('jp');
      expect(
        await guarded.tenant(companyA, (sql) =>
          listAudit(sql, companyA, { entity: 'account_settings', entityId: theirs.id }),
        ),
      ).toEqual([]);
    }
  });
});
