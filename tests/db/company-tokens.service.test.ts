import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findActiveCompanyTokenByHash,
  listCompanyTokens,
} from '../../server/repositories/company-tokens.repository.js';
import { updateUser } from '../../server/repositories/users.repository.js';
import { hashCompanyKey } from '../../server/auth/company-token.js';
import {
  issueCompanyTokenForAccount,
  UnknownAccountError,
} from '../../server/services/company-tokens.service.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeUser, systemScope } from '../support/factories.js';
import { changeAfterFirstTransaction } from './support/between-transactions.js';

describe('issuing company tokens for an account', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(() => test.drop());

  it("issues a working key for the account's company, found by email in any case", async () => {
    const company = await makeCompany(test.db, 'Token Co');
    const user = await makeUser(test.db, company.id, { email: 'Owner@Token.example' });
    const issued = await issueCompanyTokenForAccount(test.db, ' owner@TOKEN.example ', 'Reports');
    expect(issued.companyId).toBe(company.id);
    expect(issued.token).toMatchObject({ name: 'Reports', created_by: user.id, company_id: company.id });
    expect(
      (await test.db.platform((sql) => findActiveCompanyTokenByHash(sql, hashCompanyKey(issued.key))))?.id,
    ).toBe(issued.token.id);
  });

  it('refuses an account deactivated after it was looked up, and stores no token for it', async () => {
    const company = await makeCompany(test.db, 'Leaving Co');
    const user = await makeUser(test.db, company.id, { email: 'leaving@token.example' });
    const raced = changeAfterFirstTransaction(test.db, async (db) => {
      await db.tenant(company.id, (sql) =>
        updateUser(sql, systemScope(company.id), user.id, { is_active: false }),
      );
    });

    await expect(
      issueCompanyTokenForAccount(raced.db, 'leaving@token.example', 'Too late'),
    ).rejects.toBeInstanceOf(UnknownAccountError);

    expect(raced.changed()).toBe(true);
    expect(await test.db.tenant(company.id, (sql) => listCompanyTokens(sql, company.id))).toEqual([]);
  });

  it('refuses an unknown email', async () => {
    await expect(issueCompanyTokenForAccount(test.db, 'nobody@example.com', 'x')).rejects.toBeInstanceOf(
      UnknownAccountError,
    );
  });
});
