import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import { fingerprint } from '../privacy.js';
import { captureMailer } from './capture-mailer.js';
import type { Mailer } from './mailer.js';
import { smtpMailer } from './smtp-mailer.js';

/** How the server sends mail: SMTP_URL, or nothing to keep mail in the database. */
export interface MailSettings {
  smtpUrl?: string | undefined;
}

/**
 * The installation's mailer: SMTP when SMTP_URL is set, otherwise capture in the database. Each message is
 * logged with the recipient's fingerprint only, never the address.
 */
export function createMailer(db: Database, settings: MailSettings, log?: FastifyBaseLogger): Mailer {
  const inner = settings.smtpUrl ? smtpMailer(settings.smtpUrl) : captureMailer(db);
  return {
    mode: inner.mode,
    async send(message) {
      const delivery = await inner.send(message);
      log?.info(
        {
          mail: {
            to: fingerprint(message.to.toLowerCase()),
            company_id: message.companyId,
            delivery: delivery.kind,
          },
        },
        delivery.kind === 'sent' ? 'mail sent' : 'mail captured (no SMTP_URL set)',
      );
      return delivery;
    },
    close: () => inner.close(),
  };
}
