import { forkJoin, map } from 'rxjs';
import { homeDashboardMachine, type HomeFigures } from '../../machines/home-dashboard.machine.js';
import type { DashboardRequest, NoExtra } from '../../machines/kit/dashboard-machine.js';
import {
  recommendationFollowMachine,
  type FollowRequest,
} from '../../machines/recommendation-follow.machine.js';
import { ChartDataSchema, HomeDashboardSchema } from '../../schemas/home-dashboard.js';
import { SegmentSchema } from '../../schemas/segment-records.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';
import { dashboardQuery } from './dashboard-call.js';

/** The home dashboard's figures: the chart data and the KPI cards with the recommendations, asked together. */
export const homeDashboardLogic = homeDashboardMachine.provide({
  actors: {
    loadFigures: apiCall((request: DashboardRequest<NoExtra>) =>
      forkJoin({
        chart: apiRequest({
          method: 'GET',
          path: '/analytics/chart-data/',
          query: dashboardQuery(request),
          schema: ChartDataSchema,
        }),
        home: apiRequest({
          method: 'GET',
          path: '/analytics/recommendations/',
          query: dashboardQuery(request),
          schema: HomeDashboardSchema,
        }),
      }).pipe(map((figures): HomeFigures => figures)),
    ),
  },
});

/** A recommendation's click: its segment saved as sent, under the name in the user's language. */
export const recommendationFollowLogic = recommendationFollowMachine.provide({
  actors: {
    saveSegment: apiCall(({ name, segment }: FollowRequest) =>
      apiRequest({
        method: 'POST',
        path: '/campaigns/segments/',
        body: { name, ...segment },
        schema: SegmentSchema,
      }).pipe(map((saved) => ({ id: saved.id }))),
    ),
  },
});
