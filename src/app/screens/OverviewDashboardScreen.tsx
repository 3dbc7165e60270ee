import { OverviewDashboardView } from '../../views/analytics/OverviewDashboardView.js';
import { useDashboardActor } from '../use-dashboard-actor.js';
import { overviewDashboardLogic } from '../wiring/analytics-summary.js';

/** /aben-overview (Overview): location by location over the header's locations and the session's range. */
export default function OverviewDashboardScreen() {
  const { actor, rangeProps } = useDashboardActor(overviewDashboardLogic);
  return <OverviewDashboardView actor={actor} {...rangeProps} />;
}
