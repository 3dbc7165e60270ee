import { ConsumerInsightsView } from '../../views/consumer-insights/ConsumerInsightsView.js';
import { useDashboardActor } from '../use-dashboard-actor.js';
import { consumerInsightsLogic } from '../wiring/consumer-insights.js';

/** /consumer/insights/analytics: when the picked locations' guests come, in what parties, how often, what they like. */
export default function ConsumerInsightsScreen() {
  const { actor, rangeProps } = useDashboardActor(consumerInsightsLogic);
  return <ConsumerInsightsView actor={actor} {...rangeProps} />;
}
