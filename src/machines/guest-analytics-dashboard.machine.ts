import type { GuestAnalytics } from '../schemas/guest-analytics-dashboard.js';
import { dashboardMachine } from './kit/dashboard-machine.js';

/**
 * True when the guest analytics answer has nothing to chart: no guest came in the range and no cohort month
 * lies in it (a cohort of the range's months can still show returns when the range itself is quiet).
 */
export function guestAnalyticsIsEmpty(figures: GuestAnalytics): boolean {
  return figures.totals.guests === 0 && figures.cohorts.length === 0;
}

/** The guest analytics dashboard above the guest list (`/guest/analytics`; docs/dashboards.md). */
export const guestAnalyticsDashboardMachine = dashboardMachine<GuestAnalytics>({
  id: 'guestAnalyticsDashboard',
  isEmpty: guestAnalyticsIsEmpty,
  extra: {},
});
