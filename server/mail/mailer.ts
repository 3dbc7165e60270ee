import type { CapturedEmailRow } from '../repositories/captured-emails.repository.js';
import type { MailMessage } from './message.js';

/** What became of a message: handed to the SMTP server, or kept in the database because none is set. */
export type MailDelivery =
  { kind: 'sent'; messageId: string } | { kind: 'captured'; email: CapturedEmailRow };

/** Sends the product's email. The one way out for every message (verification now, campaigns later). */
export interface Mailer {
  /** How this mailer delivers: through SMTP, or into the database. */
  readonly mode: 'smtp' | 'capture';
  send(message: MailMessage): Promise<MailDelivery>;
  /** Closes SMTP connections; nothing to do when capturing. */
  close(): Promise<void>;
}
