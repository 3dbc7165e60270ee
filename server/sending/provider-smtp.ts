import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';

/**
 * A company's own email provider as SMTP settings (docs/sending.md, "A company's own provider"). Each relay
 * takes the provider's API key (or SMTP password) as the password; the user and host come from the provider
 * and its saved settings:
 * - `sendgrid`: smtp.sendgrid.net:587, user `apikey`;
 * - `mailgun`: smtp.mailgun.org:587 (smtp.eu.mailgun.org with `region: "eu"`), user `smtp_login` (the domain's
 *   SMTP login, e.g. postmaster@mg.example.com);
 * - `ses`: email-smtp.{`region`}.amazonaws.com:587, user `smtp_username` (the SES SMTP credentials' user);
 * - `postmark`: smtp.postmarkapp.com:587, the server token as both user and password;
 * - `smtp`: any server, `host`, `port`, optional `user` and `secure` (implicit TLS).
 */

/** A saved provider as the transport reads it (clear key). */
export interface ProviderCredentials {
  provider: string;
  api_key: string;
  settings: Record<string, unknown>;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The SMTP options of a provider; null when the entry is not one the transport knows or lacks a setting. */
export function providerSmtpOptions(entry: ProviderCredentials): SMTPPool.Options | null {
  const pass = entry.api_key.trim();
  const settings = entry.settings;
  const relay = (host: string, user: string): SMTPPool.Options | null =>
    host && user ? { host, port: 587, auth: { user, pass } } : null;
  switch (entry.provider) {
    case 'sendgrid':
      return relay('smtp.sendgrid.net', 'apikey');
    case 'mailgun':
      return relay(
        text(settings.region) === 'eu' ? 'smtp.eu.mailgun.org' : 'smtp.mailgun.org',
        text(settings.smtp_login),
      );
    case 'ses': {
      const region = text(settings.region);
      return /^[a-z]{2}(-[a-z]+)+-\d$/.test(region)
        ? relay(`email-smtp.${region}.amazonaws.com`, text(settings.smtp_username))
        : null;
    }
    case 'postmark':
      return relay('smtp.postmarkapp.com', pass);
    case 'smtp': {
      const host = text(settings.host);
      const port = Number(settings.port);
      if (!host || !Number.isInteger(port) || port < 1 || port > 65_535) return null;
      const user = text(settings.user);
      return { host, port, secure: settings.secure === true, ...(user ? { auth: { user, pass } } : {}) };
    }
    default:
      return null;
  }
}
