import type { CompanyId, Sql } from '../db/database.js';

/** A support session: a staff member acting as a company user. */
export interface ImpersonationRow {
  id: number;
  company_id: number;
  staff_user_id: number;
  user_id: number;
  started_at: Date;
  ended_at: Date | null;
}

const COLUMNS = 'id, company_id, staff_user_id, user_id, started_at, ended_at';

/** Opens an impersonation of a company's user by a staff member. */
export async function startImpersonation(
  sql: Sql,
  input: { companyId: CompanyId; staffUserId: number; userId: number },
): Promise<ImpersonationRow> {
  const { rows } = await sql.query<ImpersonationRow>(
    `INSERT INTO impersonations (company_id, staff_user_id, user_id) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
    [input.companyId, input.staffUserId, input.userId],
  );
  return rows[0]!;
}

/** Ends an impersonation; false when it was not open in this company. */
export async function endImpersonation(sql: Sql, companyId: CompanyId, id: number): Promise<boolean> {
  const result = await sql.query(
    'UPDATE impersonations SET ended_at = now() WHERE company_id = $1 AND id = $2 AND ended_at IS NULL',
    [companyId, id],
  );
  return result.rowCount === 1;
}

/** True while the impersonation is open and joins exactly this staff member and user. */
export async function isImpersonationOpen(
  sql: Sql,
  match: { id: number; staffUserId: number; userId: number },
): Promise<boolean> {
  const { rows } = await sql.query<{ open: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM impersonations WHERE id = $1 AND staff_user_id = $2 AND user_id = $3
                       AND ended_at IS NULL) AS open`,
    [match.id, match.staffUserId, match.userId],
  );
  return rows[0]?.open ?? false;
}

/** A company's impersonations, newest first: the company can see when support acted for it. */
export async function listImpersonations(sql: Sql, companyId: CompanyId): Promise<ImpersonationRow[]> {
  const { rows } = await sql.query<ImpersonationRow>(
    `SELECT ${COLUMNS} FROM impersonations WHERE company_id = $1 ORDER BY id DESC`,
    [companyId],
  );
  return rows;
}
