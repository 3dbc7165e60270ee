import { messagesFor } from '../../src/i18n/resources.js';
import type { Language } from '../../src/schemas/constants.js';
import type { ClaimedMessage } from '../repositories/mail-outbox.repository.js';
import type { MailRunRow } from '../repositories/mail-runs.repository.js';
import { compileMergeTemplate, escapeHtml, type MergeTemplate } from './merge-template.js';
import { trackedLinks } from './tracked-links.js';

/** A message ready for nodemailer: content filled, footer added, compliance headers prepared. */
export interface RenderedMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  /** The run and outbox row the message was rendered for (kept with captured mail); null for a test send. */
  runId: number | null;
  outboxId: number | null;
  /** Prepared (not folded) so a DKIM signature over them survives (nodemailer#1654). */
  headers: Record<string, { prepared: true; value: string }>;
}

/** Where a message's unsubscribe links point. */
export interface UnsubscribeLinks {
  /** `https://…/u/{token}`: the page (GET) and the one-click POST. */
  url: string;
  /** `mailto:…`, the second List-Unsubscribe entry. */
  mailto: string;
  /** The open pixel's URL and each link's click redirect; used only when the run is tracked. */
  tracking?: TrackingLinks | undefined;
}

/** Where a tracked message's pixel and redirects point. */
export interface TrackingLinks {
  /** Made only for a tracked run (signing costs a little on every message). */
  pixelUrl(): string;
  /** The signed redirect to `url` for this message. */
  clickUrl(url: string): string;
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
  // A tracked run's links become merge tags filled per message with their signed redirect.
  const links = run.tracking ? trackedLinks(run.html_template) : { html: run.html_template, targets: [] };
  const html = compileMergeTemplate(links.html);
  const targets = links.targets.map((target) => ({ tag: target.tag, url: compileMergeTemplate(target.url) }));
  const text = compileMergeTemplate(run.text_template);
  const footer = footerTexts(run, companyName);
  const address = run.postal_address;
  return {
    render(message, links) {
      const values: Record<string, string> = {
        ...message.merge,
        company_name: companyName,
        postal_address: address,
        unsubscribe_url: links.url,
      };
      const tracking = run.tracking ? links.tracking : undefined;
      for (const target of targets) {
        const url = target.url(values, false);
        values[target.tag] = tracking ? tracking.clickUrl(url) : url;
      }
      // The pixel goes last, after the footer, so it is fetched only when the whole message is shown.
      const pixel = tracking
        ? `<img src="${escapeHtml(tracking.pixelUrl())}" width="1" height="1" alt="" ` +
          `style="display:block;width:1px;height:1px;border:0;margin:0;padding:0">`
        : '';
      const htmlFooter =
        `<div style="margin-top:24px;font-size:12px;line-height:1.5;color:#666666;text-align:center">` +
        `${escapeHtml(footer.reason)}<br>${escapeHtml(address).replace(/\n/g, '<br>')}<br>` +
        `<a href="${escapeHtml(links.url)}" style="color:#666666">${escapeHtml(footer.unsubscribe)}</a></div>`;
      const textFooter = `\n\n--\n${footer.reason}\n${address}\n${footer.unsubscribe}: ${links.url}\n`;
      return {
        from: run.from_address,
        to: message.email,
        subject: subject(values, false),
        html: withFooter(html(values, true), htmlFooter + pixel),
        text: text(values, false) + textFooter,
        messageId: message.message_id,
        runId: message.run_id,
        outboxId: message.id,
        headers: {
          'List-Unsubscribe': { prepared: true, value: `<${links.url}>, <${links.mailto}>` },
          'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
        },
      };
    },
  };
}
