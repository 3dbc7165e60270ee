import { overviewDashboardMachine } from '../../machines/overview-dashboard.machine.js';
import { summaryDashboardMachine } from '../../machines/summary-dashboard.machine.js';
import { AnalyticsSummarySchema } from '../../schemas/analytics-summary.js';
import { dashboardCall } from './dashboard-call.js';

/** /analytics (Summary) with its call. */
export const summaryDashboardLogic = summaryDashboardMachine.provide({
  actors: { loadFigures: dashboardCall('/analytics/summary/', AnalyticsSummarySchema) },
});

/** /aben-overview (Overview) with its call. */
export const overviewDashboardLogic = overviewDashboardMachine.provide({
  actors: { loadFigures: dashboardCall('/analytics/overview/', AnalyticsSummarySchema) },
});
