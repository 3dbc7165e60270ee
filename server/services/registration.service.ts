import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';
import { hashPassword } from '../auth/passwords.js';
import type { Sql } from '../db/database.js';
import { createAccountSettings } from '../repositories/account-settings.repository.js';
import { recordAudit } from '../repositories/audit.repository.js';
import { CompanySlugTakenError, createCompany } from '../repositories/companies.repository.js';
import { setCompanyFeatures } from '../repositories/company-features.repository.js';
import { UserEmailTakenError } from '../repositories/references.js';
import { createSelfRegisteredUser, type UserRow } from '../repositories/users.repository.js';
import type { RegistrationRequest } from '../../src/schemas/accounts.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import { createStarterSegments } from './starter-segments.service.js';

export { UserEmailTakenError };

/** How often a fresh random slug is tried before giving up (a clash of 32 random bits is already rare). */
const SLUG_ATTEMPTS = 3;

/** A URL-safe slug from the company name, plus a random suffix so equal names never clash. */
export function companySlug(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return `${base || 'company'}-${randomBytes(4).toString('hex')}`;
}

/** What a sign-up writes, in the caller's platform transaction. */
async function createCompanyWithOwner(
  sql: Sql,
  input: RegistrationRequest,
  passwordHash: string,
): Promise<UserRow> {
  const company = await createCompany(sql, {
    name: input.company_name,
    slug: companySlug(input.company_name),
  });
  // The owner creates themselves, so their own creation is recorded as theirs, like everything after it.
  const owner = await createSelfRegisteredUser(sql, company.id, {
    email: input.email,
    first_name: input.first_name,
    last_name: input.last_name,
    role: 'owner',
    password_hash: passwordHash,
  });
  await createAccountSettings(sql, company.id, owner.id);
  const ownerScope = { companyId: company.id, userId: owner.id, actorUserId: owner.id };
  await recordAudit(sql, ownerScope, {
    action: 'create',
    entity: 'company',
    entityId: company.id,
    after: company,
  });
  await setCompanyFeatures(sql, ownerScope, ALL_FEATURES);
  // Seven segments to start from, figures computed (zeros until guests arrive): a few milliseconds of SQL.
  await createStarterSegments(sql, ownerScope);
  return owner;
}

/**
 * Signs up a new company with its owner: the company, every feature (a new company starts with the whole
 * product), the owner (argon2id password, username = email) and their settings, and the seven starter
 * segments, all in one transaction.
 * Throws UserEmailTakenError when the email already has an account; nothing is left half-created.
 */
export async function registerCompany(db: Database, input: RegistrationRequest): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.platform((sql) => createCompanyWithOwner(sql, input, passwordHash));
    } catch (error) {
      if (error instanceof CompanySlugTakenError && attempt < SLUG_ATTEMPTS) continue;
      throw error;
    }
  }
}
