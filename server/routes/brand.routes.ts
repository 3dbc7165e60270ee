import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The product name shown when BRAND_NAME is not set. */
export const DEFAULT_BRAND_NAME = 'Regulars';

/** `GET /api/brand/`: the product name of this installation (BRAND_NAME), for page titles '{page} | {brand}'. */
export function brandRoutes(brandName: string): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/brand/',
      {
        config: { public: true },
        schema: {
          tags: ['Health'],
          summary: 'The product name shown in page titles',
          security: [],
          response: { 200: z.object({ name: z.string() }) },
        },
      },
      () => ({ name: brandName }),
    );
  };
}
