import { rowTokens, type UnsubscribeTarget } from './unsubscribe-token.js';

/**
 * The tokens of the open pixel (`/o/{token}.gif`) and the click redirects (`/c/{token}`), made by the
 * unsubscribe tokens' code under keys of their own purpose (docs/sending.md, "Tracking"). A click token also
 * binds the exact target URL: the URL rides in the token under the tag, so a token whose URL was changed does
 * not verify and can never redirect anywhere else (no open redirect).
 */

/** What a valid click token names: the outbox row and where the link pointed. */
export interface ClickTarget extends UnsubscribeTarget {
  url: string;
}

/** Signs and reads the tracking tokens of one secret. */
export interface TrackingTokens {
  signOpen(target: UnsubscribeTarget): string;
  readOpen(token: string): UnsubscribeTarget | null;
  signClick(target: UnsubscribeTarget, url: string): string;
  /** The row and URL, or null for a forged or altered token, or one whose URL is not http(s). */
  readClick(token: string): ClickTarget | null;
}

/** The longest target URL a click token carries, in UTF-8 bytes (longer links are left as they are). */
export const MAX_TRACKED_URL_LENGTH = 2000;

/** True for the absolute http(s) URLs a click redirect may lead to. */
export function isTrackableUrl(url: string): boolean {
  if (Buffer.byteLength(url, 'utf8') > MAX_TRACKED_URL_LENGTH || !/^https?:\/\//i.test(url)) return false;
  return URL.canParse(url);
}

/** The tracking token codecs for an installation's secret. */
export function trackingTokens(secret: string): TrackingTokens {
  const open = rowTokens(secret, 'open');
  const click = rowTokens(secret, 'click');
  return {
    signOpen: (target) => open.sign(target),
    readOpen(token) {
      const read = open.read(token);
      return read && read.bound.length === 0 ? read.target : null;
    },
    signClick: (target, url) => click.sign(target, Buffer.from(url, 'utf8')),
    readClick(token) {
      const read = click.read(token);
      if (!read) return null;
      const url = read.bound.toString('utf8');
      return isTrackableUrl(url) ? { ...read.target, url } : null;
    },
  };
}
