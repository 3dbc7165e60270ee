import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.js';
import { EMBEDDED_ISSUER_PATH, type AuthSettings } from '../settings.js';
import { interactionRoutes } from './interactions.js';
import { createEmbeddedProvider } from './provider.js';

/** What the embedded provider is mounted with. */
export interface EmbeddedOidcOptions {
  db: Database;
  settings: AuthSettings;
  /** The installation's product name (BRAND_NAME), which the sign-in pages show. */
  brandName: string;
}

/** The largest sign-in form the interaction pages accept. */
const FORM_BODY_LIMIT = 64 * 1024;

/**
 * Mounts the embedded OpenID provider at /oidc. Every /oidc/* request except the sign-in pages is handed,
 * raw and unparsed, to the Koa-based provider: the route's `onRequest` hook hijacks the reply before
 * Fastify reads a body, and the `/oidc` prefix moves from `req.url` to `req.originalUrl` the way
 * oidc-provider expects from a mounted app (it derives its mount path from the two). The forwarded
 * host and protocol are set from the configured public address, so the URLs the provider writes always
 * match its issuer whatever Host a client sent. The sign-in pages (/oidc/interaction/*) are Fastify
 * routes that use the provider's interaction helpers.
 */
export function embeddedOidcPlugin(options: EmbeddedOidcOptions): FastifyPluginAsync {
  const publicUrl = new URL(options.settings.publicUrl);
  return async (app) => {
    const provider = await createEmbeddedProvider({
      db: options.db,
      settings: options.settings,
      logger: app.log,
      brandName: options.brandName,
    });
    const handleWithProvider = provider.callback();

    // Only the sign-in pages' forms are parsed here (this plugin's scope); the provider parses its own.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    await app.register(
      interactionRoutes({
        provider,
        db: options.db,
        settings: options.settings,
        brandName: options.brandName,
      }),
    );

    app.all(`${EMBEDDED_ISSUER_PATH}/*`, {
      schema: { hide: true },
      onRequest: async (request, reply) => {
        reply.hijack();
        const raw = request.raw as IncomingMessage & { originalUrl?: string };
        const url = raw.url ?? '/';
        raw.originalUrl = url;
        raw.url = url.slice(EMBEDDED_ISSUER_PATH.length) || '/';
        raw.headers['x-forwarded-proto'] = publicUrl.protocol.replace(/:$/, '');
        raw.headers['x-forwarded-host'] = publicUrl.host;
        try {
          await handleWithProvider(raw, reply.raw);
        } catch (error) {
          request.log.error({ err: error }, 'OpenID provider failed outside its error handling');
          if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'text/plain' });
          reply.raw.end();
        } finally {
          // Fastify's own log line of this request should show the path the client asked for.
          raw.url = url;
          delete raw.originalUrl;
        }
      },
      // Never reached: the hook above answers every request.
      handler: async () => undefined,
    });
  };
}
