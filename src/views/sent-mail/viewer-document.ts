/**
 * The HTML the "Sent mail" viewer draws in its email frame: the message as it went, without the open pixel
 * (`/o/{token}.gif`, the last image of a tracked message), so that reading it in the app is not engagement. Its
 * links cannot be followed: the frame is inert (no pointer, no focus) and runs no script.
 */

const OPEN_PIXEL = /<img\b[^>]*\ssrc="[^"]*\/o\/[A-Za-z0-9_-]{43}\.gif"[^>]*>/g;

/** A captured message's HTML as the viewer shows it. */
export function viewerDocument(html: string): string {
  return html.replace(OPEN_PIXEL, '');
}
