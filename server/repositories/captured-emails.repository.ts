import type { CompanyId, Sql } from '../db/database.js';

/** A message kept in the database because no SMTP server is set up. */
export interface CapturedEmailRow {
  id: number;
  company_id: number;
  from_address: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Date;
}

/** What is kept of a message. */
export interface CapturedEmailInput {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
}

const COLUMNS = 'id, company_id, from_address, to_address, subject, text_body, html_body, created_at';

/** Keeps one message for the company. */
export async function insertCapturedEmail(
  sql: Sql,
  companyId: CompanyId,
  message: CapturedEmailInput,
): Promise<CapturedEmailRow> {
  const { rows } = await sql.query<CapturedEmailRow>(
    `INSERT INTO captured_emails (company_id, from_address, to_address, subject, text_body, html_body)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [companyId, message.from, message.to, message.subject, message.text, message.html ?? null],
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
