/** One limit: at most `max` requests per `windowSeconds`, per company (signed in) or client address. */
export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/**
 * The named limits a route can count against with `config: { limit: '<name>' }` (server/http/security.ts
 * applies them). `preview` and `unsubscribe` wait for the segment preview call and the public unsubscribe
 * links: a route that adds `limit: 'preview'` or `limit: 'unsubscribe'` is limited, nothing else to do.
 */
export interface RateLimitSettings {
  /** The API login call and the sign-in page's form (failed attempts are throttled separately). */
  signIn: RateLimit;
  /** Company registration, through the API or the provider's page. */
  registration: RateLimit;
  /** CSV uploads of subscribers and guests. */
  upload: RateLimit;
  /** Segment previews (counting a segment's audience is expensive). */
  preview: RateLimit;
  /** The public unsubscribe endpoints reached from email links. */
  unsubscribe: RateLimit;
  /** The open pixel and click redirects of tracked messages (image proxies share addresses: higher). */
  tracking: RateLimit;
}

/** A limit's name, as routes write it. */
export type RateLimitName = keyof RateLimitSettings;

/** Configured limits by name; an absent or undefined one keeps its default. */
export type RateLimitOverrides = { [Name in RateLimitName]?: RateLimit | undefined };

/** Production limits: generous for people, tight enough to slow down scripted abuse. */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  signIn: { max: 20, windowSeconds: 60 },
  registration: { max: 10, windowSeconds: 60 * 60 },
  upload: { max: 30, windowSeconds: 60 * 60 },
  preview: { max: 60, windowSeconds: 60 },
  unsubscribe: { max: 30, windowSeconds: 60 },
  tracking: { max: 600, windowSeconds: 60 },
};

/** The defaults with the configured limits in place of theirs. */
export function rateLimitsWith(overrides: RateLimitOverrides = {}): RateLimitSettings {
  const limits = { ...DEFAULT_RATE_LIMITS };
  for (const name of Object.keys(limits) as RateLimitName[]) limits[name] = overrides[name] ?? limits[name];
  return limits;
}

/** Reads `<max>/<seconds>`; null when the text is not of that form. */
export function parseRateLimit(text: string): RateLimit | null {
  const match = /^\s*(\d{1,9})\s*\/\s*(\d{1,9})\s*$/.exec(text);
  if (!match) return null;
  const max = Number(match[1]);
  const windowSeconds = Number(match[2]);
  return max >= 1 && windowSeconds >= 1 ? { max, windowSeconds } : null;
}
