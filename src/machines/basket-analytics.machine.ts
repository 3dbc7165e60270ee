import type { Basket } from '../schemas/basket-analytics.js';
import { DEFAULT_MIN_SUPPORT } from '../schemas/basket-analytics.js';
import type { DayPart } from '../schemas/segment-catalogue.js';
import { dashboardMachine } from './kit/dashboard-machine.js';

/** The basket dashboard's own filters: the minimum support (percent of checks) and a day part (null: all day). */
export interface BasketExtra {
  minSupport: number;
  dayPart: DayPart | null;
}

/** The filters the dashboard starts with. */
export const BASKET_EXTRA: BasketExtra = { minSupport: DEFAULT_MIN_SUPPORT, dayPart: null };

/**
 * /basket-analytics (docs/dashboards.md, "Basket analytics") on the dashboard kit: the header's locations, the shared range and
 * comparison, plus the minimum support and the day part (`extra.change`); `empty` when the range has no check.
 */
export const basketAnalyticsMachine = dashboardMachine<Basket, BasketExtra>({
  id: 'basketAnalytics',
  isEmpty: (figures) => figures.totals.checks === 0,
  extra: BASKET_EXTRA,
});
