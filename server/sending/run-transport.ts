import { createTransport } from 'nodemailer';
import type { Database } from '../db/database.js';
import { insertCapturedEmail } from '../repositories/captured-emails.repository.js';
import type { RenderedMessage } from './run-message.js';

/** DKIM signing settings (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY). */
export interface DkimSettings {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/**
 * The headers signed with DKIM: nodemailer's default list leaves `List-Unsubscribe-Post` out, and RFC 8058
 * wants both List-* headers signed.
 */
export const DKIM_SIGNED_HEADERS =
  'from:sender:reply-to:subject:date:message-id:to:cc:mime-version:content-type:content-transfer-encoding:' +
  'list-unsubscribe:list-unsubscribe-post';

/** How run messages leave: a pooled SMTP transport, or the database when no SMTP server is set. */
export interface RunTransport {
  readonly mode: 'smtp' | 'capture';
  /** Hands one message over; resolves with the provider's id or rejects with the SMTP failure. */
  send(companyId: number, message: RenderedMessage): Promise<{ providerMessageId: string | null }>;
  close(): Promise<void>;
}

/** What the run transport is built from. */
export interface RunTransportSettings {
  smtpUrl?: string | undefined;
  /** Connections kept open to the SMTP server. */
  maxConnections?: number;
  dkim?: DkimSettings | undefined;
}

/** The run transport: nodemailer's pool over SMTP_URL (DKIM-signed when configured), or capture. */
export function runTransport(db: Database, settings: RunTransportSettings): RunTransport {
  if (!settings.smtpUrl) {
    return {
      mode: 'capture',
      async send(companyId, message) {
        await db.tenant(companyId, (sql) => insertCapturedEmail(sql, companyId, message));
        return { providerMessageId: null };
      },
      async close() {},
    };
  }
  const transport = createTransport({
    url: settings.smtpUrl,
    pool: true,
    maxConnections: settings.maxConnections ?? 5,
    maxMessages: Infinity,
    ...(settings.dkim ? { dkim: { ...settings.dkim, headerFieldNames: DKIM_SIGNED_HEADERS } } : {}),
  });
  return {
    mode: 'smtp',
    async send(_companyId, message) {
      const info = await transport.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: message.messageId,
        headers: message.headers,
      });
      return { providerMessageId: typeof info.response === 'string' ? providerIdOf(info.response) : null };
    },
    async close() {
      transport.close();
    },
  };
}

/**
 * The id the receiving server gave the message, read from its final reply (`250 2.0.0 Ok: queued as ABC123`,
 * `250 Ok <id>`, `250 … id=ABC`); null when the reply names none. Replies at this stage never quote the recipient.
 */
function providerIdOf(response: string): string | null {
  const match = /queued as ([\w.-]{1,200})|<([^<>\s]{1,200})>|\bid=([\w.-]{1,200})/i.exec(response);
  return match ? (match[1] ?? match[2] ?? match[3] ?? null) : null;
}

/** A failed send, by what to do about it: try again later, or give the address up. */
export interface FailureClass {
  permanent: boolean;
  /** `smtp_550`, `ECONNECTION`, …: never the server's text, which may quote the address. */
  errorClass: string;
}

/** 5xx replies are permanent refusals; 4xx replies and connection troubles are temporary. */
export function classifyFailure(error: unknown): FailureClass {
  const fields = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (typeof fields.responseCode === 'number') {
    return { permanent: fields.responseCode >= 500, errorClass: `smtp_${fields.responseCode}` };
  }
  const code =
    typeof fields.code === 'string' && /^[A-Z_]{2,30}$/.test(fields.code) ? fields.code : 'unknown';
  return { permanent: false, errorClass: code };
}
