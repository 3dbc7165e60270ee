import { map } from 'rxjs';
import type { BasketExtra } from '../../machines/basket-analytics.machine.js';
import { basketAnalyticsMachine } from '../../machines/basket-analytics.machine.js';
import {
  basketSegmentMachine,
  type BasketItemCountRequest,
  type BasketSegmentRequest,
} from '../../machines/basket-segment.machine.js';
import { BasketItemGuestsSchema, BasketSchema } from '../../schemas/basket-analytics.js';
import { SegmentSchema } from '../../schemas/segment-records.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';
import { dashboardCall } from './dashboard-call.js';

/** The basket dashboard's call: `GET /analytics/basket/` with the locations, range, comparison and own filters. */
export const basketAnalyticsLogic = basketAnalyticsMachine.provide({
  actors: {
    loadFigures: dashboardCall('/analytics/basket/', BasketSchema, (extra: BasketExtra) => ({
      min_support: extra.minSupport,
      day_part: extra.dayPart ?? undefined,
    })),
  },
});

/**
 * "Guests who ordered X": the item's guests counted in the answer's range, resolved locations and day part; saved
 * as a segment with the dashboard's locations as a `location` rule (scoping the item's checks to them) and
 * `ordered_item` over the window from the range's first day to today.
 */
export const basketSegmentLogic = basketSegmentMachine.provide({
  actors: {
    countGuests: apiCall(({ from, to, locationIds, dayPart, itemId }: BasketItemCountRequest) =>
      apiRequest({
        method: 'GET',
        path: '/analytics/basket/item-guests/',
        query: {
          from_date: from,
          to_date: to,
          location_id: locationIds ?? undefined,
          day_part: dayPart ?? undefined,
          menu_item_id: itemId,
        },
        schema: BasketItemGuestsSchema,
      }).pipe(map((answer) => ({ guests: answer.guests, countedAt: answer.counted_at }))),
    ),
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
