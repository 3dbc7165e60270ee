import type { ConsumerInsightsExtra } from '../../machines/consumer-insights.machine.js';
import { consumerInsightsMachine } from '../../machines/consumer-insights.machine.js';
import { ConsumerInsightsSchema } from '../../schemas/consumer-insights.js';
import { dashboardCall } from './dashboard-call.js';

/** The consumer insights call: `GET /analytics/consumer-insights/` with the locations, range and segment. */
export const consumerInsightsLogic = consumerInsightsMachine.provide({
  actors: {
    loadFigures: dashboardCall(
      '/analytics/consumer-insights/',
      ConsumerInsightsSchema,
      (extra: ConsumerInsightsExtra) => ({ segment_id: extra.segmentId ?? undefined }),
    ),
  },
});
