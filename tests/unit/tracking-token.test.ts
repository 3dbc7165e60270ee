import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../server/logging.js';
import { looksAutomated } from '../../server/sending/machine-open.js';
import { trackedLinks } from '../../server/sending/tracked-links.js';
import { isTrackableUrl, trackingTokens } from '../../server/sending/tracking-token.js';
import { unsubscribeTokens } from '../../server/sending/unsubscribe-token.js';

/**
 * The open and click tokens (server/sending/tracking-token.ts): they round-trip, reveal nothing, cannot be
 * forged or moved to another purpose, and a click token's URL cannot be changed (no open redirect). Also the
 * link rewriting of tracked templates and the machine-open rules.
 */

const SECRET = 'a'.repeat(96);
const tokens = trackingTokens(SECRET);
const row = { companyId: 7, outboxId: 123_456 };

/** Flips one bit of a base64url token's decoded bytes at `index`. */
function flip(token: string, index: number): string {
  const bytes = Buffer.from(token, 'base64url');
  bytes[index] = bytes[index]! ^ 1;
  return bytes.toString('base64url');
}

describe('tracking tokens', () => {
  it('round-trip the row, and the click token the exact URL', () => {
    const open = tokens.signOpen(row);
    expect(open).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.readOpen(open)).toEqual(row);
    const url = 'https://harbor.example/menu?item=7&utm_source=mail#top';
    const click = tokens.signClick(row, url);
    expect(tokens.readClick(click)).toEqual({ ...row, url });
  });

  it('reveal nothing: neither id appears in the token, and the same ids under another secret differ', () => {
    const open = tokens.signOpen(row);
    const bytes = Buffer.from(open, 'base64url');
    const plain = Buffer.alloc(16);
    plain.writeBigUInt64BE(7n, 0);
    plain.writeBigUInt64BE(123_456n, 8);
    expect(bytes.includes(plain.subarray(8))).toBe(false);
    expect(bytes.includes(plain.subarray(0, 8))).toBe(false);
    expect(trackingTokens('b'.repeat(96)).signOpen(row)).not.toBe(open);
    // Neighbouring rows share no prefix: the block is a permutation of the whole 16 bytes.
    expect(tokens.signOpen({ ...row, outboxId: 123_457 }).slice(0, 10)).not.toBe(open.slice(0, 10));
  });

  it('refuse forgeries: another secret, a flipped bit, a truncated token, random text', () => {
    const open = tokens.signOpen(row);
    expect(trackingTokens('b'.repeat(96)).readOpen(open)).toBeNull();
    for (const index of [0, 15, 16, 31]) expect(tokens.readOpen(flip(open, index))).toBeNull();
    expect(tokens.readOpen(open.slice(0, 42))).toBeNull();
    expect(tokens.readOpen('A'.repeat(43))).toBeNull();
    expect(tokens.readOpen(`${open}.gif`)).toBeNull();
  });

  it('keep purposes apart: an open token is no click or unsubscribe token, and the reverse', () => {
    const open = tokens.signOpen(row);
    const unsubscribe = unsubscribeTokens(SECRET).sign(row);
    expect(tokens.readClick(open)).toBeNull();
    expect(unsubscribeTokens(SECRET).read(open)).toBeNull();
    expect(tokens.readOpen(unsubscribe)).toBeNull();
    expect(tokens.readClick(unsubscribe)).toBeNull();
  });

  it('bind the URL: any change to it, or a URL grafted onto another token, does not verify', () => {
    const url = 'https://harbor.example/menu';
    const click = tokens.signClick(row, url);
    const bytes = Buffer.from(click, 'base64url');
    const evil = Buffer.concat([bytes.subarray(0, 32), Buffer.from('https://evil.example/', 'utf8')]);
    expect(tokens.readClick(evil.toString('base64url'))).toBeNull();
    expect(tokens.readClick(flip(click, bytes.length - 1))).toBeNull();
    // Appending to the URL (a path or query added after the signed one) fails too.
    expect(tokens.readClick(Buffer.concat([bytes, Buffer.from('x')]).toString('base64url'))).toBeNull();
    // Another row's tag over this URL fails.
    const other = Buffer.from(tokens.signClick({ ...row, outboxId: 1 }, url), 'base64url');
    const swapped = Buffer.concat([bytes.subarray(0, 16), other.subarray(16)]);
    expect(tokens.readClick(swapped.toString('base64url'))).toBeNull();
  });

  it('are logged without the URL a click token carries (it may hold merge values)', () => {
    const click = tokens.signClick(row, 'https://harbor.example/?name=Ann%20Lee');
    expect(redactUrl(`/c/${click}`)).toBe(`/c/${click.slice(0, 43)}[url]`);
    expect(redactUrl(`/o/${tokens.signOpen(row)}.gif`)).toBe(`/o/${tokens.signOpen(row)}.gif`);
  });

  it('carry URLs up to 2,000 UTF-8 bytes in a token the route accepts (3,000 characters at most)', () => {
    // 23 bytes of scheme and host, 988 two-byte letters, one more byte: 2,000 bytes in all.
    const longest = `https://harbor.example/${'é'.repeat(988)}x`;
    expect(Buffer.byteLength(longest)).toBe(2000);
    expect(isTrackableUrl(longest)).toBe(true);
    expect(tokens.signClick(row, longest).length).toBeLessThanOrEqual(3000);
    expect(isTrackableUrl(`${longest}${'é'.repeat(20)}`)).toBe(false);
  });

  it('never sign their way to a non-http target: a signed javascript: URL still does not read', () => {
    expect(tokens.readClick(tokens.signClick(row, 'javascript:alert(1)'))).toBeNull();
  });

  it('leave the unsubscribe token as it was (43 characters, same keys)', () => {
    const codec = unsubscribeTokens(SECRET);
    expect(codec.read(codec.sign(row))).toEqual(row);
    expect(codec.sign(row)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('tracked links', () => {
  it('rewrites literal http(s) links, not unsubscribe, view-in-browser, mailto, tel or anchors', () => {
    const template =
      '<a href="https://a.example/x?y=1&amp;z=2">A</a>' +
      "<a class='b' href='http://b.example/{{first_name}}'>B</a>" +
      '<a href="{{unsubscribe_url}}">U</a><a href="{{ view_in_browser_url }}">V</a>' +
      '<a href="mailto:x@y.example">M</a><a href="tel:+100">T</a><a href="#top">#</a>' +
      '<img src="https://img.example/a.png">';
    const { html, targets } = trackedLinks(template);
    expect(targets).toEqual([
      { tag: '__click_0', url: 'https://a.example/x?y=1&z=2' },
      { tag: '__click_1', url: 'http://b.example/{{first_name}}' },
    ]);
    expect(html).toBe(
      '<a href="{{__click_0}}">A</a>' +
        "<a class='b' href='{{__click_1}}'>B</a>" +
        '<a href="{{unsubscribe_url}}">U</a><a href="{{ view_in_browser_url }}">V</a>' +
        '<a href="mailto:x@y.example">M</a><a href="tel:+100">T</a><a href="#top">#</a>' +
        '<img src="https://img.example/a.png">',
    );
  });
});

describe('machine opens', () => {
  const person =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0';
  it('flags no agent, scanners and Apple privacy-proxy addresses; a person in a browser or Gmail proxy is not', () => {
    expect(looksAutomated({ userAgent: undefined, ip: '203.0.113.5' })).toBe(true);
    expect(looksAutomated({ userAgent: 'Barracuda Sentinel (EE)', ip: '203.0.113.5' })).toBe(true);
    expect(looksAutomated({ userAgent: 'python-requests/2.31', ip: '203.0.113.5' })).toBe(true);
    expect(looksAutomated({ userAgent: 'Mozilla/5.0', ip: '17.58.100.1' })).toBe(true);
    expect(looksAutomated({ userAgent: 'Mozilla/5.0', ip: '::ffff:17.1.2.3' })).toBe(true);
    expect(looksAutomated({ userAgent: person, ip: '203.0.113.5' })).toBe(false);
    expect(
      looksAutomated({ userAgent: 'Mozilla/5.0 (via ggpht.com GoogleImageProxy)', ip: '66.249.84.1' }),
    ).toBe(false);
  });
});
