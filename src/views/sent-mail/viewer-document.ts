/**
 * The document the "Sent mail" viewer puts in its sandboxed frame: the message's HTML as it went, with two
 * changes so that reading it in the app is not engagement: links open nowhere (`<base target="_blank">`, and the
 * sandbox allows no pop-ups) and the open pixel (`/o/{token}.gif`, the last image of a tracked message) is left
 * out. Everything else is shown as sent; the frame runs no script.
 */

const OPEN_PIXEL = /<img\b[^>]*\ssrc="[^"]*\/o\/[A-Za-z0-9_-]{43}\.gif"[^>]*>/g;

/** The viewer's `srcdoc` for a captured message's HTML. */
export function viewerDocument(html: string): string {
  const shown = html.replace(OPEN_PIXEL, '');
  const base = '<base target="_blank">';
  const head = /<head[^>]*>/i.exec(shown);
  if (head)
    return shown.slice(0, head.index + head[0].length) + base + shown.slice(head.index + head[0].length);
  return base + shown;
}
