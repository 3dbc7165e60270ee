import { messagesFor } from '../../src/i18n/resources.js';
import type { Language } from '../../src/schemas/constants.js';
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

/** Where a message's unsubscribe and view-in-browser links point. */
export interface UnsubscribeLinks {
  /** `https://…/u/{token}`: the page (GET) and the one-click POST. */
  url: string;
  /** `mailto:…`, the second List-Unsubscribe entry. */
  mailto: string;
  /** `https://…/v/{token}`: the message as this recipient got it, in a browser (`{{view_in_browser_url}}`). */
  viewUrl: string;
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

/** What a run's messages are made of: its frozen content (a test send's is never stored). */
export type RunContent = Pick<
  MailRunRow,
  'from_address' | 'subject' | 'html_template' | 'text_template' | 'postal_address' | 'language' | 'tracking'
>;

/** The sending company as its messages name it; `time_zone` dates `{{current_year}}`. */
export interface SendingCompany {
  name: string;
  time_zone: string;
}

/** One recipient of a run: the address, the merge values frozen for them, and the message's identity. */
export interface MessageRecipient {
  email: string;
  merge: Readonly<Record<string, string>>;
  /** The stable `<…@host>` Message-ID. */
  messageId: string;
  /** The run and outbox row, kept with captured mail; null for a test send. */
  runId: number | null;
  outboxId: number | null;
}

/** A run compiled once for the messages of one worker. */
export interface CompiledRun {
  /** The message for `recipient`; `at` (now by default) dates `{{current_year}}`. */
  render(recipient: MessageRecipient, links: UnsubscribeLinks, at?: Date): RenderedMessage;
}

/** The year at `at` in `timeZone` (an unknown zone falls back to UTC rather than failing a send). */
function yearIn(timeZone: string): (at: Date) => string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' });
  } catch {
    format = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric' });
  }
  return (at) => format.format(at);
}

/** The run's footer in its language: why the reader gets the mail, the postal address, the unsubscribe link. */
function footerTexts(run: RunContent, companyName: string) {
  const texts = messagesFor(run.language as Language).mailCompliance;
  return {
    reason: texts.footerReason.replace('{{company}}', companyName),
    unsubscribe: texts.unsubscribe,
  };
}

/** A design's own footer: it shows the unsubscribe link and the postal address itself (the starter templates do). */
const UNSUBSCRIBE_TAG = /\{\{\s*unsubscribe_url\s*\}\}/;
const ADDRESS_TAG = /\{\{\s*company_address\s*\}\}/;

/**
 * The parts of an HTML design no reader sees: comments (one left open runs to the end, as in browsers), and the
 * `<head>`, `<title>`, `<style>` and `<script>` elements with their content.
 */
const UNSEEN_HTML = [
  /<!--[\s\S]*?(?:-->|$)/g,
  /<head\b[\s\S]*?(?:<\/head\s*>|$)/gi,
  /<(title|style|script)\b[\s\S]*?(?:<\/\1\s*>|$)/gi,
];

/**
 * Whether a template already carries what the compliance footer would add, so adding it would say it twice. In
 * HTML, only where a reader sees it: a tag in a comment or in the head shows nothing, and the footer is added.
 */
export function hasOwnFooter(template: string, kind: 'html' | 'text'): boolean {
  const seen =
    kind === 'html' ? UNSEEN_HTML.reduce((rest, unseen) => rest.replace(unseen, ' '), template) : template;
  return UNSUBSCRIBE_TAG.test(seen) && ADDRESS_TAG.test(seen);
}

/** Puts the footer before `</body>` when the HTML has one, at the end otherwise. */
function withFooter(html: string, footer: string): string {
  const end = html.toLowerCase().lastIndexOf('</body>');
  return end < 0 ? `${html}\n${footer}` : `${html.slice(0, end)}${footer}\n${html.slice(end)}`;
}

/**
 * Compiles a run's templates once; each message then fills its merge values (escaped in HTML) and the
 * company's (`company_name`, `company_address`, `current_year`, `unsubscribe_url`, `view_in_browser_url`),
 * appends the compliance footer with the postal address and the unsubscribe link (unless the design shows both
 * itself: hasOwnFooter), and carries `List-Unsubscribe` (URL and mailto) and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
 */
export function compileRun(run: RunContent, company: SendingCompany): CompiledRun {
  const companyName = company.name;
  const currentYear = yearIn(company.time_zone);
  const subject: MergeTemplate = compileMergeTemplate(run.subject);
  // A tracked run's links become merge tags filled per message with their signed redirect.
  const links = run.tracking ? trackedLinks(run.html_template) : { html: run.html_template, targets: [] };
  const html = compileMergeTemplate(links.html);
  const targets = links.targets.map((target) => ({ tag: target.tag, url: compileMergeTemplate(target.url) }));
  const text = compileMergeTemplate(run.text_template);
  const footer = footerTexts(run, companyName);
  const address = run.postal_address;
  // A design with its own unsubscribe link and address gets no second footer (each part judged on its own).
  const htmlHasFooter = hasOwnFooter(run.html_template, 'html');
  const textHasFooter = hasOwnFooter(run.text_template, 'text');
  return {
    render(recipient, links, at = new Date()) {
      const values: Record<string, string> = {
        ...recipient.merge,
        company_name: companyName,
        company_address: address,
        current_year: currentYear(at),
        unsubscribe_url: links.url,
        view_in_browser_url: links.viewUrl,
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
      const htmlFooter = htmlHasFooter
        ? ''
        : `<div style="margin-top:24px;font-size:12px;line-height:1.5;color:#666666;text-align:center">` +
          `${escapeHtml(footer.reason)}<br>${escapeHtml(address).replace(/\n/g, '<br>')}<br>` +
          `<a href="${escapeHtml(links.url)}" style="color:#666666">${escapeHtml(footer.unsubscribe)}</a></div>`;
      const textFooter = textHasFooter
        ? ''
        : `\n\n--\n${footer.reason}\n${address}\n${footer.unsubscribe}: ${links.url}\n`;
      return {
        from: run.from_address,
        to: recipient.email,
        subject: subject(values, false),
        html: withFooter(html(values, true), htmlFooter + pixel),
        text: text(values, false) + textFooter,
        messageId: recipient.messageId,
        runId: recipient.runId,
        outboxId: recipient.outboxId,
        headers: {
          'List-Unsubscribe': { prepared: true, value: `<${links.url}>, <${links.mailto}>` },
          'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
        },
      };
    },
  };
}
