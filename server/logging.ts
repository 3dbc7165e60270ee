import type { FastifyServerOptions } from 'fastify';

/** Query parameters that never carry personal data and may be logged as they are. */
const LOGGABLE_QUERY_KEYS = new Set([
  'page',
  'page_size',
  'location_id',
  'location_group_id',
  'from_date',
  'to_date',
  'customer_type',
  'is_subscriber',
  'preview',
  'trigger',
]);

// A click token carries its target URL after 43 opaque characters; a template may fill that URL with merge values.
const CLICK_TOKEN_URL = /^(\/c\/[A-Za-z0-9_-]{43})[A-Za-z0-9_-]+/;

/**
 * The URL as logged: personal data in query strings (q, email, names) is replaced with a marker, and a click
 * redirect keeps only its token's opaque part.
 */
export function redactUrl(rawUrl: string): string {
  const url = rawUrl.replace(CLICK_TOKEN_URL, '$1[url]');
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  const kept = [...params.entries()].map(([key, value]) =>
    LOGGABLE_QUERY_KEYS.has(key) ? `${key}=${encodeURIComponent(value)}` : `${key}=[redacted]`,
  );
  return `${url.slice(0, queryStart)}?${kept.join('&')}`;
}

/** Paths that pino replaces with "[redacted]" wherever they appear in a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.email',
  '*.phone',
  '*.first_name',
  '*.last_name',
  '*.customer_name',
  '*.last_four_digits',
  '*.access_token',
];

/** JSON logs with personal data kept out. */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
      }),
    },
  };
}

/**
 * An error's code for the log, never its message (a database error may quote a guest's row): the database's code,
 * else the error's name, else `fallback`.
 */
export function logCode(error: unknown, fallback: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : fallback;
}
