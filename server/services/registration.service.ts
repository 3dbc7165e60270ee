import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';
import { hashPassword } from '../auth/passwords.js';
import { CompanySlugTakenError, createCompanyWithOwner } from '../repositories/companies.repository.js';
import { UserEmailTakenError } from '../repositories/references.js';
import type { UserRow } from '../repositories/users.repository.js';
import type { RegistrationRequest } from '../../src/schemas/accounts.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';

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

/**
 * Signs up a new company with its owner: the company, every feature (a new company starts with the whole
 * product), the owner (argon2id password, username = email) and their settings, all in one transaction.
 * Throws UserEmailTakenError when the email already has an account; nothing is left half-created.
 */
export async function registerCompany(db: Database, input: RegistrationRequest): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { owner } = await db.platform((sql) =>
        createCompanyWithOwner(sql, {
          company: { name: input.company_name, slug: companySlug(input.company_name) },
          features: ALL_FEATURES,
          owner: {
            email: input.email,
            first_name: input.first_name,
            last_name: input.last_name,
            password_hash: passwordHash,
          },
        }),
      );
      return owner;
    } catch (error) {
      if (error instanceof CompanySlugTakenError && attempt < SLUG_ATTEMPTS) continue;
      throw error;
    }
  }
}
