import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BasketItemGuestsQuerySchema,
  BasketItemGuestsSchema,
  BasketQuerySchema,
  BasketSchema,
} from '../../src/schemas/basket-analytics.js';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { access } from '../http/access.js';
import { companyOf } from '../http/scope.js';
import type { BasketService } from '../services/basket.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Dashboards'];
// Like its page, which no company feature gates (docs/shell.md): an analyst of any company reads it.
const READ = access(null, 'analyst');

/** `/basket-analytics`'s calls (docs/dashboards.md, "Basket analytics"). */
export function basketRoutes(service: BasketService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/analytics/basket/',
      {
        config: READ,
        schema: {
          tags,
          summary:
            'Items and categories sold, attach rates and item pairs (support, confidence, lift) in a date range',
          querystring: BasketQuerySchema,
          response: { 200: BasketSchema, ...errors },
        },
      },
      async (request) => service.figures(companyOf(request), request.query),
    );
    app.get(
      '/analytics/basket/item-guests/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'Guests who ordered a menu item in a date range (at the locations, in the day part)',
          querystring: BasketItemGuestsQuerySchema,
          response: { 200: BasketItemGuestsSchema, ...errors },
        },
      },
      async (request) => service.itemGuests(companyOf(request), request.query),
    );
  };
}
