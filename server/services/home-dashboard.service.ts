import type { DashboardQuery } from '../../src/schemas/dashboard-query.js';
import type { ChartData, HomeDashboard } from '../../src/schemas/home-dashboard.js';
import type { Database } from '../db/database.js';
import { companyToday, rangeInstants } from '../repositories/company-clock.repository.js';
import { dailySales, emailsSent } from '../repositories/home-dashboard.repository.js';
import { dollars } from '../../src/schemas/dashboard-figures.js';
import { salesKpis } from './dashboard-kpis.js';
import { resolveDashboardScope } from './dashboard-scope.js';
import { backgroundCounts } from './background-counts.js';
import {
  countCandidateAudiences,
  keptCandidateAudiences,
  rankRecommendations,
  recommendationCandidates,
  type RecommendationCandidates,
} from './home-recommendations.js';
import { audienceKey, countEachOpening, type CountMoment } from './kept-audiences.js';

/** How long the recommendations call waits for audiences being counted before answering without them. */
export const AUDIENCE_WAIT_MS = 60;

/** How the home dashboard service runs. */
export interface HomeDashboardOptions {
  /** How long a call waits for uncounted audiences (default `AUDIENCE_WAIT_MS`; infinite: until counted). */
  waitForAudiencesMs?: number;
  /** Told of a background count that failed (by the error's code: the log never sees a guest). */
  onCountFailed?: (error: unknown) => void;
}

/** The home dashboard's calls (`/dashboard`, `/marketing-analytics`; docs/dashboards.md, "Recommendations"). */
export function homeDashboardService(
  db: Database,
  now: () => Date = () => new Date(),
  options: HomeDashboardOptions = {},
) {
  const waitMs = options.waitForAudiencesMs ?? AUDIENCE_WAIT_MS;
  const counts = backgroundCounts(options.onCountFailed ?? (() => undefined));

  /**
   * Counts the candidates' missing audiences in their own transaction (joining a count of the same under way) and
   * waits `waitMs` at most: their audiences, or null while the count goes on.
   */
  function countInBackground(companyId: number, candidates: RecommendationCandidates, moment: CountMoment) {
    const key = audienceKey([companyId, moment.today, candidates.keys]);
    return counts.wait(
      key,
      () => db.tenant(companyId, (sql) => countCandidateAudiences(sql, companyId, candidates, moment)),
      waitMs,
    );
  }

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

    /**
     * The KPI cards (and the previous period's with `compare=previous`) and the ranked recommendations. Audiences
     * not kept today are counted in the background: the answer waits for them `waitForAudiencesMs` at most, then
     * leaves them out (`audiences_counting`) while their count goes on and is kept for the next ask.
     */
    async recommendations(companyId: number, query: DashboardQuery): Promise<HomeDashboard> {
      const asOf = now();
      const read = await db.tenant(companyId, async (sql) => {
        const scope = await resolveDashboardScope(sql, companyId, query);
        const range = { from: scope.range.from!, to: scope.range.to! };
        const previous = scope.previous && { from: scope.previous.from!, to: scope.previous.to! };
        const kpis = await salesKpis(sql, companyId, scope.locationIds, range, scope.presence);
        const previousKpis =
          previous && (await salesKpis(sql, companyId, scope.locationIds, previous, scope.presence));
        const { today } = await companyToday(sql, companyId, asOf);
        const candidates = await recommendationCandidates(sql, companyId, {
          locationIds: scope.locationIds,
          range,
          today,
        });
        const kept = await keptCandidateAudiences(sql, companyId, today, candidates);
        return { range, previous, kpis, previousKpis, today, candidates, kept };
      });
      const audiences = read.kept.includes(undefined)
        ? ((await countInBackground(companyId, read.candidates, { asOf, today: read.today })) ?? read.kept)
        : read.kept;
      const ranked = rankRecommendations(read.candidates, audiences, read.kpis.average_check);
      return {
        range: read.range,
        previous: read.previous,
        kpis: read.kpis,
        previous_kpis: read.previousKpis,
        recommendations: ranked.recommendations,
        audiences_counted_at: ranked.countedAt && ranked.countedAt.toISOString(),
        audiences_counting: ranked.counting,
      };
    },

    /** Waits until no audience is being counted in the background (the server's close). */
    settled: () => counts.settled(),
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
  const service = homeDashboardService(db, now, { waitForAudiencesMs: Number.POSITIVE_INFINITY });
  await countEachOpening(db, companyId, signal, now, (query) => service.recommendations(companyId, query));
}
