import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  deleteEmailProvider,
  getEmailProviderCredentials,
  hasUsableProvider,
  listEmailProviders,
  maskApiKey,
  upsertEmailProvider,
} from '../../server/repositories/email-providers.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

const KEY = 'SG.live-key-0123456789abcdef-WXYZ';

describe('email providers repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('masks keys: at most the last four characters of a long key are shown', () => {
    expect(maskApiKey('')).toBe('');
    expect(maskApiKey('short')).toBe('••••');
    expect(maskApiKey(KEY)).toBe('••••WXYZ');
  });

  it('counts a provider as usable only when its api_key is non-empty', async () => {
    const scope = systemScope(companyA);
    expect(await db.tenant(companyA, (sql) => hasUsableProvider(sql, companyA))).toBe(false);
    await db.tenant(scope.companyId, (sql) => upsertEmailProvider(sql, scope, { provider: 'mailgun' }));
    await db.tenant(scope.companyId, (sql) =>
      upsertEmailProvider(sql, scope, { provider: 'postmark', api_key: '   ' }),
    );
    expect(await db.tenant(companyA, (sql) => hasUsableProvider(sql, companyA))).toBe(false);
    expect(
      await db.tenant(companyA, (sql) => getEmailProviderCredentials(sql, companyA, 'postmark')),
    ).toBeNull();

    const saved = await db.tenant(scope.companyId, (sql) =>
      upsertEmailProvider(sql, scope, {
        provider: 'sendgrid',
        api_key: ` ${KEY} `,
        settings: { region: 'us' },
      }),
    );
    expect(saved).toMatchObject({
      provider: 'sendgrid',
      api_key_masked: '••••WXYZ',
      has_api_key: true,
      settings: { region: 'us' },
    });
    expect(await db.tenant(companyA, (sql) => hasUsableProvider(sql, companyA))).toBe(true);
    expect(
      await db.tenant(companyA, (sql) => getEmailProviderCredentials(sql, companyA, 'sendgrid')),
    ).toEqual({
      provider: 'sendgrid',
      api_key: KEY,
      settings: { region: 'us' },
    });
  });

  it('never lists or audits a key in clear, and keeps the key when only settings change', async () => {
    const scope = systemScope(companyA);
    const list = await db.tenant(companyA, (sql) => listEmailProviders(sql, companyA));
    expect(list.map((row) => [row.provider, row.has_api_key])).toEqual([
      ['mailgun', false],
      ['postmark', false],
      ['sendgrid', true],
    ]);
    expect(JSON.stringify(list)).not.toContain(KEY.slice(0, 12));
    expect(list.every((row) => !('api_key' in row))).toBe(true);

    const sendgrid = list.find((row) => row.provider === 'sendgrid')!;
    const updated = await db.tenant(scope.companyId, (sql) =>
      upsertEmailProvider(sql, scope, {
        provider: 'sendgrid',
        settings: { region: 'eu', smtp_password: 'hunter2-hunter2', webhook_secret: 'whsec_abcdefghijkl' },
      }),
    );
    expect(updated.id).toBe(sendgrid.id);
    expect(updated.has_api_key).toBe(true);
    expect(
      (await db.tenant(companyA, (sql) => getEmailProviderCredentials(sql, companyA, 'sendgrid')))?.api_key,
    ).toBe(KEY);

    const rotated = await db.tenant(scope.companyId, (sql) =>
      upsertEmailProvider(sql, scope, {
        provider: 'sendgrid',
        api_key: 'SG.rotated-key-9999',
      }),
    );
    expect(rotated.api_key_masked).toBe('••••9999');

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'email_provider', entityId: sendgrid.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['update', 'update', 'create']);
    const recorded = JSON.stringify(audit);
    expect(recorded).not.toContain(KEY.slice(3, 15));
    expect(recorded).not.toContain('SG.rotated');
    expect(recorded).not.toContain('hunter2');
    expect(recorded).not.toContain('whsec_');
    expect(recorded).toContain('••••WXYZ');

    expect(await db.tenant(scope.companyId, (sql) => deleteEmailProvider(sql, scope, sendgrid.id))).toBe(
      true,
    );
    expect(await db.tenant(scope.companyId, (sql) => deleteEmailProvider(sql, scope, sendgrid.id))).toBe(
      false,
    );
    expect(await db.tenant(companyA, (sql) => hasUsableProvider(sql, companyA))).toBe(false);
    const deleted = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, {
        entity: 'email_provider',
        entityId: sendgrid.id,
        limit: 1,
      }),
    );
    expect(deleted[0]?.action).toBe('delete');
    expect(JSON.stringify(deleted)).not.toContain('SG.rotated');
  });

  it("never reads or changes another company's providers, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirs = await guarded.tenant(companyB, (sql) =>
        upsertEmailProvider(sql, systemScope(companyB), {
          provider: 'ses',
          api_key: KEY,
        }),
      );
      // A's own entry of the same provider name is a separate row and leaves B's key alone.
      const mine = await guarded.tenant(companyA, (sql) =>
        upsertEmailProvider(sql, systemScope(companyA), {
          provider: 'ses',
          api_key: '',
        }),
      );
      expect(mine.id).not.toBe(theirs.id);
      expect(await guarded.tenant(companyA, (sql) => hasUsableProvider(sql, companyA))).toBe(false);
      expect(await guarded.tenant(companyB, (sql) => hasUsableProvider(sql, companyB))).toBe(true);
      expect(
        await guarded.tenant(companyA, (sql) => getEmailProviderCredentials(sql, companyA, 'ses')),
      ).toBeNull();
      expect(
        (await guarded.tenant(companyA, (sql) => listEmailProviders(sql, companyA))).every(
          (row) => row.company_id === companyA,
        ),
      ).toBe(true);
      expect(
        await guarded.tenant(companyA, (sql) => deleteEmailProvider(sql, systemScope(companyA), theirs.id)),
      ).toBe(false);
      expect(
        (await guarded.tenant(companyB, (sql) => getEmailProviderCredentials(sql, companyB, 'ses')))?.api_key,
      ).toBe(KEY);
      expect(
        await guarded.tenant(companyA, (sql) => deleteEmailProvider(sql, systemScope(companyA), mine.id)),
      ).toBe(true);
      expect(
        await guarded.tenant(companyB, (sql) => deleteEmailProvider(sql, systemScope(companyB), theirs.id)),
      ).toBe(true);
    }
  });
});
