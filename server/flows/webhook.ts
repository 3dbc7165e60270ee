import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * A flow's webhook POST (docs/flows.md, "Webhooks"): only to hosts the installation allows
 * (`FLOW_WEBHOOK_HOSTS`, comma-separated; empty: none), and never to a private, loopback or link-local address
 * unless `FLOW_WEBHOOK_PRIVATE=true`, checked on every address the host resolves to. The body holds ids
 * only; failures are reported as codes, never with the URL's query or the answer's text.
 */

/** The installation's webhook rules. */
export interface WebhookSettings {
  allowedHosts: readonly string[];
  allowPrivate: boolean;
  timeoutMs: number;
}

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

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/**
 * Whether an IP address is private, loopback, link-local or unspecified. IPv4-mapped IPv6 addresses are checked
 * as the IPv4 address they carry (a `::ffff:0:0/96` rule would also match every IPv4 address in a BlockList).
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && address.toLowerCase().startsWith('::ffff:')) {
    return isPrivateAddress(address.slice(7));
  }
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** What became of a POST: `posted`, or why not. */
export type WebhookOutcome = 'posted' | 'refused_host' | 'refused_private' | 'failed';

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
  if (!settings.allowPrivate) {
    const addresses = isIP(host)
      ? [host]
      : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
    if (addresses.length === 0 || addresses.some(isPrivateAddress)) return 'refused_private';
  }
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    await response.body?.cancel();
    return response.ok ? 'posted' : 'failed';
  } catch {
    return 'failed';
  }
}
