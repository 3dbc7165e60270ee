import type { Database } from '../db/database.js';
import { insertCapturedEmail } from '../repositories/captured-emails.repository.js';
import type { Mailer } from './mailer.js';

/** A mailer for an installation with no SMTP server: each message is kept for its company to read in the app. */
export function captureMailer(db: Database): Mailer {
  return {
    mode: 'capture',
    async send(message) {
      const email = await db.tenant(message.companyId, (sql) =>
        insertCapturedEmail(sql, message.companyId, {
          ...message,
          // What the SMTP mailer would write; the viewer shows them.
          headers: {
            From: message.from,
            To: message.to,
            Subject: message.subject,
            Date: new Date().toUTCString(),
          },
        }),
      );
      return { kind: 'captured', email };
    },
    async close() {},
  };
}
