import type { CustomerJourney } from '../schemas/customer-journey.js';
import { dashboardMachine } from './kit/dashboard-machine.js';

/** True when no guest came to the locations in the range: no journey, no visit, nothing to compare. */
export function customerJourneyIsEmpty(figures: CustomerJourney): boolean {
  return figures.totals.guests === 0 && figures.gaps.length === 0;
}

/** The customer journey dashboard (`/heatmap`; docs/dashboards.md "Customer journey"). */
export const customerJourneyDashboardMachine = dashboardMachine<CustomerJourney>({
  id: 'customerJourneyDashboard',
  isEmpty: customerJourneyIsEmpty,
  extra: {},
});
