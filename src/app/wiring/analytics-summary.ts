import type { DashboardRequest, NoExtra } from '../../machines/kit/dashboard-machine.js';
import { overviewDashboardMachine } from '../../machines/overview-dashboard.machine.js';
import { summaryDashboardMachine } from '../../machines/summary-dashboard.machine.js';
import { AnalyticsSummarySchema } from '../../schemas/analytics-summary.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

/** The figures call of one of the two dashboards (`/analytics/summary/` or `/analytics/overview/`). */
const figuresFrom = (path: string) =>
  apiCall(({ filter, range, compare }: DashboardRequest<NoExtra>) =>
    apiRequest({
      method: 'GET',
      path,
      query: {
        from_date: range.from,
        to_date: range.to,
        compare: compare ? 'previous' : undefined,
        location_id: filter.location_id,
        location_group_id: filter.location_group_id,
      },
      schema: AnalyticsSummarySchema,
    }),
  );

/** /analytics (Summary) with its call. */
export const summaryDashboardLogic = summaryDashboardMachine.provide({
  actors: { loadFigures: figuresFrom('/analytics/summary/') },
});

/** /aben-overview (Overview) with its call. */
export const overviewDashboardLogic = overviewDashboardMachine.provide({
  actors: { loadFigures: figuresFrom('/analytics/overview/') },
});
