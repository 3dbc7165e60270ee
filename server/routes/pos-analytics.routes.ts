import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import {
  MenuCategoryFiguresSchema,
  MenuItemFiguresSchema,
  MenuItemPageSchema,
  MenuItemQuerySchema,
  OptionalRangeQuerySchema,
  RevenueCenterListSchema,
  RevenueQuerySchema,
  RevenueSchema,
  SalesQuerySchema,
  SalesSchema,
} from '../../src/schemas/pos-analytics.js';
import { access } from '../http/access.js';
import { pageWindow, toPage } from '../http/paging.js';
import { companyOf } from '../http/scope.js';
import type { PosAnalyticsService } from '../services/pos-analytics.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Menu, POS and analytics'];
// Sales and revenue feed the overview; the menu's figures are consumer insights.
const READ_SALES = access('Overview', 'analyst');
const READ_MENU = access('Consumer Insights Analytics', 'analyst');

/** The menu, revenue and sales calls of spec section 7, read from the daily rollups. */
export function posAnalyticsRoutes(service: PosAnalyticsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/pos/menu-item/',
      {
        config: READ_MENU,
        schema: {
          tags,
          summary: 'Menu items by location, category and name, with units and revenue in a date range',
          querystring: MenuItemQuerySchema,
          response: { 200: MenuItemPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { count, results } = await service.menuItems(companyOf(request), query, pageWindow(query));
        return toPage(request, query, count, results);
      },
    );

    app.get(
      '/pos/revenue-centers/',
      {
        config: READ_SALES,
        schema: {
          tags,
          summary: 'Revenue centers of the locations, with revenue and checks in a date range',
          querystring: OptionalRangeQuerySchema,
          response: { 200: RevenueCenterListSchema, ...errors },
        },
      },
      async (request) => service.revenueCenters(companyOf(request), request.query),
    );

    app.get(
      '/bigdata/menu-items/',
      {
        config: READ_MENU,
        schema: {
          tags,
          summary: 'Units, revenue and checks per menu item sold in a date range',
          querystring: OptionalRangeQuerySchema,
          response: { 200: MenuItemFiguresSchema, ...errors },
        },
      },
      async (request) => service.menuItemFigures(companyOf(request), request.query),
    );

    app.get(
      '/bigdata/menu-category/',
      {
        config: READ_MENU,
        schema: {
          tags,
          summary: 'Units and revenue per menu category in a date range',
          querystring: OptionalRangeQuerySchema,
          response: { 200: MenuCategoryFiguresSchema, ...errors },
        },
      },
      async (request) => service.menuCategoryFigures(companyOf(request), request.query),
    );

    app.get(
      '/pos/revenue/',
      {
        config: READ_SALES,
        schema: {
          tags,
          summary: 'Revenue per day, week or month of a date range (periods without sales as 0)',
          querystring: RevenueQuerySchema,
          response: { 200: RevenueSchema, ...errors },
        },
      },
      async (request) => service.revenue(companyOf(request), request.query),
    );

    app.get(
      '/pos/sales/',
      {
        config: READ_SALES,
        schema: {
          tags,
          summary: 'Revenue, checks, guests and new or returning guests of a date range (or the one before)',
          querystring: SalesQuerySchema,
          response: { 200: SalesSchema, ...errors },
        },
      },
      async (request) => service.sales(companyOf(request), request.query),
    );
  };
}
