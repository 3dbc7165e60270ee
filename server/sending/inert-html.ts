/**
 * Makes stored email HTML inert before a browser page shows it (the view-in-browser page, docs/sending.md "View
 * in browser"): drops `<script>` elements with their content, `<meta http-equiv>` (a refresh would lead the
 * reader away; others would set cookies or policies), `<base>` (it would repoint every relative link) and every
 * `on…` event-handler attribute. The page's policy (`sandbox` without scripts, `script-src 'none'`) already keeps
 * scripts from running; this is the second wall, and the only one against a refresh.
 *
 * A small scanner that reads tags and attributes the way the HTML tokenizer does (attribute values quoted or not,
 * `/` between attributes, upper case), so a handler cannot hide behind a quote the browser reads differently.
 * Text inside `<style>`, `<title>` and comments is scanned as if it were markup: that can only remove more.
 */

/** Whitespace as the HTML tokenizer knows it. */
const SPACE = /[\t\n\f\r ]/;

/** One attribute as written, and its name in lower case. */
interface RawAttribute {
  name: string;
  text: string;
}

/** A start or end tag read at `<`: its name, attributes, and where it ends (past `>`), or null at the end of input. */
interface RawTag {
  end: number;
  closing: boolean;
  name: string;
  attributes: RawAttribute[];
  selfClosing: boolean;
}

/** Reads the tag that starts at `at` (a `<` followed by a letter, or `</` and a letter). */
function readTag(html: string, at: number): RawTag | null {
  let i = at + 1;
  const closing = html[i] === '/';
  if (closing) i += 1;
  const nameStart = i;
  while (i < html.length && !SPACE.test(html[i]!) && html[i] !== '/' && html[i] !== '>') i += 1;
  const name = html.slice(nameStart, i).toLowerCase();
  const attributes: RawAttribute[] = [];
  let selfClosing = false;
  for (;;) {
    while (i < html.length && (SPACE.test(html[i]!) || html[i] === '/')) {
      selfClosing = html[i] === '/';
      i += 1;
    }
    if (i >= html.length) return null;
    if (html[i] === '>') return { end: i + 1, closing, name, attributes, selfClosing };
    selfClosing = false;
    const start = i;
    // The first character of a name may be `=`; after that `=` ends it.
    i += 1;
    while (i < html.length && !SPACE.test(html[i]!) && !'/>='.includes(html[i]!)) i += 1;
    const attributeName = html.slice(start, i).toLowerCase();
    let j = i;
    while (j < html.length && SPACE.test(html[j]!)) j += 1;
    if (html[j] === '=') {
      j += 1;
      while (j < html.length && SPACE.test(html[j]!)) j += 1;
      const quote = html[j];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, j + 1);
        if (close < 0) return null;
        j = close + 1;
      } else {
        while (j < html.length && !SPACE.test(html[j]!) && html[j] !== '>') j += 1;
      }
      i = j;
    }
    attributes.push({ name: attributeName, text: html.slice(start, i) });
  }
}

/** Where a `<script>`'s content ends: past its `</script>` end tag, or the end of input. */
function afterScript(html: string, from: number): number {
  const pattern = /<\/script[\t\n\f\r />]/gi;
  pattern.lastIndex = from;
  const found = pattern.exec(html);
  if (!found) return html.length;
  const tag = readTag(html, found.index);
  return tag ? tag.end : html.length;
}

/** The HTML without scripts, `<meta http-equiv>`, `<base>` and event handlers; everything else as written. */
export function inertHtml(html: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const lt = html.indexOf('<', at);
    if (lt < 0) return out + html.slice(at);
    out += html.slice(at, lt);
    const next = html[lt + 1] === '/' ? html[lt + 2] : html[lt + 1];
    if (next === undefined || !/[A-Za-z]/.test(next)) {
      out += '<';
      at = lt + 1;
      continue;
    }
    const tag = readTag(html, lt);
    // A tag cut off by the end of input is dropped by browsers too.
    if (!tag) return out;
    at = tag.end;
    if (tag.name === 'script') {
      if (!tag.closing) at = afterScript(html, tag.end);
      continue;
    }
    if (tag.name === 'base') continue;
    if (tag.name === 'meta' && tag.attributes.some((attribute) => attribute.name === 'http-equiv')) continue;
    if (tag.closing) {
      out += html.slice(lt, tag.end);
      continue;
    }
    const kept = tag.attributes.filter((attribute) => !attribute.name.startsWith('on'));
    const attributes = kept.map((attribute) => ` ${attribute.text}`).join('');
    out += `<${html.slice(lt + 1, lt + 1 + tag.name.length)}${attributes}${tag.selfClosing ? ' /' : ''}>`;
  }
}
