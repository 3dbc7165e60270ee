/**
 * Merge tags (`{{first_name}}`, `{{ location_name }}`): a template is split once per run into literal text and
 * tag names, then filled per message. Values are HTML-escaped in the HTML part, so a subscriber named
 * `<script>` cannot change a message; an unknown tag becomes empty rather than reaching the reader raw.
 */

const TAG = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text made safe for HTML element content and attribute values (the installation's one escaper: merge values,
 * the sign-in and unsubscribe pages, the product's own mail). `null` and `undefined` become ''.
 */
export function escapeHtml(value: string | number | null | undefined): string {
  return String(value ?? '').replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** A template compiled once: fills its tags from `values`, escaping each value for HTML when asked. */
export type MergeTemplate = (values: Readonly<Record<string, string>>, html: boolean) => string;

/** Compiles a template with merge tags. */
export function compileMergeTemplate(template: string): MergeTemplate {
  const literals: string[] = [];
  const tags: string[] = [];
  let last = 0;
  for (const match of template.matchAll(TAG)) {
    literals.push(template.slice(last, match.index));
    tags.push(match[1]!.toLowerCase());
    last = match.index + match[0].length;
  }
  literals.push(template.slice(last));
  return (values, html) => {
    let out = literals[0]!;
    for (let i = 0; i < tags.length; i += 1) {
      const value = values[tags[i]!] ?? '';
      out += (html ? escapeHtml(value) : value) + literals[i + 1]!;
    }
    return out;
  };
}
