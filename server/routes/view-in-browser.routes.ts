import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../http/errors.js';
import { escapeHtml } from '../sending/merge-template.js';
import type { ViewInBrowserService } from '../services/view-in-browser.service.js';
import { emailFramePolicy } from './email-frame.routes.js';
import { linkNotFoundPage } from './unsubscribe.routes.js';

/**
 * `GET /v/{token}`: the view-in-browser link of run messages (`{{view_in_browser_url}}`), without sign-in. It
 * answers the message as its recipient got it, made inert, under the email frame's policy (email's inline
 * styles, images from this installation, no script, no form) and a script-less `sandbox`, never framed, stored
 * or indexed. An unknown or altered token is the generic 404 page of mail links.
 */

const TOKEN_PARAMS = z.object({ token: z.string().max(200) });

/** The message as a page: its subject as the title, and a robots rule (beside the header) for crawlers. */
export function asViewPage(html: string, subject: string): string {
  const head = `<title>${escapeHtml(subject)}</title><meta name="robots" content="noindex, nofollow">`;
  const withoutTitle = html.replace(/<title\b[^>]*>[\s\S]*?<\/title>/i, '');
  const opening = /<head\b[^>]*>/i.exec(withoutTitle);
  if (opening) {
    const at = opening.index + opening[0].length;
    return `${withoutTitle.slice(0, at)}${head}${withoutTitle.slice(at)}`;
  }
  return `<!DOCTYPE html><html><head><meta charset="utf-8">${head}</head><body>${withoutTitle}</body></html>`;
}

/** The view-in-browser route, at the installation's root beside `/u/` (`publicUrl` is the images' origin). */
export function viewInBrowserRoutes(service: ViewInBrowserService, publicUrl: string): FastifyPluginAsyncZod {
  // Sandboxed as well: no script even if one got through, an opaque origin, no form, no plugin, no automatic
  // feature; a link the reader opens in a new tab leaves the sandbox (the page they chose).
  const policy = `${emailFramePolicy(new URL(publicUrl).origin).replace(
    "frame-ancestors 'self'",
    "frame-ancestors 'none'",
  )}; sandbox allow-popups allow-popups-to-escape-sandbox`;
  return async (app) => {
    app.get(
      '/v/:token',
      { config: { public: true, limit: 'tracking' }, schema: { hide: true, params: TOKEN_PARAMS } },
      async (request, reply) => {
        // The page names a person: never indexed, wherever the link ends up.
        reply.header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'no-store');
        try {
          const message = await service.view(request.params.token);
          return await reply
            .header('content-security-policy', policy)
            .header('referrer-policy', 'no-referrer')
            .type('text/html; charset=utf-8')
            .send(asViewPage(message.html, message.subject));
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return linkNotFoundPage(request, reply);
          throw error;
        }
      },
    );
  };
}
