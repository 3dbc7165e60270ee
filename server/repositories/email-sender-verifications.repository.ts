import type { CompanyId, Sql } from '../db/database.js';

/** A verification link's token as kept: its hash, the address it was sent to and whether it still works. */
export interface SenderVerificationRow {
  id: number;
  company_id: number;
  sender_id: number;
  email: string;
  expires_at: Date;
  used_at: Date | null;
  /** Whether expires_at has passed, by the database's clock. */
  expired: boolean;
  /** The sender's address now, to tell a link sent to an older address. */
  sender_email: string;
}

/** Records a new link token (its hash only) for a sender's current address, working for `hours`. */
export async function createSenderVerification(
  sql: Sql,
  companyId: CompanyId,
  input: { senderId: number; email: string; tokenHash: string; hours: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO email_sender_verifications (company_id, sender_id, email, token_hash, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5::int))`,
    [companyId, input.senderId, input.email, input.tokenHash, input.hours],
  );
}

/** The token with this hash in the company, locked until the transaction ends; null when there is none. */
export async function findSenderVerification(
  sql: Sql,
  companyId: CompanyId,
  tokenHash: string,
): Promise<SenderVerificationRow | null> {
  const { rows } = await sql.query<SenderVerificationRow>(
    `SELECT v.id, v.company_id, v.sender_id, v.email, v.expires_at, v.used_at, v.expires_at <= now() AS expired,
            s.email AS sender_email
       FROM email_sender_verifications v
       JOIN email_senders s ON s.company_id = v.company_id AND s.id = v.sender_id
      WHERE v.company_id = $1 AND v.token_hash = $2
      FOR UPDATE OF v`,
    [companyId, tokenHash],
  );
  return rows[0] ?? null;
}

/** Marks a token used, so its link works once. */
export async function useSenderVerification(sql: Sql, companyId: CompanyId, id: number): Promise<void> {
  await sql.query('UPDATE email_sender_verifications SET used_at = now() WHERE company_id = $1 AND id = $2', [
    companyId,
    id,
  ]);
}

/**
 * Ends the unused links of a sender that were sent to another address than `currentEmail`: after an address
 * change, an old link must verify nothing. Returns how many were ended.
 */
export async function expireOtherAddressVerifications(
  sql: Sql,
  companyId: CompanyId,
  senderId: number,
  currentEmail: string,
): Promise<number> {
  const { rowCount } = await sql.query(
    `UPDATE email_sender_verifications SET expires_at = least(expires_at, now())
      WHERE company_id = $1 AND sender_id = $2 AND used_at IS NULL AND lower(email) <> lower($3)`,
    [companyId, senderId, currentEmail],
  );
  return rowCount;
}
