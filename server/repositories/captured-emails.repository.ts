import type { CompanyId, Sql } from '../db/database.js';
import { likePattern } from './like-pattern.js';
import { jsonParam, type Page, type PageWindow } from './marketing-common.js';

/** A message kept in the database because no SMTP server is set up. */
export interface CapturedEmailRow {
  id: number;
  company_id: number;
  from_address: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** The message's headers in order (From, To, Subject, Date, Message-ID, List-Unsubscribe …). */
  headers: CapturedHeader[];
  message_id: string | null;
  /** The mail run and outbox row it was rendered for; null for the product's own mail. */
  run_id: number | null;
  outbox_id: number | null;
  created_at: Date;
}

/** One header of a captured message (kept as a list: jsonb objects do not keep their keys' order). */
export interface CapturedHeader {
  name: string;
  value: string;
}

/** What is kept of a message. */
export interface CapturedEmailInput {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  /** Header name → value, in the order the message carries them. */
  headers?: Record<string, string> | undefined;
  messageId?: string | undefined;
  runId?: number | null | undefined;
  outboxId?: number | null | undefined;
}

const COLUMNS = `id::int, company_id::int, from_address, to_address, subject, text_body, html_body, headers, message_id,
  run_id::int, outbox_id::int, created_at`;

/** Keeps one message for the company. */
export async function insertCapturedEmail(
  sql: Sql,
  companyId: CompanyId,
  message: CapturedEmailInput,
): Promise<CapturedEmailRow> {
  const { rows } = await sql.query<CapturedEmailRow>(
    `INSERT INTO captured_emails (company_id, from_address, to_address, subject, text_body, html_body, headers,
                                  message_id, run_id, outbox_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
    [
      companyId,
      message.from,
      message.to,
      message.subject,
      message.text,
      message.html ?? null,
      jsonParam(Object.entries(message.headers ?? {}).map(([name, value]) => ({ name, value }))),
      message.messageId ?? null,
      message.runId ?? null,
      message.outboxId ?? null,
    ],
  );
  return rows[0]!;
}

/** The company's captured messages, newest first. */
export async function listCapturedEmails(
  sql: Sql,
  companyId: CompanyId,
  limit: number,
): Promise<CapturedEmailRow[]> {
  const { rows } = await sql.query<CapturedEmailRow>(
    `SELECT ${COLUMNS} FROM captured_emails WHERE company_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [companyId, limit],
  );
  return rows;
}

/** Deletes the company's captured messages to an address (an erased customer's). */
export async function deleteCapturedEmailsTo(sql: Sql, companyId: CompanyId, email: string): Promise<void> {
  await sql.query('DELETE FROM captured_emails WHERE company_id = $1 AND lower(to_address) = lower($2)', [
    companyId,
    email,
  ]);
}

/** One page of the company's captured messages, newest first, optionally searched by subject. */
export async function pageCapturedEmails(
  sql: Sql,
  companyId: CompanyId,
  filter: { q?: string | undefined } & PageWindow,
): Promise<Page<CapturedEmailRow>> {
  const q = filter.q?.trim() ? likePattern(filter.q.trim()) : null;
  const where = `company_id = $1 AND ($2::text IS NULL OR subject ILIKE $2)`;
  const { rows } = await sql.query<CapturedEmailRow>(
    `SELECT ${COLUMNS} FROM captured_emails WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [companyId, q, filter.limit, filter.offset],
  );
  const total = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM captured_emails WHERE ${where}`,
    [companyId, q],
  );
  return { count: total.rows[0]!.n, rows };
}

/** One captured message of the company, or null. */
export async function findCapturedEmail(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): Promise<CapturedEmailRow | null> {
  const { rows } = await sql.query<CapturedEmailRow>(
    `SELECT ${COLUMNS} FROM captured_emails WHERE company_id = $1 AND id = $2`,
    [companyId, id],
  );
  return rows[0] ?? null;
}
