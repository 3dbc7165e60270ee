import type { ChartData, HomeDashboard } from '../schemas/home-dashboard.js';
import { dashboardMachine } from './kit/dashboard-machine.js';

/** What the home dashboard shows: the chart data call's answer and the KPI cards with the recommendations. */
export interface HomeFigures {
  chart: ChartData;
  home: HomeDashboard;
}

/** Nothing to show: no check in the range at these locations and no recommendation either. */
export function homeIsEmpty(figures: HomeFigures): boolean {
  return figures.home.kpis.checks === 0 && figures.home.recommendations.length === 0;
}

/**
 * `/dashboard` and `/marketing-analytics` (docs/dashboards.md): the kit's dashboard machine over the two
 * calls (`GET /api/analytics/chart-data/` and `/api/analytics/recommendations/`, loaded together as one
 * `loadFigures`).
 */
export const homeDashboardMachine = dashboardMachine<HomeFigures>({
  id: 'homeDashboard',
  isEmpty: homeIsEmpty,
  extra: {},
});
