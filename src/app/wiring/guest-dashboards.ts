import type { z } from 'zod';
import { demographicsDashboardMachine } from '../../machines/demographics-dashboard.machine.js';
import { guestAnalyticsDashboardMachine } from '../../machines/guest-analytics-dashboard.machine.js';
import type { DashboardRequest, NoExtra } from '../../machines/kit/dashboard-machine.js';
import { DemographicsSchema } from '../../schemas/demographics-dashboard.js';
import { GuestAnalyticsSchema } from '../../schemas/guest-analytics-dashboard.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

/** One dashboard call under `/api/analytics/…` with the locations, the range and the comparison asked. */
function dashboardCall<Schema extends z.ZodTypeAny>(path: string, schema: Schema) {
  return apiCall(({ filter, range, compare }: DashboardRequest<NoExtra>) =>
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
      schema,
    }),
  );
}

/** The guest analytics dashboard's call (`GET /api/analytics/guests/`). */
export const guestAnalyticsDashboardLogic = guestAnalyticsDashboardMachine.provide({
  actors: { loadFigures: dashboardCall('/analytics/guests/', GuestAnalyticsSchema) },
});

/** The demographics dashboard's call (`GET /api/analytics/demographics/`). */
export const demographicsDashboardLogic = demographicsDashboardMachine.provide({
  actors: { loadFigures: dashboardCall('/analytics/demographics/', DemographicsSchema) },
});
