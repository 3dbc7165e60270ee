import type { CompanyId, Sql } from '../db/database.js';
import { isUniqueViolation } from './references.js';

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

/**
 * Creates a company; a platform operation (sign-up, seeding, staff tools). Throws CompanySlugTakenError when the
 * slug is used.
 */
export async function createCompany(
  sql: Sql,
  input: { name: string; slug: string; timeZone?: string },
): Promise<CompanyRow> {
  try {
    const { rows } = await sql.query<CompanyRow>(
      `INSERT INTO companies (name, slug, time_zone) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [input.name, input.slug, input.timeZone ?? 'America/New_York'],
    );
    return rows[0]!;
  } catch (error) {
    if (isUniqueViolation(error, 'companies_slug_key')) throw new CompanySlugTakenError();
    throw error;
  }
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

/** The companies still owed their starter segments (they existed before migration 0022), oldest first. */
export async function companiesOwedStarterSegments(sql: Sql): Promise<number[]> {
  const { rows } = await sql.query<{ id: string | number }>(
    'SELECT id FROM companies WHERE starter_segments_at IS NULL ORDER BY id',
  );
  return rows.map((row) => Number(row.id));
}

/**
 * Marks the company as given its starter segments; false when it already was. The row lock holds until the
 * transaction ends, so two processes starting together give them once.
 */
export async function claimStarterSegments(sql: Sql, companyId: CompanyId): Promise<boolean> {
  const { rowCount } = await sql.query(
    'UPDATE companies SET starter_segments_at = now() WHERE id = $1 AND starter_segments_at IS NULL',
    [companyId],
  );
  return rowCount > 0;
}

/** Raised when a new company's slug is already used (the caller picks another and tries again). */
export class CompanySlugTakenError extends Error {
  constructor() {
    super('A company with this slug already exists');
    this.name = 'CompanySlugTakenError';
  }
}
