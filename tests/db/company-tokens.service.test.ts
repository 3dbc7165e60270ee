import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findActiveCompanyTokenByHash } from '../../server/repositories/company-tokens.repository.js';
import { hashCompanyKey } from '../../server/auth/company-token.js';
import {
  issueCompanyTokenForAccount,
  UnknownAccountError,
} from '../../server/services/company-tokens.service.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeUser } from '../support/factories.js';

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

  it('refuses an unknown email', async () => {
    await expect(issueCompanyTokenForAccount(test.db, 'nobody@example.com', 'x')).rejects.toBeInstanceOf(
      UnknownAccountError,
    );
  });
});
