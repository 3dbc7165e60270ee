import { escapeHtml } from '../sending/merge-template.js';

/** What the verification email says, and where its link goes. */
export interface SenderVerificationEmail {
  subject: string;
  text: string;
  html: string;
  link: string;
}

/**
 * The email that proves a company reads a sender's mailbox: "Verify <address> for <brand>", with a link to the
 * app's /verify-sender page carrying the token. The address and brand are escaped in the HTML part.
 */
export function senderVerificationEmail(input: {
  address: string;
  brand: string;
  publicUrl: string;
  token: string;
  hours: number;
}): SenderVerificationEmail {
  const link = `${input.publicUrl}/verify-sender?token=${encodeURIComponent(input.token)}`;
  const subject = `Verify ${input.address} for ${input.brand}`;
  const text = [
    `Someone added ${input.address} as an address to send email from in ${input.brand}.`,
    '',
    'If that was you or your team, confirm it by opening this link:',
    link,
    '',
    `The link works once, for ${input.hours} hours. If you did not expect this email, you can ignore it.`,
  ].join('\n');
  const html = [
    `<p>Someone added <strong>${escapeHtml(input.address)}</strong> as an address to send email from in ${escapeHtml(input.brand)}.</p>`,
    `<p>If that was you or your team, confirm it: <a href="${escapeHtml(link)}">verify this address</a>.</p>`,
    `<p>The link works once, for ${input.hours} hours. If you did not expect this email, you can ignore it.</p>`,
  ].join('\n');
  return { subject, text, html, link };
}
