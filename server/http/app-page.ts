import type { FastifyReply, FastifyRequest } from 'fastify';
import { styleNonceOf } from './security.js';

/** What the build writes where the per-response style nonce goes (vite.config.ts `html.cspNonce`). */
export const CSP_NONCE_PLACEHOLDER = 'CSP_NONCE_PLACEHOLDER';

/** The app's page that the hidden silent-renewal iframe loads (src/services/oidc.ts): the app frames it. */
const SILENT_CALLBACK_PATH = '/authenticate';

/**
 * Answers with the single-page app's HTML, its nonce placeholders filled with this response's style
 * nonce, so Mantine's `<style>` elements are allowed and nothing else inline is. Never cached: the nonce
 * is new on every answer.
 */
export function sendAppPage(request: FastifyRequest, reply: FastifyReply, indexHtml: string): FastifyReply {
  const path = request.url.split('?')[0];
  if (path === SILENT_CALLBACK_PATH) {
    // Only this page may be framed, and only by the app itself (the renewal iframe).
    const policy = String(reply.getHeader('content-security-policy') ?? '');
    reply.header(
      'content-security-policy',
      policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
    );
    reply.header('x-frame-options', 'SAMEORIGIN');
  }
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .send(indexHtml.replaceAll(CSP_NONCE_PLACEHOLDER, styleNonceOf(reply)));
}
