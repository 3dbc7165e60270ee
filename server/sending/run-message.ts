import { messagesFor } from '../../src/i18n/resources.js';
import type { Language } from '../../src/schemas/constants.js';
import type { ClaimedMessage } from '../repositories/mail-outbox.repository.js';
import type { MailRunRow } from '../repositories/mail-runs.repository.js';
import { compileMergeTemplate, escapeHtml, type MergeTemplate } from './merge-template.js';

/** A message ready for nodemailer: content filled, footer added, compliance headers prepared. */
export interface RenderedMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  /** Prepared (not folded) so a DKIM signature over them survives (nodemailer#1654). */
  headers: Record<string, { prepared: true; value: string }>;
}

/** Where a message's unsubscribe links point. */
export interface UnsubscribeLinks {
  /** `https://…/u/{token}`: the page (GET) and the one-click POST. */
  url: string;
  /** `mailto:…`, the second List-Unsubscribe entry. */
  mailto: string;
}

/** A run compiled once for the messages of one worker. */
export interface CompiledRun {
  render(message: ClaimedMessage, links: UnsubscribeLinks): RenderedMessage;
}

/** The run's footer in its language: why the reader gets the mail, the postal address, the unsubscribe link. */
function footerTexts(run: MailRunRow, companyName: string) {
  const texts = messagesFor(run.language as Language).mailCompliance;
  return {
    reason: texts.footerReason.replace('{{company}}', companyName),
    unsubscribe: texts.unsubscribe,
  };
}

/** Puts the footer before `</body>` when the HTML has one, at the end otherwise. */
function withFooter(html: string, footer: string): string {
  const end = html.toLowerCase().lastIndexOf('</body>');
  return end < 0 ? `${html}\n${footer}` : `${html.slice(0, end)}${footer}\n${html.slice(end)}`;
}

/**
 * Compiles a run's templates once; each message then fills its merge values (escaped in HTML), appends the
 * footer with the company's postal address and the unsubscribe link, and carries `List-Unsubscribe` (URL and
 * mailto) and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
 */
export function compileRun(run: MailRunRow, companyName: string): CompiledRun {
  const subject: MergeTemplate = compileMergeTemplate(run.subject);
  const html = compileMergeTemplate(run.html_template);
  const text = compileMergeTemplate(run.text_template);
  const footer = footerTexts(run, companyName);
  const address = run.postal_address;
  return {
    render(message, links) {
      const values = {
        ...message.merge,
        company_name: companyName,
        postal_address: address,
        unsubscribe_url: links.url,
      };
      const htmlFooter =
        `<div style="margin-top:24px;font-size:12px;line-height:1.5;color:#666666;text-align:center">` +
        `${escapeHtml(footer.reason)}<br>${escapeHtml(address).replace(/\n/g, '<br>')}<br>` +
        `<a href="${escapeHtml(links.url)}" style="color:#666666">${escapeHtml(footer.unsubscribe)}</a></div>`;
      const textFooter = `\n\n--\n${footer.reason}\n${address}\n${footer.unsubscribe}: ${links.url}\n`;
      return {
        from: run.from_address,
        to: message.email,
        subject: subject(values, false),
        html: withFooter(html(values, true), htmlFooter),
        text: text(values, false) + textFooter,
        messageId: message.message_id,
        headers: {
          'List-Unsubscribe': { prepared: true, value: `<${links.url}>, <${links.mailto}>` },
          'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
        },
      };
    },
  };
}
