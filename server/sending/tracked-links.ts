import { isTrackableUrl } from './tracking-token.js';

/**
 * Finds the links of a run's HTML template that click tracking rewrites (docs/sending.md, "Tracking"): each
 * `<a href>` whose value is a literal http(s) URL. The unsubscribe and view-in-browser links (their merge tags),
 * `mailto:`, `tel:` and anchors stay as written. Each rewritten href becomes a merge tag (`{{__click_N}}`) that
 * the renderer fills per message with the signed redirect; the original URL (merge tags allowed) is kept.
 */

/** The template with tracked hrefs replaced by tags, and each tag's original URL template. */
export interface TrackedTemplate {
  html: string;
  targets: { tag: string; url: string }[];
}

const ANCHOR_HREF = /(<a\b[^>]*?\shref\s*=\s*)(["'])([^"']*)\2/gi;
const UNTRACKED_TAGS = /\{\{\s*(unsubscribe_url|view_in_browser_url)\s*\}\}/i;

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
};

/** An attribute value as the URL it stands for (the few entities an editor writes in hrefs). */
function attributeText(value: string): string {
  return value.replace(/&(amp|quot|#39|lt|gt);/g, (entity) => ENTITIES[entity]!);
}

/** Rewrites the trackable links of an HTML template into per-message tags. */
export function trackedLinks(template: string): TrackedTemplate {
  const targets: TrackedTemplate['targets'] = [];
  const html = template.replace(ANCHOR_HREF, (whole, start: string, quote: string, value: string) => {
    const url = attributeText(value.trim());
    // A merge tag may stand in the URL's query, never in place of its scheme and host.
    const probe = url.replace(/\{\{[^}]*\}\}/g, 'x');
    if (UNTRACKED_TAGS.test(url) || !isTrackableUrl(probe)) return whole;
    const tag = `__click_${targets.length}`;
    targets.push({ tag, url });
    return `${start}${quote}{{${tag}}}${quote}`;
  });
  return { html, targets };
}
