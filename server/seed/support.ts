import type { Sql } from '../db/database.js';

/** The platform's own company, whose staff may act as users of other companies (/hijack). */
export const SUPPORT_COMPANY = { name: 'Regulars Support', slug: 'regulars-support' } as const;

/** The demo staff account: a published demo credential like the demo owners'. */
export const SUPPORT_STAFF = {
  email: 'support@regulars.example',
  firstName: 'Sasha',
  lastName: 'Support',
} as const;

/** The support company and how its staff member signs in. */
export interface SupportSummary {
  id: number;
  name: string;
  staffEmail: string;
  /** The published demo password, not a secret. */
  staffPassword: string;
}

/**
 * Writes the support company with its one staff user (owner of that company, `is_staff`) and their
 * settings. It has no features: staff work in other companies' accounts, never in their own.
 */
export async function insertSupportCompany(sql: Sql, passwordHash: string): Promise<number> {
  const company = await sql.query<{ id: number }>(
    'INSERT INTO companies (name, slug) VALUES ($1, $2) RETURNING id',
    [SUPPORT_COMPANY.name, SUPPORT_COMPANY.slug],
  );
  const companyId = company.rows[0]!.id;
  const staff = await sql.query<{ id: number }>(
    `INSERT INTO users (company_id, email, username, first_name, last_name, password_hash, role, is_staff,
                        verified_at)
     VALUES ($1, $2, $2, $3, $4, $5, 'owner', true, now()) RETURNING id`,
    [companyId, SUPPORT_STAFF.email, SUPPORT_STAFF.firstName, SUPPORT_STAFF.lastName, passwordHash],
  );
  await sql.query('INSERT INTO account_settings (user_id, company_id) VALUES ($1, $2)', [
    staff.rows[0]!.id,
    companyId,
  ]);
  return companyId;
}
