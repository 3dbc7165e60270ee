import type { CompanyId, Sql } from '../db/database.js';
import { addressHashSql } from './address-hash.js';
import { exitSubscribersFromFlows } from './flow-exits.repository.js';

/**
 * The suppression list (docs/sending.md, "Suppressions"). Every entry is matched by `email_hash`, the SHA-256 of
 * the lower-cased address, so a `deleted` entry (an erased customer) keeps no address in clear and still stops
 * every later send to it.
 */

/** Why an address must not be mailed again. */
export type SuppressionReason = 'unsubscribed' | 'bounced' | 'complained' | 'deleted';

/**
 * Adds an address to the company's suppression list; an address already there keeps its first reason. A bounce
 * or a complaint (a feedback report, a suppression added by hand) also ends the flows of the subscribers holding
 * the address at once, as `suppressed` (docs/flows.md, "Exits"); an unsubscribe's caller ends them as
 * `unsubscribed` itself.
 */
export async function suppressAddress(
  sql: Sql,
  companyId: CompanyId,
  email: string,
  reason: SuppressionReason,
  runId: number | null,
): Promise<void> {
  await sql.query(
    `INSERT INTO mail_suppressions (company_id, email, email_hash, reason, run_id)
     VALUES ($1, $2, ${addressHashSql('$2')}, $3, $4)
     ON CONFLICT (company_id, email_hash) DO NOTHING`,
    [companyId, email, reason, runId],
  );
  if (reason !== 'bounced' && reason !== 'complained') return;
  const { rows } = await sql.query<{ id: number }>(
    'SELECT id::int FROM subscribers WHERE company_id = $1 AND lower(email) = lower($2) ORDER BY id',
    [companyId, email],
  );
  await exitSubscribersFromFlows(
    sql,
    companyId,
    rows.map((row) => row.id),
    'suppressed',
  );
}

/**
 * Suppresses an erased customer's address for good, keeping only its hash: a new `deleted` entry, or an
 * existing entry (unsubscribed, bounced) that forgets the address in clear and becomes `deleted`.
 */
export async function suppressErasedAddress(sql: Sql, companyId: CompanyId, email: string): Promise<void> {
  await sql.query(
    `INSERT INTO mail_suppressions (company_id, email, email_hash, reason)
     VALUES ($1, NULL, ${addressHashSql('$2')}, 'deleted')
     ON CONFLICT (company_id, email_hash) DO UPDATE SET email = NULL, reason = 'deleted'`,
    [companyId, email],
  );
}

/** Lifts an unsubscribe (the person asked again); bounces, complaints and erasures stay. */
export async function liftUnsubscribe(sql: Sql, companyId: CompanyId, email: string): Promise<void> {
  await sql.query(
    `DELETE FROM mail_suppressions
     WHERE company_id = $1 AND email_hash = ${addressHashSql('$2')} AND reason = 'unsubscribed'`,
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
    `SELECT reason FROM mail_suppressions WHERE company_id = $1 AND email_hash = ${addressHashSql('$2')}`,
    [companyId, email],
  );
  return rows[0]?.reason ?? null;
}
