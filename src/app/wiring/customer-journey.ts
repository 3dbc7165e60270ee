import { customerJourneyDashboardMachine } from '../../machines/customer-journey-dashboard.machine.js';
import type { DashboardRequest, NoExtra } from '../../machines/kit/dashboard-machine.js';
import { CustomerJourneySchema } from '../../schemas/customer-journey.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

/** The customer journey dashboard's call (`GET /api/analytics/customer-journey/`). */
export const customerJourneyDashboardLogic = customerJourneyDashboardMachine.provide({
  actors: {
    loadFigures: apiCall(({ filter, range, compare }: DashboardRequest<NoExtra>) =>
      apiRequest({
        method: 'GET',
        path: '/analytics/customer-journey/',
        query: {
          from_date: range.from,
          to_date: range.to,
          compare: compare ? 'previous' : undefined,
          location_id: filter.location_id,
          location_group_id: filter.location_group_id,
        },
        schema: CustomerJourneySchema,
      }),
    ),
  },
});
