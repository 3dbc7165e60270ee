import type { SentMail, SentMailSummary } from '../../src/schemas/sending.js';
import type { CompanyId, Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import {
  findCapturedEmail,
  pageCapturedEmails,
  type CapturedEmailRow,
} from '../repositories/captured-emails.repository.js';

/**
 * The "Sent mail" viewer (docs/sending.md): the messages an installation without a mail server kept in the
 * database, each with its HTML, text and headers, so a newcomer sees exactly what would have gone out.
 */

function summaryOf(row: CapturedEmailRow): SentMailSummary {
  return {
    id: row.id,
    from: row.from_address,
    to: row.to_address,
    subject: row.subject,
    run_id: row.run_id,
    created_at: row.created_at.toISOString(),
  };
}

/** The headers in order; mail kept before headers were stored shows its envelope fields. */
function headersOf(row: CapturedEmailRow): SentMail['headers'] {
  if (Array.isArray(row.headers) && row.headers.length > 0) return row.headers;
  return [
    { name: 'From', value: row.from_address },
    { name: 'To', value: row.to_address },
    { name: 'Subject', value: row.subject },
    { name: 'Date', value: row.created_at.toUTCString() },
  ];
}

/** The sent-mail calls over one database. */
export function sentMailService(db: Database) {
  return {
    /** A page of the company's captured mail, newest first, searched by subject. */
    async list(companyId: CompanyId, filter: { q?: string | undefined; limit: number; offset: number }) {
      const { count, rows } = await db.tenant(companyId, (sql) => pageCapturedEmails(sql, companyId, filter));
      return { count, results: rows.map(summaryOf) };
    },
    /** One captured message; 404 for another company's. */
    async get(companyId: CompanyId, id: number): Promise<SentMail> {
      const row = await db.tenant(companyId, (sql) => findCapturedEmail(sql, companyId, id));
      if (!row) throw notFound('Sent mail');
      return {
        ...summaryOf(row),
        html: row.html_body,
        text: row.text_body,
        headers: headersOf(row),
        message_id: row.message_id,
        outbox_id: row.outbox_id,
      };
    },
  };
}

/** The sent-mail service's calls. */
export type SentMailService = ReturnType<typeof sentMailService>;
