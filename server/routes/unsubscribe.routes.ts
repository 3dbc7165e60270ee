import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messagesFor } from '../../src/i18n/resources.js';
import { fill, languageFromAcceptLanguage } from '../auth/oidc/language.js';
import { pageHtml, pageSecurityPolicy } from '../auth/oidc/pages.js';
import { escapeHtml } from '../sending/merge-template.js';
import { ApiError } from '../http/errors.js';
import type { UnsubscribeService, UnsubscribeState } from '../services/unsubscribe.service.js';

/**
 * `GET /u/{token}` and `POST /u/{token}`: the unsubscribe link of every run message, without sign-in.
 * The GET shows a translated page (Accept-Language) and never changes anything, since link scanners open
 * URLs; the POST unsubscribes — the mail client's one-click `List-Unsubscribe=One-Click` (RFC 8058) or the
 * page's button — and `action=resubscribe` is the page's way back. An unknown or altered token is a plain 404.
 */

/** The form fields the POST reads (application/x-www-form-urlencoded). */
type UnsubscribeForm = Record<string, string>;

const TOKEN_PARAMS = z.object({ token: z.string().max(200) });

/** Reads a urlencoded body with the URL standard's parser (no plugin needed for flat forms). */
function parseForm(body: string): UnsubscribeForm {
  return Object.fromEntries(new URLSearchParams(body));
}

function page(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  state: UnsubscribeState | null,
  resubscribed = false,
) {
  const language = languageFromAcceptLanguage(request.headers['accept-language']) ?? 'en';
  const texts = messagesFor(language).mailCompliance;
  const values: Record<string, string> = state ? { company: state.companyName, email: state.email } : {};
  const action = request.url.split('?')[0]!;
  const form = (field: string, value: string, label: string) =>
    `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="${field}" value="${value}">` +
    `<button type="submit">${escapeHtml(label)}</button></form>`;
  let body: string;
  let title = texts.pageTitle;
  if (!state) {
    title = texts.notFoundTitle;
    body = `<h1>${escapeHtml(texts.notFoundTitle)}</h1><p class="intro">${escapeHtml(texts.notFoundText)}</p>`;
  } else if (resubscribed) {
    body = `<h1>${escapeHtml(texts.resubscribedTitle)}</h1><p class="intro">${escapeHtml(fill(texts.resubscribedText, values))}</p>`;
  } else if (state.unsubscribed) {
    body =
      `<h1>${escapeHtml(texts.doneTitle)}</h1><p class="intro">${escapeHtml(fill(texts.doneText, values))}</p>` +
      form('action', 'resubscribe', texts.resubscribeButton);
  } else {
    body =
      `<h1>${escapeHtml(texts.pageTitle)}</h1><p class="intro">${escapeHtml(fill(texts.confirmQuestion, values))}</p>` +
      form('List-Unsubscribe', 'One-Click', texts.confirmButton);
  }
  const html = pageHtml({ language, brand: state?.companyName ?? '' }, title, body);
  return reply
    .code(status)
    .header('content-security-policy', pageSecurityPolicy([]))
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** The generic 404 page of a mail link (unsubscribe, view in browser) that does not verify: no company, no address. */
export function linkNotFoundPage(request: FastifyRequest, reply: FastifyReply) {
  return page(request, reply, 404, null);
}

/** The unsubscribe routes, at the installation's root (the links in emails are short and stable). */
export function unsubscribeRoutes(service: UnsubscribeService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, parseForm(body as string)),
    );
    const notFoundPage = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return linkNotFoundPage(request, reply);
      throw error;
    };

    app.get(
      '/u/:token',
      { config: { public: true, limit: 'unsubscribe' }, schema: { hide: true, params: TOKEN_PARAMS } },
      async (request, reply) => {
        try {
          return await page(request, reply, 200, await service.describe(request.params.token));
        } catch (error) {
          return notFoundPage(request, reply, error);
        }
      },
    );

    app.post(
      '/u/:token',
      { config: { public: true, limit: 'unsubscribe' }, schema: { hide: true, params: TOKEN_PARAMS } },
      async (request, reply) => {
        const body: unknown = request.body;
        const form = (body && typeof body === 'object' ? body : {}) as UnsubscribeForm;
        const resubscribe = form.action === 'resubscribe';
        if (!resubscribe && form['List-Unsubscribe'] !== 'One-Click') {
          throw new ApiError(400, 'unsubscribe_form', 'Send List-Unsubscribe=One-Click to unsubscribe', {
            'List-Unsubscribe': { code: 'required', message: 'List-Unsubscribe must be One-Click' },
          });
        }
        try {
          const state = resubscribe
            ? await service.resubscribe(request.params.token)
            : await service.unsubscribe(request.params.token);
          return await page(request, reply, 200, state, resubscribe);
        } catch (error) {
          return notFoundPage(request, reply, error);
        }
      },
    );
  };
}
