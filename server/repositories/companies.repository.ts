import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { isUniqueViolation, UserEmailTakenError } from './references.js';
import type { UserRow } from './users.repository.js';

/** A company (tenant). */
export interface CompanyRow {
  id: number;
  name: string;
  slug: string;
  time_zone: string;
  currency: string;
  created_at: Date;
}

const COLUMNS = 'id, name, slug, time_zone, currency, created_at';

/** Creates a company; a platform operation (sign-up, seeding, staff tools). */
export async function createCompany(
  sql: Sql,
  input: { name: string; slug: string; timeZone?: string },
): Promise<CompanyRow> {
  const { rows } = await sql.query<CompanyRow>(
    `INSERT INTO companies (name, slug, time_zone) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
    [input.name, input.slug, input.timeZone ?? 'America/New_York'],
  );
  return rows[0]!;
}

/** The calling company's own record. */
export async function getCompany(sql: Sql, companyId: CompanyId): Promise<CompanyRow | null> {
  const { rows } = await sql.query<CompanyRow>(`SELECT ${COLUMNS} FROM companies WHERE id = $1`, [companyId]);
  return rows[0] ?? null;
}

/** Every company, for platform staff and the seed. */
export async function listCompanies(sql: Sql): Promise<CompanyRow[]> {
  return (await sql.query<CompanyRow>(`SELECT ${COLUMNS} FROM companies ORDER BY id`)).rows;
}

/** How many companies exist; zero means the database is empty and the demo may be loaded. */
export async function countCompanies(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ count: number }>('SELECT count(*)::int AS count FROM companies');
  return rows[0]?.count ?? 0;
}

/** Raised when a new company's slug is already used (the caller picks another and tries again). */
export class CompanySlugTakenError extends Error {
  constructor() {
    super('A company with this slug already exists');
    this.name = 'CompanySlugTakenError';
  }
}

/** What a self-service sign-up creates: the company, its features and its first user, the owner. */
export interface NewCompanyWithOwner {
  company: { name: string; slug: string; timeZone?: string };
  features: readonly string[];
  owner: { email: string; first_name: string; last_name: string; password_hash: string };
}

const USER_COLUMNS = `id, company_id, email, username, first_name, last_name, role, is_staff, is_active, verified_at,
  last_login_at, created_at, updated_at`;

/**
 * Creates a company with its features, its owner and the owner's settings in one platform transaction:
 * either all of it exists afterwards or none of it. Throws UserEmailTakenError when the email already
 * has an account and CompanySlugTakenError when the slug is used.
 */
export async function createCompanyWithOwner(
  sql: Sql,
  input: NewCompanyWithOwner,
): Promise<{ company: CompanyRow; owner: UserRow }> {
  let company: CompanyRow;
  try {
    const { rows } = await sql.query<CompanyRow>(
      `INSERT INTO companies (name, slug, time_zone) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [input.company.name, input.company.slug, input.company.timeZone ?? 'America/New_York'],
    );
    company = rows[0]!;
  } catch (error) {
    if (isUniqueViolation(error, 'companies_slug_key')) throw new CompanySlugTakenError();
    throw error;
  }
  await sql.query(
    `INSERT INTO company_features (company_id, feature) SELECT $1, unnest($2::text[])
     ON CONFLICT (company_id, feature) DO NOTHING`,
    [company.id, [...input.features]],
  );
  const email = input.owner.email.trim();
  let owner: UserRow;
  try {
    const { rows } = await sql.query<UserRow>(
      `INSERT INTO users (company_id, email, username, first_name, last_name, role, password_hash)
       VALUES ($1, $2, $2, $3, $4, 'owner', $5) RETURNING ${USER_COLUMNS}`,
      [company.id, email, input.owner.first_name, input.owner.last_name, input.owner.password_hash],
    );
    owner = rows[0]!;
  } catch (error) {
    // Throwing rolls the whole transaction back, so the company above does not remain either.
    if (isUniqueViolation(error, 'users_email_unique')) throw new UserEmailTakenError();
    throw error;
  }
  await sql.query('INSERT INTO account_settings (user_id, company_id) VALUES ($1, $2)', [
    owner.id,
    company.id,
  ]);
  const scope = { companyId: company.id, userId: owner.id, actorUserId: owner.id };
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'company',
    entityId: company.id,
    after: company,
  });
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'company_features',
    entityId: company.id,
    before: [],
    after: [...input.features],
  });
  await recordAudit(sql, scope, { action: 'create', entity: 'user', entityId: owner.id, after: owner });
  return { company, owner };
}
