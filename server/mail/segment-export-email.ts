import { messagesFor } from '../../src/i18n/resources.js';
import { formatCount, languageOf } from '../../src/format/index.js';
import { fill } from '../auth/oidc/language.js';
import { escapeHtml } from '../sending/merge-template.js';

/** What the "your export is ready" email says, and where its link goes. */
export interface SegmentExportEmail {
  subject: string;
  text: string;
  html: string;
  link: string;
}

/**
 * The email that tells a user of the company their background export is ready, in their language
 * (`segmentExports.mail` of the locale files). It carries the segment's name, the row count and a link to the
 * app's /segments?exports=1, where a signed-in user downloads the file; never the guests' data.
 */
export function segmentExportEmail(input: {
  language: string;
  brand: string;
  publicUrl: string;
  segmentName: string;
  rows: number;
  expiresAt: Date;
}): SegmentExportEmail {
  const language = languageOf(input.language);
  const texts = messagesFor(language).segmentExports.mail;
  const link = `${input.publicUrl}/segments?exports=1`;
  const values = {
    segment: input.segmentName,
    rows: formatCount(input.rows, language),
    brand: input.brand,
    expires: input.expiresAt.toISOString().slice(0, 10),
  };
  const subject = fill(texts.subject, values);
  const lines = [fill(texts.ready, values), fill(texts.open, values), fill(texts.privacy, values)];
  const text = [lines[0], '', lines[1], link, '', lines[2]].join('\n');
  const html = [
    `<p>${escapeHtml(lines[0])}</p>`,
    `<p>${escapeHtml(lines[1])} <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    `<p>${escapeHtml(lines[2])}</p>`,
  ].join('\n');
  return { subject, text, html, link };
}
