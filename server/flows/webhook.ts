import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, request } from 'undici';

/**
 * A flow's webhook POST (docs/flows.md, "Webhooks"): only to hosts the installation allows
 * (`FLOW_WEBHOOK_HOSTS`, comma-separated; empty: none), and never to a private, loopback, link-local or otherwise
 * special address unless `FLOW_WEBHOOK_PRIVATE=true`. The address is checked where the connection is made (the
 * request's own DNS lookup, every address it answers), so a name that answers a public address to a first lookup
 * and a private one to a second (DNS rebinding) cannot slip through. No redirect is followed; a timeout and a
 * cap on the answer's size bound each call. The body holds ids only; failures are reported as codes, never with
 * the URL's query or the answer's text.
 */

/** Resolves a host name to all its addresses (the system resolver unless a test supplies its own). */
export type WebhookResolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** The installation's webhook rules. */
export interface WebhookSettings {
  allowedHosts: readonly string[];
  allowPrivate: boolean;
  timeoutMs: number;
  /** The most bytes of an answer read; a longer answer is a failure. */
  maxResponseBytes?: number;
  /** The resolver the connection uses (tests answer a private address for a public-looking name). */
  resolve?: WebhookResolver;
}

/** The most of an answer read by default: its status is all that counts. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** No webhook target is allowed until the installation names one. */
export const NO_WEBHOOKS: WebhookSettings = { allowedHosts: [], allowPrivate: false, timeoutMs: 5_000 };

/** The settings from the environment. */
export function webhookSettingsFrom(env: {
  FLOW_WEBHOOK_HOSTS?: string | undefined;
  FLOW_WEBHOOK_PRIVATE?: string | undefined;
}): WebhookSettings {
  return {
    allowedHosts: (env.FLOW_WEBHOOK_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
    allowPrivate: env.FLOW_WEBHOOK_PRIVATE === 'true',
    timeoutMs: 5_000,
  };
}

// Not globally routable (IANA special-purpose registries): this network, private, CGNAT, loopback, link-local
// (with the cloud metadata address), IETF protocol assignments, benchmarking, multicast and reserved.
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
// Unspecified and loopback, unique-local, link-local, multicast.
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/** The IPv4 address an IPv6 address carries in its last 32 bits, as dotted quads. */
function embeddedIpv4(groups: readonly number[]): string {
  const high = groups[6] ?? 0;
  const low = groups[7] ?? 0;
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** An IPv6 address as its eight 16-bit groups (a dotted IPv4 tail counts as two), or null if malformed. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = (dotted[1] ?? '').split('.').map(Number);
    const a = parts[0] ?? 0;
    const b = parts[1] ?? 0;
    const c = parts[2] ?? 0;
    const d = parts[3] ?? 0;
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => parseInt(group, 16));
}

/**
 * Whether an IP address is one a webhook must not reach unless private targets are allowed: private, loopback,
 * link-local, unspecified, CGNAT, multicast or reserved. An IPv6 address that carries an IPv4 one (IPv4-mapped
 * `::ffff:a.b.c.d`, the NAT64 prefix `64:ff9b::/96`, IPv4-compatible `::a.b.c.d`) is judged by the IPv4 address it
 * carries (a `::ffff:0:0/96` rule in a BlockList would match every IPv4 address). Not an IP address: refused.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const zeros = (count: number) => groups.slice(0, count).every((group) => group === 0);
  const mapped = zeros(5) && groups[5] === 0xffff;
  const nat64 =
    groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  const compatible = zeros(6) && (groups[6] ?? 0) !== 0;
  if (mapped || nat64 || compatible) return PRIVATE.check(embeddedIpv4(groups), 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

/** What became of a POST: `posted`, or why not. */
export type WebhookOutcome = 'posted' | 'refused_host' | 'refused_private' | 'failed';

/** The code of the error a refused address fails the connection with. */
const REFUSED_PRIVATE = 'EWEBHOOKPRIVATE';

/** The lookup a webhook's connection makes: every address the name resolves to is checked before connecting. */
type ConnectLookup = (
  hostname: string,
  options: { all?: boolean },
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** A lookup that answers only permitted addresses, and fails the connection if any address is not. */
function checkedLookup(settings: WebhookSettings): ConnectLookup {
  const resolve = settings.resolve ?? ((hostname: string) => dnsLookup(hostname, { all: true }));
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const first = addresses[0];
        if (!first || (!settings.allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))) {
          callback(Object.assign(new Error('webhook address refused'), { code: REFUSED_PRIVATE }), '');
          return;
        }
        if (options.all) callback(null, [...addresses]);
        else callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, ''),
    );
  };
}

/** Whether an error (or one of its causes) is the refusal of a private address. */
function refusedPrivate(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth += 1) {
    if ((at as { code?: unknown }).code === REFUSED_PRIVATE) return true;
  }
  return false;
}

/** Reads and drops an answer's body, false once it passes `limit` bytes. */
async function drainWithin(body: AsyncIterable<Uint8Array> & { destroy(): unknown }, limit: number) {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.byteLength;
    if (read > limit) {
      body.destroy();
      return false;
    }
  }
  return true;
}

/** POSTs `body` as JSON to `url` if the settings allow it; answers the outcome, never throws. */
export async function postWebhook(
  settings: WebhookSettings,
  url: string,
  body: object,
  idempotencyKey: string,
): Promise<WebhookOutcome> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'refused_host';
  }
  if (!/^https?:$/.test(target.protocol)) return 'refused_host';
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!settings.allowedHosts.includes(host)) return 'refused_host';
  // An address in the URL is connected to without a lookup, so it is checked here.
  if (isIP(host) && !settings.allowPrivate && isPrivateAddress(host)) return 'refused_private';
  // Its own agent: the lookup that checks is the one that connects, and no connection outlives the call.
  const agent = new Agent({
    connect: { lookup: checkedLookup(settings), timeout: settings.timeoutMs },
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
  });
  try {
    // undici's request follows no redirect: a 3xx is an answer, and not a success.
    const response = await request(target, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    const withinCap = await drainWithin(response.body, settings.maxResponseBytes ?? MAX_RESPONSE_BYTES);
    return withinCap && response.statusCode >= 200 && response.statusCode < 300 ? 'posted' : 'failed';
  } catch (error) {
    return refusedPrivate(error) ? 'refused_private' : 'failed';
  } finally {
    void agent.destroy().catch(() => undefined);
  }
}
