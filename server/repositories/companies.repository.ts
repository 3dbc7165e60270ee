import type { CompanyId, Database } from '../db/database.js';

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
export function createCompany(
  db: Database,
  input: { name: string; slug: string; timeZone?: string },
): Promise<CompanyRow> {
  return db.platform(async (sql) => {
    const { rows } = await sql.query<CompanyRow>(
      `INSERT INTO companies (name, slug, time_zone) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [input.name, input.slug, input.timeZone ?? 'America/New_York'],
    );
    return rows[0]!;
  });
}

/** The calling company's own record. */
export function getCompany(db: Database, companyId: CompanyId): Promise<CompanyRow | null> {
  return db.tenant(companyId, async (sql) => {
    const { rows } = await sql.query<CompanyRow>(`SELECT ${COLUMNS} FROM companies WHERE id = $1`, [
      companyId,
    ]);
    return rows[0] ?? null;
  });
}

/** Every company, for platform staff and the seed. */
export function listCompanies(db: Database): Promise<CompanyRow[]> {
  return db.platform(
    async (sql) => (await sql.query<CompanyRow>(`SELECT ${COLUMNS} FROM companies ORDER BY id`)).rows,
  );
}

/** How many companies exist; zero means the database is empty and the demo may be loaded. */
export function countCompanies(db: Database): Promise<number> {
  return db.platform(async (sql) => {
    const { rows } = await sql.query<{ count: number }>('SELECT count(*)::int AS count FROM companies');
    return rows[0]?.count ?? 0;
  });
}
