import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import { rateLimitsWith, type RateLimitName, type RateLimitOverrides } from './rate-limits.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The named rate limit this route counts against (server/http/rate-limits.ts); none when absent. */
    limit?: RateLimitName;
  }
}

/** What the security headers, CORS and rate limits are set up from. */
export interface SecuritySettings {
  /** Where browsers reach the app (PUBLIC_URL); HSTS is sent only when it is https. */
  publicUrl: string;
  /** The OpenID issuer; when it is another origin, the app may fetch its token endpoint and frame it. */
  issuer: string;
  /** Where the provider sends the browser back after sign-in: allowed form targets. */
  redirectUris: readonly string[];
  /** Origins allowed to call the API from a browser (CORS_ORIGINS); none by default. */
  corsOrigins: readonly string[];
  /** The named limits; production values for those omitted. */
  rateLimits?: RateLimitOverrides | undefined;
}

/** HSTS lifetime: one year, the usual preload threshold. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

// The style nonce of each response, made while helmet writes the policy; the app's page reads it.
const styleNonces = new WeakMap<ServerResponse, string>();

function freshStyleNonce(response: ServerResponse): string {
  const nonce = randomBytes(16).toString('base64');
  styleNonces.set(response, nonce);
  return `'nonce-${nonce}'`;
}

/** The nonce this response's policy allows `<style>` elements with (Mantine's injected styles). */
export function styleNonceOf(reply: FastifyReply): string {
  const nonce = styleNonces.get(reply.raw);
  if (nonce === undefined) throw new Error('No Content-Security-Policy was written for this response');
  return nonce;
}

function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * The Content-Security-Policy of every response (the app, its assets, /api/docs, the JSON API). Scripts
 * only from this origin; styles from this origin plus `<style>` elements carrying the response's nonce
 * (Mantine writes its CSS variables and responsive rules into such elements and passes the nonce on);
 * data: images for the inline SVGs of Mantine's and Swagger UI's stylesheets. The sign-in pages and the
 * provider's own pages answer with their stricter policy (server/auth/oidc/pages.ts).
 */
function contentSecurityPolicy(settings: SecuritySettings) {
  const self = "'self'";
  const issuerOrigin = originOf(settings.issuer);
  const external = issuerOrigin === originOf(settings.publicUrl) ? [] : [issuerOrigin];
  const formTargets = [...new Set(settings.redirectUris.map(originOf))];
  return {
    useDefaults: false,
    directives: {
      defaultSrc: [self],
      scriptSrc: [self],
      scriptSrcAttr: ["'none'"],
      styleSrc: [self, (_request: unknown, response: ServerResponse) => freshStyleNonce(response)],
      imgSrc: [self, 'data:'],
      fontSrc: [self, 'data:'],
      // An external issuer's token endpoint is called from the app; its authorization page runs in the
      // hidden renewal iframe.
      connectSrc: [self, ...external],
      frameSrc: [self, ...external],
      objectSrc: ["'none'"],
      baseUri: [self],
      formAction: [self, ...formTargets],
      frameAncestors: ["'none'"],
    },
  };
}

// Swagger UI's top bar draws its logo as an inline SVG with this one <style> element; nothing else inline.
const SWAGGER_LOGO_STYLE = '.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}';
const SWAGGER_LOGO_STYLE_HASH = `'sha256-${createHash('sha256').update(SWAGGER_LOGO_STYLE).digest('base64')}'`;

/** The policy of /api/docs (swagger-ui's `transformStaticCSP`): the app's, plus the logo's style by hash. */
export function docsContentSecurityPolicy(header: string): string {
  return header.replace(/style-src 'self'/, `style-src 'self' ${SWAGGER_LOGO_STYLE_HASH}`);
}

/** The product's 429: `{error: {code: 'rate_limited', message}}`; the plugin has set Retry-After. */
function rateLimitedError(_request: FastifyRequest, context: { after: string }): ApiError {
  return new ApiError(429, 'rate_limited', `Too many requests; try again in ${context.after}`);
}

/**
 * Whom a limit counts: the company for a signed-in call (all its users and tokens together), otherwise
 * the client address (request.ip, which honours TRUST_PROXY).
 */
export function rateLimitKey(request: FastifyRequest): string {
  return request.principal ? `company:${request.principal.companyId}` : `address:${request.ip}`;
}

/** Writes the security headers on a reply that no hook saw (Fastify's refusal of an undecodable URL). */
export type SecurityHeaderWriter = (reply: FastifyReply) => void;

/**
 * Security headers on every response (helmet), CORS for the allowed origins only, and the named rate
 * limits routes opt into with `config: { limit: 'signIn' }`. Register before any route. Answers the
 * writer for the one kind of answer that passes no hook.
 */
export async function registerSecurity(
  app: FastifyInstance,
  settings: SecuritySettings,
): Promise<SecurityHeaderWriter> {
  const https = new URL(settings.publicUrl).protocol === 'https:';
  const csp = contentSecurityPolicy(settings);
  const hsts = `max-age=${HSTS_MAX_AGE_SECONDS}`;
  const referrerPolicy = 'strict-origin-when-cross-origin';
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: csp,
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: referrerPolicy },
    // Cross-origin embedding is not needed, and COEP would block nothing the app loads.
    crossOriginEmbedderPolicy: false,
  });
  const writeCsp = fastifyHelmet.contentSecurityPolicy(csp);
  const writeHeaders: SecurityHeaderWriter = (reply) => {
    writeCsp(reply.request.raw, reply.raw, () => undefined);
    reply.raw.setHeader('x-content-type-options', 'nosniff');
    reply.raw.setHeader('x-frame-options', 'DENY');
    reply.raw.setHeader('referrer-policy', referrerPolicy);
    reply.raw.setHeader('cross-origin-opener-policy', 'same-origin');
    reply.raw.setHeader('cross-origin-resource-policy', 'same-origin');
    if (https) reply.raw.setHeader('strict-transport-security', hsts);
  };

  const allowed = new Set(settings.corsOrigins);
  await app.register(fastifyCors, {
    // The API authenticates with Bearer or Token headers, never cookies: no credentials mode.
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language'],
    exposedHeaders: ['Retry-After', 'Content-Disposition'],
    maxAge: 600,
  });

  const limits = rateLimitsWith(settings.rateLimits);
  // Turns a route's named limit into the plugin's own route setting, before the plugin reads it.
  app.addHook('onRoute', (route) => {
    const name = route.config?.limit;
    if (name === undefined) return;
    const { max, windowSeconds } = limits[name];
    route.config = { ...route.config, rateLimit: { max, timeWindow: windowSeconds * 1000 } };
  });
  await app.register(fastifyRateLimit, {
    global: false,
    keyGenerator: rateLimitKey,
    errorResponseBuilder: rateLimitedError,
  });
  return writeHeaders;
}
