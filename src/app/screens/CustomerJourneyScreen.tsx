import { CustomerJourneyDashboardView } from '../../views/customer-journey/CustomerJourneyDashboardView.js';
import { customerJourneyDashboardLogic } from '../wiring/customer-journey.js';
import { useDashboardActor } from '../use-dashboard-actor.js';

/** /heatmap: where the picked locations' new guests went next and how soon guests come back, by visit number. */
export default function CustomerJourneyScreen() {
  const { actor, rangeProps } = useDashboardActor(customerJourneyDashboardLogic);
  return <CustomerJourneyDashboardView actor={actor} {...rangeProps} />;
}
