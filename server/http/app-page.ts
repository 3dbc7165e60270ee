import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { styleNonceOf } from './security.js';

/** What the build writes where the per-response style nonce goes (vite.config.ts `html.cspNonce`). */
export const CSP_NONCE_PLACEHOLDER = 'CSP_NONCE_PLACEHOLDER';

/** The app's page that the hidden silent-renewal iframe loads (src/services/oidc.ts): the app frames it. */
const SILENT_CALLBACK_PATH = '/authenticate';

/** Answers with the single-page app's HTML. */
export type AppPageSender = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/** The CSP sources of the page's inline scripts (index.html's few lines that must run before any module). */
export function inlineScriptHashes(html: string): string[] {
  const inline = html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g);
  return [...inline].map(
    ([, text]) =>
      `'sha256-${createHash('sha256')
        .update(text ?? '', 'utf8')
        .digest('base64')}'`,
  );
}

/**
 * Answers the single-page app's HTML: its nonce placeholders filled with this response's style nonce (so
 * Mantine's `<style>` elements are allowed and nothing else inline is), its own inline scripts allowed by
 * hash. Never cached: the nonce is new on every answer.
 */
export function appPageSender(indexHtml: string): AppPageSender {
  const scriptHashes = inlineScriptHashes(indexHtml).join(' ');
  return (request, reply) => {
    let policy = String(reply.getHeader('content-security-policy') ?? '');
    if (scriptHashes) policy = policy.replace("script-src 'self'", `script-src 'self' ${scriptHashes}`);
    if (request.url.split('?')[0] === SILENT_CALLBACK_PATH) {
      // Only this page may be framed, and only by the app itself (the renewal iframe).
      policy = policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'");
      reply.header('x-frame-options', 'SAMEORIGIN');
    }
    return reply
      .header('content-security-policy', policy)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexHtml.replaceAll(CSP_NONCE_PLACEHOLDER, styleNonceOf(reply)));
  };
}
