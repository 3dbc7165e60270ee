import { BlockList, isIPv4 } from 'node:net';

/**
 * Which opens and clicks look automated (docs/sending.md, "Tracking"). Judged from the request alone here;
 * the timing rule (within `PREFETCH_SECONDS` of sending) is applied by the recording statement, which knows
 * when the message went. These are heuristics with known limits: a proxy that fetches only when the reader
 * opens (Gmail's, Yahoo's) is a person's open unless it comes at delivery; Apple Mail Privacy Protection
 * fetches every message at delivery whether read or not, so its opens never count as a person's.
 */

/** An open or click this many seconds after sending is a prefetch or a scanner at delivery. */
export const PREFETCH_SECONDS = 10;

// Security gateways, link scanners, previewers and scripts name themselves in their agent.
const AUTOMATED_AGENT =
  /bot\b|crawler|spider|scanner|preview|headless|python|curl|wget|go-http-client|java\/|okhttp|libwww|httpclient|barracuda|mimecast|proofpoint|ironport|forcepoint|symantec|trendmicro|trend micro|sophos|fortiguard|zscaler|safelinks|monitoring/i;

// Apple Mail Privacy Protection fetches through Apple's own network (17.0.0.0/8) with a bare agent.
const APPLE_PROXIES = new BlockList();
APPLE_PROXIES.addSubnet('17.0.0.0', 8, 'ipv4');

/** What is known of the request that opened or clicked. */
export interface EngagementRequest {
  userAgent: string | undefined;
  /** The client's address as Fastify sees it (after the trusted proxies). */
  ip: string | undefined;
}

/** True when the request itself looks automated (no agent, a scanner's agent, an Apple privacy proxy). */
export function looksAutomated({ userAgent, ip }: EngagementRequest): boolean {
  const agent = (userAgent ?? '').trim();
  if (agent === '' || AUTOMATED_AGENT.test(agent)) return true;
  const address = ip?.startsWith('::ffff:') ? ip.slice(7) : ip;
  return address !== undefined && isIPv4(address) && APPLE_PROXIES.check(address, 'ipv4');
}
