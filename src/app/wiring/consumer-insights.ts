import type { ConsumerInsightsExtra } from '../../machines/consumer-insights.machine.js';
import { consumerInsightsMachine } from '../../machines/consumer-insights.machine.js';
import type { DashboardRequest } from '../../machines/kit/dashboard-machine.js';
import { ConsumerInsightsSchema } from '../../schemas/consumer-insights.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

/** The consumer insights call: `GET /analytics/consumer-insights/` with the locations, range and segment. */
export const consumerInsightsLogic = consumerInsightsMachine.provide({
  actors: {
    loadFigures: apiCall(({ filter, range, compare, extra }: DashboardRequest<ConsumerInsightsExtra>) =>
      apiRequest({
        method: 'GET',
        path: '/analytics/consumer-insights/',
        query: {
          location_id: filter.location_id,
          location_group_id: filter.location_group_id,
          from_date: range.from,
          to_date: range.to,
          compare: compare ? 'previous' : undefined,
          segment_id: extra.segmentId ?? undefined,
        },
        schema: ConsumerInsightsSchema,
      }),
    ),
  },
});
