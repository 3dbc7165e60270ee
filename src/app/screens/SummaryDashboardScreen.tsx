import { SummaryDashboardView } from '../../views/analytics/SummaryDashboardView.js';
import { useDashboardActor } from '../use-dashboard-actor.js';
import { summaryDashboardLogic } from '../wiring/analytics-summary.js';

/** /analytics (Summary): the group at a glance over the header's locations and the session's range. */
export default function SummaryDashboardScreen() {
  const { actor, rangeProps } = useDashboardActor(summaryDashboardLogic);
  return <SummaryDashboardView actor={actor} {...rangeProps} />;
}
