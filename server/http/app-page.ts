import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { styleNonceOf } from './security.js';

/** What the build writes where the per-response style nonce goes (vite.config.ts `html.cspNonce`). */
export const CSP_NONCE_PLACEHOLDER = 'CSP_NONCE_PLACEHOLDER';

/** The app's page that the hidden silent-renewal iframe loads (src/services/oidc.ts): the app frames it. */
const SILENT_CALLBACK_PATH = '/authenticate';

/**
 * The template editor's pages (/editor-template, /editor-template/{id}). GrapesJS writes its interface and its
 * canvas with inline styles (style attributes and `<style>` elements, in the page and in its about:blank
 * canvas frame), which a nonce cannot cover: these pages allow inline styles, scripts stay as strict as
 * everywhere (docs/templates.md, docs/security.md). The app reloads into them when entered from another
 * page, so the policy of the document is always the editor's (src/app/screens/TemplateEditorScreen.tsx).
 */
const EDITOR_PAGE = /^\/editor-template(\/\d+)?\/?$/;

/** The `<html>` mark of a page served with the editor's policy, which the editor screen checks. */
export const INLINE_STYLES_MARK = 'data-inline-styles="allowed"';

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
    let html = indexHtml.replaceAll(CSP_NONCE_PLACEHOLDER, styleNonceOf(reply));
    if (EDITOR_PAGE.test(request.url.split('?')[0]!)) {
      // A nonce would switch 'unsafe-inline' off: the editor's pages name none.
      policy = policy.replace(/style-src 'self' 'nonce-[^']+'/, "style-src 'self' 'unsafe-inline'");
      html = html.replace('<html', `<html ${INLINE_STYLES_MARK}`);
    }
    return reply
      .header('content-security-policy', policy)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(html);
  };
}
