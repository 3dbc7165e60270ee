import { z } from 'zod';
import { LIMITS } from '../src/schemas/constants.js';
import { parseRateLimit } from './http/rate-limits.js';

/** A rate limit written `<max>/<seconds>`, e.g. `20/60` (server/http/rate-limits.ts). */
const rateLimitVariable = z
  .string()
  .optional()
  .transform((text, context) => {
    if (text === undefined) return undefined;
    const limit = parseRateLimit(text);
    if (!limit) context.addIssue({ code: 'custom', message: 'must be <max>/<seconds>, e.g. 20/60' });
    return limit ?? undefined;
  });

/** Every environment variable the server reads, with its default; the README's table mirrors this. */
const EnvironmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  // Connections per process to PostgreSQL, and whether statements are kept prepared (a pooler must support it).
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_PREPARE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_ON_START: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  // false on API replicas when `npm run worker` processes run the background jobs (PostgreSQL only).
  RUN_JOBS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  SEED_SCALE: z.enum(['small', 'medium', 'large', 'tiny']).default('small'),
  LIST_EXACT_COUNT_UP_TO: z.coerce.number().int().min(0).default(10_000),
  LIST_COUNT_CACHE_SECONDS: z.coerce.number().int().min(0).default(60),
  BRAND_NAME: z.string().min(1).default('Regulars'),
  PUBLIC_URL: z.string().url('PUBLIC_URL must be a URL such as https://regulars.example.com').optional(),
  OIDC_ISSUER: z.string().url('OIDC_ISSUER must be the issuer URL').optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_AUDIENCE: z.string().min(1).optional(),
  OIDC_JWKS_URI: z.string().url('OIDC_JWKS_URI must be a URL').optional(),
  OIDC_REDIRECT_URIS: z.string().min(1).optional(),
  TRUST_PROXY: z.coerce.number().int().min(0, 'TRUST_PROXY must be 0 or more').max(10).default(0),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(121).max(86400).optional(),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024, 'UPLOAD_MAX_BYTES must be at least 1024')
    .default(LIMITS.uploadMaxBytes),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]/, 'SMTP_URL must look like smtp://user:password@host:587 or smtps://host:465')
    .optional(),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((text) => text.split(',').map((origin) => origin.trim().replace(/\/+$/, '')))
    .transform((origins) => origins.filter((origin) => origin !== ''))
    .refine(
      (origins) => origins.every((origin) => URL.canParse(origin) && new URL(origin).origin === origin),
      {
        message: 'CORS_ORIGINS must be comma-separated origins such as https://app.example.com',
      },
    ),
  RATE_LIMIT_SIGN_IN: rateLimitVariable,
  RATE_LIMIT_REGISTRATION: rateLimitVariable,
  RATE_LIMIT_UPLOAD: rateLimitVariable,
  RATE_LIMIT_PREVIEW: rateLimitVariable,
  RATE_LIMIT_UNSUBSCRIBE: rateLimitVariable,
  RATE_LIMIT_TRACKING: rateLimitVariable,
  MAIL_FROM: z
    .string()
    .min(3, 'MAIL_FROM must be an address such as "Regulars" <no-reply@example.com>')
    .optional(),
  // Mail runs (docs/sending.md): where unsubscribe links point, the per-company pace, DKIM signing.
  MAIL_UNSUBSCRIBE_URL: z
    .string()
    .url('MAIL_UNSUBSCRIBE_URL must be a URL such as https://mail.example.com')
    .optional(),
  MAIL_UNSUBSCRIBE_MAILBOX: z
    .string()
    .regex(/^[^\s@<>]+@[^\s@<>]+$/, 'MAIL_UNSUBSCRIBE_MAILBOX must be an address')
    .optional(),
  MAIL_RATE_PER_SECOND: z.coerce.number().positive().max(100_000).default(50),
  DKIM_DOMAIN: z.string().min(1).optional(),
  DKIM_SELECTOR: z.string().min(1).optional(),
  DKIM_PRIVATE_KEY: z.string().min(1).optional(),
  // The flow engine (docs/flows.md): webhook targets allowed (hosts, comma-separated), private addresses, test clock.
  FLOW_WEBHOOK_HOSTS: z.string().default(''),
  FLOW_WEBHOOK_PRIVATE: z.enum(['true', 'false']).default('false'),
  TEST_CLOCK: z.enum(['true', 'false']).default('false'),
});

/** The sending settings of the configuration, as buildApp and the worker process take them. */
export function sendingConfigOf(config: Config) {
  return {
    unsubscribeUrl: config.MAIL_UNSUBSCRIBE_URL,
    unsubscribeMailbox: config.MAIL_UNSUBSCRIBE_MAILBOX,
    ratePerSecond: config.MAIL_RATE_PER_SECOND,
    dkimDomain: config.DKIM_DOMAIN,
    dkimSelector: config.DKIM_SELECTOR,
    dkimPrivateKey: config.DKIM_PRIVATE_KEY,
  };
}

/** The configured rate limits by name; those not set keep their defaults. */
export function rateLimitsOf(config: Config) {
  return {
    signIn: config.RATE_LIMIT_SIGN_IN,
    registration: config.RATE_LIMIT_REGISTRATION,
    upload: config.RATE_LIMIT_UPLOAD,
    preview: config.RATE_LIMIT_PREVIEW,
    unsubscribe: config.RATE_LIMIT_UNSUBSCRIBE,
    tracking: config.RATE_LIMIT_TRACKING,
  };
}

/** The server's settings, read once at start. */
export type Config = z.infer<typeof EnvironmentSchema>;

/** Reads and checks the environment; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvironmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
