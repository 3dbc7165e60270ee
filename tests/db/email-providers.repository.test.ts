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
    expect(await hasUsableProvider(db, companyA)).toBe(false);
    await upsertEmailProvider(db, scope, { provider: 'mailgun' });
    await upsertEmailProvider(db, scope, { provider: 'postmark', api_key: '   ' });
    expect(await hasUsableProvider(db, companyA)).toBe(false);
    expect(await getEmailProviderCredentials(db, companyA, 'postmark')).toBeNull();

    const saved = await upsertEmailProvider(db, scope, {
      provider: 'sendgrid',
      api_key: ` ${KEY} `,
      settings: { region: 'us' },
    });
    expect(saved).toMatchObject({
      provider: 'sendgrid',
      api_key_masked: '••••WXYZ',
      has_api_key: true,
      settings: { region: 'us' },
    });
    expect(await hasUsableProvider(db, companyA)).toBe(true);
    expect(await getEmailProviderCredentials(db, companyA, 'sendgrid')).toEqual({
      provider: 'sendgrid',
      api_key: KEY,
      settings: { region: 'us' },
    });
  });

  it('never lists or audits a key in clear, and keeps the key when only settings change', async () => {
    const scope = systemScope(companyA);
    const list = await listEmailProviders(db, companyA);
    expect(list.map((row) => [row.provider, row.has_api_key])).toEqual([
      ['mailgun', false],
      ['postmark', false],
      ['sendgrid', true],
    ]);
    expect(JSON.stringify(list)).not.toContain(KEY.slice(0, 12));
    expect(list.every((row) => !('api_key' in row))).toBe(true);

    const sendgrid = list.find((row) => row.provider === 'sendgrid')!;
    const updated = await upsertEmailProvider(db, scope, {
      provider: 'sendgrid',
      settings: { region: 'eu', smtp_password: 'hunter2-hunter2', webhook_secret: 'whsec_abcdefghijkl' },
    });
    expect(updated.id).toBe(sendgrid.id);
    expect(updated.has_api_key).toBe(true);
    expect((await getEmailProviderCredentials(db, companyA, 'sendgrid'))?.api_key).toBe(KEY);

    const rotated = await upsertEmailProvider(db, scope, {
      provider: 'sendgrid',
      api_key: 'SG.rotated-key-9999',
    });
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

    expect(await deleteEmailProvider(db, scope, sendgrid.id)).toBe(true);
    expect(await deleteEmailProvider(db, scope, sendgrid.id)).toBe(false);
    expect(await hasUsableProvider(db, companyA)).toBe(false);
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
      const theirs = await upsertEmailProvider(guarded, systemScope(companyB), {
        provider: 'ses',
        api_key: KEY,
      });
      // A's own entry of the same provider name is a separate row and leaves B's key alone.
      const mine = await upsertEmailProvider(guarded, systemScope(companyA), {
        provider: 'ses',
        api_key: '',
      });
      expect(mine.id).not.toBe(theirs.id);
      expect(await hasUsableProvider(guarded, companyA)).toBe(false);
      expect(await hasUsableProvider(guarded, companyB)).toBe(true);
      expect(await getEmailProviderCredentials(guarded, companyA, 'ses')).toBeNull();
      expect((await listEmailProviders(guarded, companyA)).every((row) => row.company_id === companyA)).toBe(
        true,
      );
      expect(await deleteEmailProvider(guarded, systemScope(companyA), theirs.id)).toBe(false);
      expect((await getEmailProviderCredentials(guarded, companyB, 'ses'))?.api_key).toBe(KEY);
      expect(await deleteEmailProvider(guarded, systemScope(companyA), mine.id)).toBe(true);
      expect(await deleteEmailProvider(guarded, systemScope(companyB), theirs.id)).toBe(true);
    }
  });
});
