import { z } from 'zod';
import { checkDashboardRange, dashboardQueryFields, DashboardRangesSchema } from './dashboard-query.js';
import { urlWholeNumber } from './numbers.js';
import { DAY_PARTS } from './segment-catalogue.js';

/**
 * `/basket-analytics` (docs/dashboards.md, "Basket"): items and categories sold, attach rates and item pairs with
 * support, confidence and lift over the checks of a range. Rates are percentages (0–100, not rounded); money in
 * dollars; days are calendar days in the company's time zone, both ends inclusive.
 */

/** The minimum support taken when none is given, in percent of the checks. */
export const DEFAULT_MIN_SUPPORT = 0.1;

const MIN_SUPPORT_MESSAGE = 'min_support must be a percentage from 0 to 100 with at most two decimals';

/** A percentage written in a URL: digits with at most two decimals, 0 to 100. */
const MinSupportSchema = z
  .union(
    [
      z
        .string()
        .regex(/^\d{1,3}(\.\d{1,2})?$/, MIN_SUPPORT_MESSAGE)
        .transform(Number),
      z.number(),
    ],
    {
      error: MIN_SUPPORT_MESSAGE,
    },
  )
  .pipe(
    z
      .number()
      .min(0, MIN_SUPPORT_MESSAGE)
      .max(100, MIN_SUPPORT_MESSAGE)
      .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, MIN_SUPPORT_MESSAGE),
  );

const DayPartFilterSchema = z
  .enum(DAY_PARTS, { error: `day_part must be one of ${DAY_PARTS.join(', ')}` })
  .optional();
const MenuItemIdSchema = urlWholeNumber('menu_item_id is not valid');

/** `GET /analytics/basket/` query: the dashboards' query (docs/dashboards.md) and the basket's own filters. */
export const BasketQuerySchema = dashboardQueryFields
  .extend({
    min_support: MinSupportSchema.default(DEFAULT_MIN_SUPPORT),
    day_part: DayPartFilterSchema,
    menu_item_id: MenuItemIdSchema.optional(),
  })
  .superRefine(checkDashboardRange);
/** `GET /analytics/basket/` query. */
export type BasketQuery = z.infer<typeof BasketQuerySchema>;

/** The range's totals: checks, units and line revenue, guests, and lines per check. */
export const BasketTotalsSchema = z.object({
  checks: z.number().int(),
  units: z.number().int(),
  revenue: z.number(),
  guests: z.number().int(),
  /** Units per check (0 without checks). */
  units_per_check: z.number(),
  /** Percentage of checks with two or more different items. */
  multi_item_rate: z.number(),
});
/** The range's totals. */
export type BasketTotals = z.infer<typeof BasketTotalsSchema>;

/**
 * One item sold in the range: units, line revenue, checks with it, attach rate. Its distinct guests are asked one
 * item at a time (`BasketItemGuestsSchema`).
 */
export const BasketItemSchema = z.object({
  menu_item_id: z.number().int(),
  name: z.string(),
  category_id: z.number().int(),
  category: z.string(),
  units: z.number().int(),
  revenue: z.number(),
  checks: z.number().int(),
  /** Percentage of the range's checks containing it. */
  attach_rate: z.number(),
});
/** One item sold in the range. */
export type BasketItem = z.infer<typeof BasketItemSchema>;

/** One category (an item's current category): units, line revenue, checks with one of its items, attach rate. */
export const BasketCategorySchema = z.object({
  category_id: z.number().int(),
  category: z.string(),
  units: z.number().int(),
  revenue: z.number(),
  checks: z.number().int(),
  attach_rate: z.number(),
});
/** One category sold in the range. */
export type BasketCategory = z.infer<typeof BasketCategorySchema>;

/**
 * A rule "checks with `item` also have `with_item`": `checks` with both; support = checks with both ÷ all checks;
 * confidence = checks with both ÷ checks with `item`; lift = support ÷ (share with `item` × share with `with_item`).
 */
export const BasketPairSchema = z.object({
  item_id: z.number().int(),
  item: z.string(),
  with_item_id: z.number().int(),
  with_item: z.string(),
  checks: z.number().int(),
  support: z.number(),
  confidence: z.number(),
  lift: z.number(),
});
/** One item pair rule. */
export type BasketPair = z.infer<typeof BasketPairSchema>;

/** `GET /analytics/basket/` answer. */
export const BasketSchema = DashboardRangesSchema.extend({
  totals: BasketTotalsSchema,
  previous_totals: BasketTotalsSchema.nullable(),
  min_support: z.number(),
  day_part: z.enum(DAY_PARTS).nullable(),
  /** The most checks first, at most `item_limit`. */
  items: z.array(BasketItemSchema),
  item_limit: z.number().int(),
  categories: z.array(BasketCategorySchema),
  /** Pairs among the `pair_item_limit` items on most checks (or with `menu_item_id`), most support first. */
  pairs: z.array(BasketPairSchema),
  pair_item_limit: z.number().int(),
  pair_limit: z.number().int(),
  /**
   * How "guests who ordered X" becomes a segment (rules `location` in `location_ids` when not null and
   * `ordered_item` any X with `window_days`): the window reaches from `from_date` to the company's today, so it is
   * offered only when the range ends today (or later) and no day part is picked; otherwise null with `reason`.
   */
  segment: z.object({
    location_ids: z.array(z.number().int()).nullable(),
    window_days: z.number().int().nullable(),
    reason: z.enum(['ok', 'past_range', 'day_part']),
  }),
});
/** `GET /analytics/basket/` answer. */
export type Basket = z.infer<typeof BasketSchema>;

/**
 * `GET /analytics/basket/item-guests/` query: the basket's range, locations and day part, and the item whose
 * guests are counted ("guests who ordered X").
 */
export const BasketItemGuestsQuerySchema = dashboardQueryFields
  .omit({ compare: true })
  .extend({
    day_part: DayPartFilterSchema,
    menu_item_id: MenuItemIdSchema,
  })
  .superRefine(checkDashboardRange);
/** `GET /analytics/basket/item-guests/` query. */
export type BasketItemGuestsQuery = z.infer<typeof BasketItemGuestsQuerySchema>;

/** `GET /analytics/basket/item-guests/` answer: distinct guests with a check in the range holding the item, and when they were counted. */
export const BasketItemGuestsSchema = z.object({
  menu_item_id: z.number().int(),
  /** Checks without a guest are not counted. */
  guests: z.number().int(),
  /**
   * When a range of finished days was counted, kept for the company's day (docs/dashboards.md, "Kept audiences");
   * null when the answer is as current as the checks: a sum over the item presence rollup, or a range reaching
   * today counted at this ask.
   */
  counted_at: z.string().datetime().nullable(),
});
/** `GET /analytics/basket/item-guests/` answer. */
export type BasketItemGuests = z.infer<typeof BasketItemGuestsSchema>;
