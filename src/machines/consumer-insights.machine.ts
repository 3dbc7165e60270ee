import type { ConsumerInsights } from '../schemas/consumer-insights.js';
import { dashboardMachine } from './kit/dashboard-machine.js';

/** The consumer insights dashboard's own filter: the saved segment whose favourite categories show (null: all). */
export interface ConsumerInsightsExtra {
  segmentId: number | null;
}

/** The filter the dashboard starts with: every guest. */
export const CONSUMER_INSIGHTS_EXTRA: ConsumerInsightsExtra = { segmentId: null };

/** True when the range has no check at the locations: every chart would be empty. */
export function consumerInsightsIsEmpty(figures: ConsumerInsights): boolean {
  return figures.totals.checks === 0;
}

/**
 * /consumer/insights/analytics (docs/dashboards.md "Consumer insights") on the dashboard kit: the header's
 * locations, the shared range and comparison, plus the segment of the favourite categories (`extra.change`);
 * `empty` when the range has no check.
 */
export const consumerInsightsMachine = dashboardMachine<ConsumerInsights, ConsumerInsightsExtra>({
  id: 'consumerInsights',
  isEmpty: consumerInsightsIsEmpty,
  extra: CONSUMER_INSIGHTS_EXTRA,
});
