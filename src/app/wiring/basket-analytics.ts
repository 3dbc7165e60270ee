import { map } from 'rxjs';
import type { BasketExtra } from '../../machines/basket-analytics.machine.js';
import { basketAnalyticsMachine } from '../../machines/basket-analytics.machine.js';
import { basketSegmentMachine, type BasketSegmentRequest } from '../../machines/basket-segment.machine.js';
import type { DashboardRequest } from '../../machines/kit/dashboard-machine.js';
import { BasketSchema } from '../../schemas/basket-analytics.js';
import { SegmentSchema } from '../../schemas/segment-records.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

/** The basket dashboard's call: `GET /analytics/basket/` with the locations, range, comparison and own filters. */
export const basketAnalyticsLogic = basketAnalyticsMachine.provide({
  actors: {
    loadFigures: apiCall(({ filter, range, compare, extra }: DashboardRequest<BasketExtra>) =>
      apiRequest({
        method: 'GET',
        path: '/analytics/basket/',
        query: {
          location_id: filter.location_id,
          location_group_id: filter.location_group_id,
          from_date: range.from,
          to_date: range.to,
          compare: compare ? 'previous' : undefined,
          min_support: extra.minSupport,
          day_part: extra.dayPart ?? undefined,
        },
        schema: BasketSchema,
      }),
    ),
  },
});

/**
 * "Guests who ordered X" saved as a segment: the dashboard's locations as a `location` rule (scoping the item's
 * checks to them) and `ordered_item` over the window from the range's first day to today.
 */
export const basketSegmentLogic = basketSegmentMachine.provide({
  actors: {
    saveSegment: apiCall(({ name, itemId, locationIds, windowDays }: BasketSegmentRequest) =>
      apiRequest({
        method: 'POST',
        path: '/campaigns/segments/',
        body: {
          name,
          segment_groups: [
            {
              segment_rules: [
                ...(locationIds ? [{ type: 'location', operator: 'in', value: locationIds }] : []),
                { type: 'ordered_item', operator: 'any', value: [itemId], window_days: windowDays },
              ],
            },
          ],
        },
        schema: SegmentSchema,
      }).pipe(map((segment) => ({ id: segment.id }))),
    ),
  },
});
