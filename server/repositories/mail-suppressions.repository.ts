import type { CompanyId, Sql } from '../db/database.js';

/** Why an address must not be mailed again. */
export type SuppressionReason = 'unsubscribed' | 'bounced' | 'complained' | 'deleted';

/** Adds an address to the company's suppression list; an address already there keeps its first reason. */
export async function suppressAddress(
  sql: Sql,
  companyId: CompanyId,
  email: string,
  reason: SuppressionReason,
  runId: number | null,
): Promise<void> {
  await sql.query(
    `INSERT INTO mail_suppressions (company_id, email, reason, run_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (company_id, lower(email)) DO NOTHING`,
    [companyId, email, reason, runId],
  );
}

/** Lifts an unsubscribe (the person asked again); bounces and complaints stay. */
export async function liftUnsubscribe(sql: Sql, companyId: CompanyId, email: string): Promise<void> {
  await sql.query(
    `DELETE FROM mail_suppressions WHERE company_id = $1 AND lower(email) = lower($2) AND reason = 'unsubscribed'`,
    [companyId, email],
  );
}

/** The reason an address is suppressed, or null. */
export async function suppressionOf(
  sql: Sql,
  companyId: CompanyId,
  email: string,
): Promise<SuppressionReason | null> {
  const { rows } = await sql.query<{ reason: SuppressionReason }>(
    'SELECT reason FROM mail_suppressions WHERE company_id = $1 AND lower(email) = lower($2)',
    [companyId, email],
  );
  return rows[0]?.reason ?? null;
}
