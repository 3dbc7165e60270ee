import type { AnalyticsSummary } from '../schemas/analytics-summary.js';
import { dashboardMachine } from './kit/dashboard-machine.js';
import { noChecks } from './summary-dashboard.machine.js';

/**
 * /aben-overview (Overview, docs/dashboards.md): location by location, each one's figures, change and trend, from
 * `GET /api/analytics/overview/`, on the dashboard kit.
 */
export const overviewDashboardMachine = dashboardMachine<AnalyticsSummary>({
  id: 'overviewDashboard',
  isEmpty: noChecks,
  extra: {},
});
