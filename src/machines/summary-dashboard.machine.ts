import type { AnalyticsSummary } from '../schemas/analytics-summary.js';
import { dashboardMachine } from './kit/dashboard-machine.js';

/** True when the range had no checks at the chosen locations (the empty state says so). */
export const noChecks = (figures: AnalyticsSummary) => figures.totals.checks === 0;

/**
 * /analytics (Summary, docs/dashboards.md): the group at a glance, the headline figures against the previous
 * period and revenue and checks over time, from `GET /api/analytics/summary/`, on the dashboard kit.
 */
export const summaryDashboardMachine = dashboardMachine<AnalyticsSummary>({
  id: 'summaryDashboard',
  isEmpty: noChecks,
  extra: {},
});
