import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { openTestDatabase, type TestDatabase } from './database.js';
import { makeCompany } from './factories.js';

/** A fresh database holding two companies, A and B, for isolation tests. */
export interface TwoCompanies {
  db: Database;
  companyA: number;
  companyB: number;
}

/**
 * Opens a fresh migrated database with companies 'A' and 'B' before a test file's tests, hands them to
 * `receive`, and drops the database after the file's tests.
 */
export function useTwoCompanies(receive: (opened: TwoCompanies) => void): void {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
    receive({
      db: test.db,
      companyA: (await makeCompany(test.db, 'A')).id,
      companyB: (await makeCompany(test.db, 'B')).id,
    });
  });
  afterAll(() => test.drop());
}
