import { createTransport } from 'nodemailer';
import type { Database } from '../db/database.js';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import { insertCapturedEmail } from '../repositories/captured-emails.repository.js';
import { findSendingProvider } from '../repositories/email-providers.repository.js';
import { providerSmtpOptions } from './provider-smtp.js';
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
  /** The installation's way out (a company with its own provider sends through that instead). */
  readonly mode: 'smtp' | 'capture';
  /** Hands one message over; resolves with the provider's id or rejects with the SMTP failure. */
  send(companyId: number, message: RenderedMessage): Promise<{ providerMessageId: string | null }>;
  close(): Promise<void>;
}

/** What the run transport is built from. */
export interface RunTransportSettings {
  smtpUrl?: string | undefined;
  /** Connections kept open to the SMTP server (and to each company's provider). */
  maxConnections?: number;
  dkim?: DkimSettings | undefined;
  /** How long a company's provider look-up is trusted before it is read again (5 s). */
  providerCheckMs?: number;
}

/** One pooled SMTP transport: sends a message, closes its connections. */
interface Pool {
  send(message: RenderedMessage): Promise<{ providerMessageId: string | null }>;
  close(): void;
}

function smtpPool(options: SMTPPool.Options | string, settings: RunTransportSettings, dkim: boolean): Pool {
  const base = typeof options === 'string' ? { url: options } : options;
  const transport = createTransport({
    ...base,
    pool: true,
    maxConnections: settings.maxConnections ?? 5,
    maxMessages: Infinity,
    ...(dkim && settings.dkim ? { dkim: { ...settings.dkim, headerFieldNames: DKIM_SIGNED_HEADERS } } : {}),
  } as SMTPPool.Options);
  return {
    async send(message) {
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
    close: () => transport.close(),
  };
}

/** The headers a captured message shows, as the SMTP transport would write them (folding aside). */
export function capturedHeaders(message: RenderedMessage, date: Date): Record<string, string> {
  return {
    From: message.from,
    To: message.to,
    Subject: message.subject,
    Date: date.toUTCString(),
    'Message-ID': message.messageId,
    ...Object.fromEntries(Object.entries(message.headers).map(([name, header]) => [name, header.value])),
  };
}

/** A company's provider pool as last read: which saved entry it was built from. */
interface CompanyPool {
  /** The entry's id and save time, or '' for none (the installation's way out). */
  version: string;
  pool: Pool | null;
}

/**
 * The run transport: a company with a usable provider of its own (docs/sending.md) sends through a pool to that
 * provider, rebuilt (the old one closed) when its saved settings change; every other company through the pool
 * over SMTP_URL (DKIM-signed when configured) or, without SMTP_URL, into `captured_emails` with its headers.
 */
export function runTransport(db: Database, settings: RunTransportSettings): RunTransport {
  const installation = settings.smtpUrl ? smtpPool(settings.smtpUrl, settings, true) : null;
  const checkMs = settings.providerCheckMs ?? 5000;
  // Decided synchronously, so the messages of one batch share one look-up and never build two pools.
  const companies = new Map<number, { readAt: number; pool: Promise<CompanyPool> }>();

  async function readPool(companyId: number, previous: CompanyPool | null): Promise<CompanyPool> {
    const entry = await db.tenant(companyId, (sql) => findSendingProvider(sql, companyId));
    const options = entry ? providerSmtpOptions(entry) : null;
    const version = entry && options ? `${entry.id}:${entry.updated_at.toISOString()}` : '';
    if (previous && previous.version === version) return previous;
    previous?.pool?.close();
    return { version, pool: options ? smtpPool(options, settings, false) : null };
  }

  function poolOf(companyId: number): Promise<Pool | null> {
    const known = companies.get(companyId);
    if (known && Date.now() - known.readAt < checkMs) return known.pool.then((read) => read.pool);
    const previous = known ? known.pool.catch(() => null) : Promise.resolve(null);
    const pool = previous.then((last) => readPool(companyId, last));
    companies.set(companyId, { readAt: Date.now(), pool });
    pool.catch(() => {
      if (companies.get(companyId)?.pool === pool) companies.delete(companyId);
    });
    return pool.then((read) => read.pool);
  }

  return {
    mode: installation ? 'smtp' : 'capture',
    async send(companyId, message) {
      const pool = (await poolOf(companyId)) ?? installation;
      if (pool) return pool.send(message);
      await db.tenant(companyId, (sql) =>
        insertCapturedEmail(sql, companyId, {
          ...message,
          headers: capturedHeaders(message, new Date()),
        }),
      );
      return { providerMessageId: null };
    },
    async close() {
      installation?.close();
      const pools = await Promise.allSettled([...companies.values()].map((known) => known.pool));
      companies.clear();
      for (const known of pools) if (known.status === 'fulfilled') known.value.pool?.close();
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
