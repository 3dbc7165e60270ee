import { z } from 'zod';
import { IsoDateSchema, pageOf, PagingQuerySchema, repeated } from './common.js';
import { urlWholeNumber } from './numbers.js';

/**
 * The menu, revenue and sales calls of spec section 7, read from the daily rollups. Dates are calendar days in
 * the company's time zone, both ends inclusive; money in dollars.
 */

const locationFilter = {
  location_id: repeated(urlWholeNumber('location_id is not valid')),
  location_group_id: repeated(urlWholeNumber('location_group_id is not valid')),
};

const toNotBeforeFrom = {
  message: 'to_date must not be before from_date',
  path: ['to_date'],
};

/** Locations, groups and a required day range. */
export const RangeQuerySchema = z
  .object({ ...locationFilter, from_date: IsoDateSchema, to_date: IsoDateSchema })
  .refine((query) => query.from_date <= query.to_date, toNotBeforeFrom);
/** Locations, groups and a required day range. */
export type RangeQuery = z.infer<typeof RangeQuerySchema>;

/** Locations, groups and an optional day range (all days when an end is left out). */
export const OptionalRangeQuerySchema = z
  .object({ ...locationFilter, from_date: IsoDateSchema.optional(), to_date: IsoDateSchema.optional() })
  .refine((query) => !query.from_date || !query.to_date || query.from_date <= query.to_date, toNotBeforeFrom);
/** Locations, groups and an optional day range. */
export type OptionalRangeQuery = z.infer<typeof OptionalRangeQuerySchema>;

/** `GET /pos/menu-item/` query: locations, categories (ids), search text, day range, page. */
export const MenuItemQuerySchema = PagingQuerySchema.extend({
  ...locationFilter,
  category: repeated(urlWholeNumber('category is not valid')),
  q: z.string().trim().max(100).optional(),
  from_date: IsoDateSchema.optional(),
  to_date: IsoDateSchema.optional(),
}).refine((query) => !query.from_date || !query.to_date || query.from_date <= query.to_date, toNotBeforeFrom);
/** `GET /pos/menu-item/` query. */
export type MenuItemQuery = z.infer<typeof MenuItemQuerySchema>;

/** A menu item with what it sold in the range. */
export const MenuItemSalesSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  category_id: z.number().int(),
  category: z.string(),
  location_id: z.number().int().nullable(),
  price: z.number(),
  is_active: z.boolean(),
  units: z.number().int(),
  revenue: z.number(),
  checks: z.number().int(),
});
/** A menu item with what it sold in the range. */
export type MenuItemSales = z.infer<typeof MenuItemSalesSchema>;
/** A page of menu items. */
export const MenuItemPageSchema = pageOf(MenuItemSalesSchema);

/** A revenue center with its revenue and checks in the range. */
export const RevenueCenterSalesSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  location_id: z.number().int(),
  location_name: z.string(),
  revenue: z.number(),
  checks: z.number().int(),
});
/** `GET /pos/revenue-centers/` answer. */
export const RevenueCenterListSchema = z.object({ results: z.array(RevenueCenterSalesSchema) });

/** Units, revenue and checks of one item sold in the range (`GET /bigdata/menu-items/`). */
export const MenuItemFigureSchema = z.object({
  menu_item_id: z.number().int(),
  name: z.string(),
  category_id: z.number().int(),
  category: z.string(),
  units: z.number().int(),
  revenue: z.number(),
  checks: z.number().int(),
});
/** `GET /bigdata/menu-items/` answer. */
export const MenuItemFiguresSchema = z.object({ results: z.array(MenuItemFigureSchema) });

/** Units and revenue of one category in the range (`GET /bigdata/menu-category/`). */
export const MenuCategoryFigureSchema = z.object({
  category_id: z.number().int(),
  category: z.string(),
  units: z.number().int(),
  revenue: z.number(),
});
/** `GET /bigdata/menu-category/` answer. */
export const MenuCategoryFiguresSchema = z.object({ results: z.array(MenuCategoryFigureSchema) });

/** The periods revenue rows are grouped by (weeks start on Monday). */
export const REVENUE_INTERVALS = ['day', 'week', 'month'] as const;

/** `GET /pos/revenue/` query. */
export const RevenueQuerySchema = z
  .object({
    ...locationFilter,
    from_date: IsoDateSchema,
    to_date: IsoDateSchema,
    interval: z.enum(REVENUE_INTERVALS, { error: 'interval must be day, week or month' }).default('day'),
  })
  .refine((query) => query.from_date <= query.to_date, toNotBeforeFrom);
/** `GET /pos/revenue/` query. */
export type RevenueQuery = z.infer<typeof RevenueQuerySchema>;

/** One revenue row: the first day of the period and the revenue of its days inside the range. */
export const RevenueRowSchema = z.object({ period: z.string(), revenue: z.number() });
/** `GET /pos/revenue/` answer: every period of the range, those without sales as 0. */
export const RevenueSchema = z.object({
  interval: z.enum(REVENUE_INTERVALS),
  from_date: z.string(),
  to_date: z.string(),
  results: z.array(RevenueRowSchema),
});
/** `GET /pos/revenue/` answer. */
export type Revenue = z.infer<typeof RevenueSchema>;

/** `GET /pos/sales/` query; `is_prev_sales=true` answers the same-length period just before. */
export const SalesQuerySchema = z
  .object({
    ...locationFilter,
    from_date: IsoDateSchema,
    to_date: IsoDateSchema,
    is_prev_sales: z
      .enum(['true', 'false'], { error: 'is_prev_sales must be true or false' })
      .default('false'),
  })
  .refine((query) => query.from_date <= query.to_date, toNotBeforeFrom);
/** `GET /pos/sales/` query. */
export type SalesQuery = z.infer<typeof SalesQuerySchema>;

/** Sales of a period: the period answered (shifted back for `is_prev_sales`) and its figures. */
export const SalesSchema = z.object({
  from_date: z.string(),
  to_date: z.string(),
  revenue: z.number(),
  checks: z.number().int(),
  guests: z.number().int(),
  average_check: z.number(),
  new_guests: z.number().int(),
  returning_guests: z.number().int(),
});
/** `GET /pos/sales/` answer. */
export type Sales = z.infer<typeof SalesSchema>;
