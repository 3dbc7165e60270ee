import { demographicsDashboardMachine } from '../../machines/demographics-dashboard.machine.js';
import { guestAnalyticsDashboardMachine } from '../../machines/guest-analytics-dashboard.machine.js';
import { DemographicsSchema } from '../../schemas/demographics-dashboard.js';
import { GuestAnalyticsSchema } from '../../schemas/guest-analytics-dashboard.js';
import { dashboardCall } from './dashboard-call.js';

/** The guest analytics dashboard's call (`GET /api/analytics/guests/`). */
export const guestAnalyticsDashboardLogic = guestAnalyticsDashboardMachine.provide({
  actors: { loadFigures: dashboardCall('/analytics/guests/', GuestAnalyticsSchema) },
});

/** The demographics dashboard's call (`GET /api/analytics/demographics/`). */
export const demographicsDashboardLogic = demographicsDashboardMachine.provide({
  actors: { loadFigures: dashboardCall('/analytics/demographics/', DemographicsSchema) },
});
