import type { Demographics } from '../schemas/demographics-dashboard.js';
import { dashboardMachine } from './kit/dashboard-machine.js';

/** True when no guest came and no subscriber joined at the locations in the range. */
export function demographicsIsEmpty(figures: Demographics): boolean {
  return figures.share.people === 0;
}

/** The demographics dashboard (`/demographics`; docs/dashboards.md). */
export const demographicsDashboardMachine = dashboardMachine<Demographics>({
  id: 'demographicsDashboard',
  isEmpty: demographicsIsEmpty,
  extra: {},
});
