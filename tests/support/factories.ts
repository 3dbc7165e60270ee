import { randomBytes } from 'node:crypto';
import type { Database } from '../../server/db/database.js';
import { createCompany, type CompanyRow } from '../../server/repositories/companies.repository.js';
import type { WriteScope } from '../../server/repositories/scope.js';

/** A new company with a unique slug. */
export function makeCompany(db: Database, name = 'Test Company'): Promise<CompanyRow> {
  return createCompany(db, { name, slug: `test-${randomBytes(4).toString('hex')}` });
}

/** A write scope acting as no particular user (system change) in the company. */
export function systemScope(companyId: number): WriteScope {
  return { companyId, userId: null, actorUserId: null };
}
