import { createTransport } from 'nodemailer';
import { deliveryErrorOf } from './mail-delivery-error.js';
import type { Mailer } from './mailer.js';

/**
 * A mailer that hands each message to the SMTP server at `smtpUrl` (smtp:// or smtps://, with credentials). A
 * refusal throws MailDeliveryError, which carries no address.
 */
export function smtpMailer(smtpUrl: string): Mailer {
  const transport = createTransport(smtpUrl);
  return {
    mode: 'smtp',
    async send(message) {
      try {
        const info = await transport.sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
        });
        return { kind: 'sent', messageId: info.messageId };
      } catch (error) {
        throw deliveryErrorOf(error);
      }
    },
    async close() {
      transport.close();
    },
  };
}
