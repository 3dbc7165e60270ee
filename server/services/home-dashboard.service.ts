import type { DashboardQuery } from '../../src/schemas/dashboard-query.js';
import type { ChartData, HomeDashboard } from '../../src/schemas/home-dashboard.js';
import type { Database } from '../db/database.js';
import { companyToday, rangeInstants } from '../repositories/company-clock.repository.js';
import { dailySales, emailsSent } from '../repositories/home-dashboard.repository.js';
import { dollars } from '../../src/schemas/dashboard-figures.js';
import { salesKpis } from './dashboard-kpis.js';
import { resolveDashboardScope } from './dashboard-scope.js';
import { recommendations } from './home-recommendations.js';
import { countEachOpening } from './kept-audiences.js';

/** The home dashboard's calls (`/dashboard`, `/marketing-analytics`; docs/dashboards.md, "Recommendations"). */
export function homeDashboardService(db: Database, now: () => Date = () => new Date()) {
  return {
    /**
     * Spec §3's chart data: revenue and checks per day of the range (and the previous period's revenue laid
     * over the same days with `compare=previous`), the emails sent and the range's revenue.
     */
    async chartData(companyId: number, query: DashboardQuery): Promise<ChartData> {
      return db.tenant(companyId, async (sql) => {
        const scope = await resolveDashboardScope(sql, companyId, query);
        const range = { from: scope.range.from!, to: scope.range.to! };
        const days = await dailySales(sql, companyId, scope.locationIds, range);
        const charts: ChartData['charts'] = [
          { name: 'revenue', data: days.map((day) => ({ x: day.day, y: dollars(day.revenue_cents) })) },
          { name: 'checks', data: days.map((day) => ({ x: day.day, y: day.checks })) },
        ];
        if (scope.previous) {
          const before = await dailySales(sql, companyId, scope.locationIds, {
            from: scope.previous.from!,
            to: scope.previous.to!,
          });
          // Day n of the previous period is drawn over day n of the range.
          charts.push({
            name: 'previous_revenue',
            data: before.map((day, index) => ({ x: days[index]!.day, y: dollars(day.revenue_cents) })),
          });
        }
        return {
          range,
          previous: scope.previous && { from: scope.previous.from!, to: scope.previous.to! },
          charts,
          emails: await emailsSent(sql, companyId, await rangeInstants(sql, companyId, range)),
          revenue: dollars(days.reduce((sum, day) => sum + Number(day.revenue_cents), 0)),
        };
      });
    },

    /** The KPI cards (and the previous period's with `compare=previous`) and the ranked recommendations. */
    async recommendations(companyId: number, query: DashboardQuery): Promise<HomeDashboard> {
      return db.tenant(companyId, async (sql) => {
        const scope = await resolveDashboardScope(sql, companyId, query);
        const range = { from: scope.range.from!, to: scope.range.to! };
        const previous = scope.previous && { from: scope.previous.from!, to: scope.previous.to! };
        const kpis = await salesKpis(sql, companyId, scope.locationIds, range, scope.presence);
        const asOf = now();
        const { today } = await companyToday(sql, companyId, asOf);
        const ranked = await recommendations(sql, companyId, {
          locationIds: scope.locationIds,
          range,
          averageCheck: kpis.average_check,
          today,
          asOf,
        });
        return {
          range,
          previous,
          kpis,
          previous_kpis:
            previous && (await salesKpis(sql, companyId, scope.locationIds, previous, scope.presence)),
          recommendations: ranked.recommendations,
          audiences_counted_at: ranked.countedAt && ranked.countedAt.toISOString(),
        };
      });
    },
  };
}

/** The home dashboard service's calls. */
export type HomeDashboardService = ReturnType<typeof homeDashboardService>;

/**
 * Counts and keeps the recommendation audiences of each query the dashboard opens on (`countEachOpening`: the last
 * 30 days at every location, each group and each location), so the day's first call reads them: the company's
 * refresh calls it once it has forgotten the old ones (server/jobs/clv-runner.ts). Stops between two picks once
 * `signal` is aborted.
 */
export async function countOpeningAudiences(
  db: Database,
  companyId: number,
  signal?: AbortSignal,
  now: () => Date = () => new Date(),
): Promise<void> {
  const service = homeDashboardService(db, now);
  await countEachOpening(db, companyId, signal, now, (query) => service.recommendations(companyId, query));
}
