import { DemographicsDashboardView } from '../../views/guest-dashboards/DemographicsDashboardView.js';
import { demographicsDashboardLogic } from '../wiring/guest-dashboards.js';
import { useDashboardActor } from '../use-dashboard-actor.js';

/** /demographics: the picked locations' guests and new subscribers by age, home zip and kind. */
export default function DemographicsScreen() {
  const { actor, rangeProps } = useDashboardActor(demographicsDashboardLogic);
  return <DemographicsDashboardView actor={actor} {...rangeProps} />;
}
