import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../http/errors.js';
import type { TrackingService } from '../services/tracking.service.js';

/**
 * `GET /o/{token}.gif` (the open pixel) and `GET /c/{token}` (a click redirect): links in tracked run
 * messages, without sign-in, counted against the `tracking` rate limit. Nothing about the row is ever
 * answered: an unknown or altered token is a plain 404.
 */

/** A transparent 1×1 GIF (43 bytes). */
export const TRANSPARENT_GIF = Buffer.from(
  'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  'base64',
);

const OPEN_PARAMS = z.object({ file: z.string().max(200) });
// A click token carries its URL (up to 2,000 characters), about 4/3 longer in base64.
const CLICK_PARAMS = z.object({ token: z.string().max(3000) });

/** The tracking routes, at the installation's root beside `/u/`. */
export function trackingRoutes(service: TrackingService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/o/:file',
      { config: { public: true, limit: 'tracking' }, schema: { hide: true, params: OPEN_PARAMS } },
      async (request, reply) => {
        const token = /^(.+)\.gif$/.exec(request.params.file)?.[1];
        if (!token) throw notFound('link');
        await service.open(token, { userAgent: request.headers['user-agent'], ip: request.ip });
        return reply
          .header('cache-control', 'no-store, no-cache, must-revalidate, private')
          .header('pragma', 'no-cache')
          .header('referrer-policy', 'no-referrer')
          .type('image/gif')
          .send(TRANSPARENT_GIF);
      },
    );

    app.get(
      '/c/:token',
      { config: { public: true, limit: 'tracking' }, schema: { hide: true, params: CLICK_PARAMS } },
      async (request, reply) => {
        const { url } = await service.click(request.params.token, {
          userAgent: request.headers['user-agent'],
          ip: request.ip,
        });
        return reply
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .redirect(url, 302);
      },
    );
  };
}
