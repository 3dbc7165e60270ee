import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { generateCompanyKey } from '../../server/auth/company-token.js';
import { createCompanyToken } from '../../server/repositories/company-tokens.repository.js';
import { openTestDatabase, type TestDatabase } from './database.js';
import { makeCompany } from './factories.js';

/** A company that can call the API: its id and the `Authorization` header to use. */
export interface ApiCaller {
  companyId: number;
  headers: { authorization: string };
}

/** The API over a fresh database, and helpers to make companies that call it. */
export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  newCaller(name?: string): Promise<ApiCaller>;
  close(): Promise<void>;
}

/** Builds the real app (no client bundle) on a fresh migrated database. */
export async function openTestApp(): Promise<TestApp> {
  const database = await openTestDatabase();
  const app = await buildApp({ db: database.db, logLevel: 'silent', clientDir: null });
  await app.ready();
  return {
    app,
    database,
    async newCaller(name = 'Caller Co') {
      const company = await makeCompany(database.db, name);
      const key = generateCompanyKey();
      await createCompanyToken(database.db, company.id, {
        name: 'tests',
        keyPrefix: key.keyPrefix,
        keyHash: key.keyHash,
        createdBy: null,
      });
      return { companyId: company.id, headers: { authorization: `Token ${key.key}` } };
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
