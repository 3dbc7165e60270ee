import type { Language } from '../../src/schemas/constants.js';
import { GALLERY_KEYS, type GalleryKey, type GalleryTemplate } from '../../src/schemas/email-templates.js';
import { messagesFor } from '../../src/i18n/resources.js';
import { PLACEHOLDER_PATH } from './placeholder-images.js';

/**
 * The starter gallery (docs/templates.md): six restaurant templates as MJML, written in the caller's language
 * (`emailTemplateStarters` in the locale files). Each has a header with a "view in browser" link, an image
 * placeholder served from the installation, a heading, text and a button, a divider, a two-column "visit us"
 * section, social links and a footer with `{{company_address}}` and `{{unsubscribe_url}}`.
 */

/** Each starter's accent colour (button and heading), so the six are told apart in the gallery. */
const ACCENTS: Record<GalleryKey, string> = {
  welcome: '#2f6f5e',
  win_back: '#8a4b2d',
  birthday: '#b03a5b',
  new_menu: '#4d6b2f',
  event: '#3d3f8f',
  newsletter: '#1f5a82',
};

/** Escapes a text for MJML (XML) content; merge tags pass through unchanged. */
function xml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** One starter's MJML. */
function starterMjml(key: GalleryKey, language: Language, installationUrl: string): string {
  const all = messagesFor(language).emailTemplateStarters;
  const texts = all[key];
  const common = all.common;
  const accent = ACCENTS[key];
  const image = (name: string) => `${installationUrl}${PLACEHOLDER_PATH}${name}`;
  const font = 'Helvetica, Arial, sans-serif';
  return `<mjml lang="${language}">
  <mj-head>
    <mj-title>${xml(texts.name)}</mj-title>
    <mj-attributes>
      <mj-all font-family="${font}" />
      <mj-text font-size="16px" line-height="1.5" color="#2b2b2b" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f4f1ec" width="600px">
    <mj-section padding="12px 0">
      <mj-column>
        <mj-text align="center" font-size="12px" color="#6b6b6b"><a href="{{view_in_browser_url}}" style="color:#6b6b6b">${xml(common.view_in_browser)}</a></mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="0">
      <mj-column>
        <mj-image src="${image('hero.png')}" alt="" width="600px" padding="0" />
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="24px 24px 8px">
      <mj-column>
        <mj-text font-size="26px" font-weight="bold" color="${accent}">${xml(texts.heading)}</mj-text>
        <mj-text>${xml(texts.body)}</mj-text>
        <mj-button href="#" background-color="${accent}" color="#ffffff" font-size="16px" border-radius="4px">${xml(texts.button)}</mj-button>
        <mj-divider border-color="#e3ddd3" border-width="1px" padding-top="24px" />
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="0 24px 24px">
      <mj-column width="50%">
        <mj-image src="${image('dish.png')}" alt="" width="260px" />
      </mj-column>
      <mj-column width="50%" vertical-align="middle">
        <mj-text font-size="20px" font-weight="bold">${xml(common.visit_title)}</mj-text>
        <mj-text>${xml(common.visit_body)}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section padding="16px 24px">
      <mj-column>
        <mj-text align="center" font-size="14px">${xml(common.follow_us)} <a href="#" style="color:${accent}">Instagram</a> · <a href="#" style="color:${accent}">Facebook</a></mj-text>
        <mj-text align="center" font-size="12px" color="#6b6b6b">${xml(common.reason)}<br />{{company_name}} · {{company_address}}<br /><a href="{{unsubscribe_url}}" style="color:#6b6b6b">${xml(common.unsubscribe)}</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`;
}

/** The six starters in `language`, their images at `installationUrl` (the installation's public address). */
export function galleryTemplates(language: Language, installationUrl: string): GalleryTemplate[] {
  const texts = messagesFor(language).emailTemplateStarters;
  return GALLERY_KEYS.map((key) => ({
    key,
    name: texts[key].name,
    description: texts[key].description,
    export_html: starterMjml(key, language, installationUrl),
  }));
}
