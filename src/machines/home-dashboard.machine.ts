import type { ChartData, HomeDashboard } from '../schemas/home-dashboard.js';
import { dashboardMachine } from './kit/dashboard-machine.js';

/** What the home dashboard shows: the chart data call's answer and the KPI cards with the recommendations. */
export interface HomeFigures {
  chart: ChartData;
  home: HomeDashboard;
}

/** Nothing to show: no check in the range at these locations and no recommendation either, nor any being counted. */
export function homeIsEmpty(figures: HomeFigures): boolean {
  return (
    figures.home.kpis.checks === 0 &&
    figures.home.recommendations.length === 0 &&
    !figures.home.audiences_counting
  );
}

/** Some recommendations' audiences are still being counted on the server: the machine asks again shortly. */
export function homeIsCounting(figures: HomeFigures): boolean {
  return figures.home.audiences_counting;
}

/**
 * `/dashboard` and `/marketing-analytics` (docs/dashboards.md): the kit's dashboard machine over the two
 * calls (`GET /api/analytics/chart-data/` and `/api/analytics/recommendations/`, loaded together as one
 * `loadFigures`), asking again while recommendations' audiences are being counted (`counting`).
 */
export const homeDashboardMachine = dashboardMachine<HomeFigures>({
  id: 'homeDashboard',
  isEmpty: homeIsEmpty,
  isCounting: homeIsCounting,
  extra: {},
});
