import { customerJourneyDashboardMachine } from '../../machines/customer-journey-dashboard.machine.js';
import { CustomerJourneySchema } from '../../schemas/customer-journey.js';
import { dashboardCall } from './dashboard-call.js';

/** The customer journey dashboard's call (`GET /api/analytics/customer-journey/`). */
export const customerJourneyDashboardLogic = customerJourneyDashboardMachine.provide({
  actors: { loadFigures: dashboardCall('/analytics/customer-journey/', CustomerJourneySchema) },
});
