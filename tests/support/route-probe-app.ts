import { buildAppWithServices, type BuiltApp } from '../../server/app.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import type { Database } from '../../server/db/database.js';
import { setCompanyFeatures } from '../../server/repositories/company-features.repository.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import { TEST_RATE_LIMITS } from './app.js';
import { openTestDatabase, type TestDatabase } from './database.js';
import { makeCompany, makeUser, systemScope } from './factories.js';
import { operationsOf, type Operation } from './openapi.js';

/** The real app on a fresh database, with the operations of its OpenAPI document, for the generated probes. */
export interface RouteProbeApp {
  database: TestDatabase;
  built: BuiltApp;
  operations: Operation[];
}

/**
 * Builds the app the generated checks (fuzz, tenancy probe) call every operation of: no client, no job
 * runner, and rate limits out of the way, since they make thousands of calls from one address (the limits
 * themselves are tested in rate-limits.test.ts).
 */
export async function openRouteProbeApp(): Promise<RouteProbeApp> {
  const database = await openTestDatabase();
  const built = await buildAppWithServices({
    db: database.db,
    logLevel: 'silent',
    clientDir: null,
    auth: authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' }),
    imports: { runJobs: false },
    rateLimits: TEST_RATE_LIMITS,
  });
  await built.app.ready();
  return { database, built, operations: operationsOf(built.app.swagger()) };
}

/** A company with every feature on and its owner, so calls get past access control to the route itself. */
export async function makeOwnerWithAllFeatures(
  db: Database,
  companyName: string,
): Promise<{ companyId: number; ownerId: number }> {
  const company = await makeCompany(db, companyName);
  await db.tenant(company.id, (sql) => setCompanyFeatures(sql, systemScope(company.id), [...ALL_FEATURES]));
  const owner = await makeUser(db, company.id, { role: 'owner' });
  return { companyId: company.id, ownerId: owner.id };
}
