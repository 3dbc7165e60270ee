import type { FastifyPluginAsync } from 'fastify';
import { EMAIL_FRAME_PATH } from '../../src/schemas/email-templates.js';

/** The frame's blank page: a standards-mode document the editor and the thumbnails write into. */
const BLANK_PAGE = '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body></body></html>';

/**
 * The email frame's policy. Email HTML is styled inline (`style` attributes and `<style>` elements), which the
 * app's own policy refuses (styles by nonce only), and an `about:blank` or `srcdoc` frame inherits the app's
 * policy. So the editor's canvas and the list's thumbnails are frames of this page, whose own policy allows
 * inline styles and nothing else: no script of its own (the app's scripts write into it), images from this
 * installation only, framed by the app alone.
 */
export function emailFramePolicy(imageOrigin: string): string {
  return [
    "default-src 'none'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${imageOrigin}`,
    "font-src 'self' data:",
    "script-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** `GET /email-frame`: the blank page the template editor's canvas and the template thumbnails are framed in. */
export function emailFrameRoutes(publicUrl: string): FastifyPluginAsync {
  const policy = emailFramePolicy(new URL(publicUrl).origin);
  return async (app) => {
    app.get(EMAIL_FRAME_PATH, { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', policy)
        .header('x-frame-options', 'SAMEORIGIN')
        .header('cache-control', 'public, max-age=3600')
        .send(BLANK_PAGE),
    );
  };
}
