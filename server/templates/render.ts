import { convert } from 'html-to-text';
import mjml2html, { type MjmlError } from 'mjml';
import { unknownMergeTags } from '../../src/schemas/email-templates.js';

/**
 * Rendering a template's MJML design to the email HTML (CSS inlined by mjml) and its plain-text part, with
 * nothing fetched from outside: no font CDN (`fonts: {}`), no `mj-include` read from the server's disk, no
 * `mj-font` stylesheet. Merge tags stay as `{{tag}}` for the sender, which fills them per recipient.
 */

/** The email HTML and text of a design. */
export interface RenderedTemplate {
  html: string;
  text: string;
}

/** Why a design cannot be saved, in words for the person who wrote it (`export_html` is the field). */
export class DesignProblem extends Error {
  override readonly name = 'DesignProblem';
}

/** Elements that would read the server's files or load a stylesheet from another host. */
const REFUSED_ELEMENTS = /<\s*(mj-include|mj-font)\b/i;

/** Where mjml's default social icons live (another host). */
const MJML_DEFAULT_ICONS = 'mailjet.com/images/theme/';

/** The first of mjml's errors as "Line n: message", without the server's paths. */
function describeMjmlError(error: MjmlError): string {
  return `Line ${error.line}: ${error.message}`;
}

/** mjml's rejection (a ValidationError carrying `errors`) turned into a DesignProblem; anything else rethrown. */
function asDesignProblem(error: unknown): never {
  const errors = (error as { errors?: MjmlError[] } | null)?.errors;
  if (Array.isArray(errors) && errors.length > 0) throw new DesignProblem(describeMjmlError(errors[0]!));
  if (error instanceof Error && /mjml|parse|tag/i.test(error.message))
    throw new DesignProblem(`The design is not valid MJML: ${error.message.split('\n')[0]}`);
  throw error;
}

/** Renders a design; throws DesignProblem for an unknown merge tag, a refused element or invalid MJML. */
export async function renderDesign(design: string): Promise<RenderedTemplate> {
  const unknown = unknownMergeTags(design);
  if (unknown.length > 0)
    throw new DesignProblem(
      `Unknown merge tag${unknown.length > 1 ? 's' : ''}: ${unknown.map((tag) => `{{${tag}}}`).join(', ')}`,
    );
  const refused = REFUSED_ELEMENTS.exec(design);
  if (refused)
    throw new DesignProblem(`<${refused[1]!.toLowerCase()}> is not allowed: it loads content from elsewhere`);
  if (!/<\s*mjml[\s>]/i.test(design) || !/<\s*mj-body[\s>]/i.test(design))
    throw new DesignProblem('The design must be MJML: an <mjml> element with an <mj-body>');
  const { html } = await mjml2html(design, {
    fonts: {},
    validationLevel: 'strict',
    ignoreIncludes: true,
    keepComments: false,
  }).catch(asDesignProblem);
  // mjml's social elements without a src point at icons on mailjet.com, which every reader would fetch.
  if (html.includes(MJML_DEFAULT_ICONS))
    throw new DesignProblem(
      'A social link needs its own icon (src): the default icons load from mailjet.com',
    );
  // wordwrap false: the default wrapping is slow on long texts (shared/LIBRARIES.md).
  const text = convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  });
  return { html, text };
}

/** Escapes a value for HTML text and attributes. */
function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The HTML with each merge tag replaced by its escaped value (tags without a value are left as they are). */
export function fillMergeTags(html: string, values: Readonly<Record<string, string>>): string {
  return html.replace(/\{\{\s*([^{}\s]*)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? escapeHtml(values[name]!) : whole,
  );
}
