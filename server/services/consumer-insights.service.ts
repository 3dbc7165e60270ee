import {
  INSIGHT_DAY_PARTS,
  PARTY_SIZES,
  TOP_CATEGORY_COUNT,
  RETURN_GAP_BUCKETS,
  type CategoryShare,
  type ConsumerInsights,
  type ConsumerInsightsQuery,
  type InsightTotals,
  type ReturnGapBucket,
  type ReturnVisitGaps,
} from '../../src/schemas/consumer-insights.js';
import type { Database, Sql } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { rangeInstants } from '../repositories/company-clock.repository.js';
import type { PresenceScope } from '../repositories/guest-presence.repository.js';
import {
  hourFigures,
  laterRowReturnGaps,
  returnGapBins,
  returnGapsInBins,
  segmentCategoryFigures,
  type HourRow,
  type ReturnGapCount,
} from '../repositories/consumer-insights.repository.js';
import {
  menuCategoryFigures,
  salesFigures,
  type MenuCategoryFigureRow,
} from '../repositories/pos-analytics.repository.js';
import { getSegment, segmentChoices } from '../repositories/segments.repository.js';
import { resolveDashboardScope } from './dashboard-scope.js';
import { refusedAsInvalid } from './segment-input.js';
import { membersOf } from './segment-members.js';
import { averageCheck, dollars } from '../../src/schemas/dashboard-figures.js';
import type { DayBounds } from '../../src/schemas/dashboard-query.js';

/** A part of a whole in percent, two decimals; 0 of 0 is 0. */
const percent = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100;
const sum = (rows: readonly HourRow[], pick: (row: HourRow) => number) =>
  rows.reduce((total, row) => total + pick(row), 0);

/** The range's totals from its hour rows. */
export function totalsOf(rows: readonly HourRow[]): InsightTotals {
  const checks = sum(rows, (row) => row.checks);
  const cents = sum(rows, (row) => row.revenue_cents);
  const covers = sum(rows, (row) => row.covers);
  return {
    checks,
    revenue: dollars(cents),
    covers,
    average_check: averageCheck(cents, checks),
    average_party: checks === 0 ? null : Math.round((covers / checks) * 100) / 100,
  };
}

/** Checks, revenue and average check per day part, every day part listed. */
function dayPartsOf(rows: readonly HourRow[]) {
  return INSIGHT_DAY_PARTS.map((dayPart) => {
    const mine = rows.filter((row) => row.day_part === dayPart);
    const checks = sum(mine, (row) => row.checks);
    const cents = sum(mine, (row) => row.revenue_cents);
    return { day_part: dayPart, checks, revenue: dollars(cents), average_check: averageCheck(cents, checks) };
  });
}

/** Every weekday (1 Monday … 7 Sunday) × hour cell, 0 where no check opened. */
function hoursOf(rows: readonly HourRow[]) {
  const cells = [];
  for (let weekday = 1; weekday <= 7; weekday++) {
    for (let hour = 0; hour < 24; hour++) {
      const mine = rows.filter((row) => row.weekday === weekday && row.hour === hour);
      cells.push({
        weekday,
        hour,
        checks: sum(mine, (row) => row.checks),
        revenue: dollars(sum(mine, (row) => row.revenue_cents)),
      });
    }
  }
  return cells;
}

/** Checks by party size. */
function partySizesOf(rows: readonly HourRow[]) {
  const columns = ['party_1', 'party_2', 'party_3', 'party_4', 'party_5', 'party_6_plus'] as const;
  return PARTY_SIZES.map((size, index) => ({ size, checks: sum(rows, (row) => row[columns[index]!]) }));
}

/** The chart's bucket of a number of days (or of a bin, by its lowest number: the bins nest in the buckets). */
function bucketOf(days: number): ReturnGapBucket {
  return days <= 7
    ? '1_7'
    : days <= 14
      ? '8_14'
      : days <= 30
        ? '15_30'
        : days <= 60
          ? '31_60'
          : days <= 90
            ? '61_90'
            : '91_plus';
}

/** Adds up counts with the same key. */
function summed(rows: readonly ReturnGapCount[], key: (row: ReturnGapCount) => number): Map<number, number> {
  const sums = new Map<number, number>();
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0) + row.visits);
  return sums;
}

/**
 * The range's return visits at the locations by days since the previous visit, and their median (as
 * `percentile_cont(0.5)`: the mean of the two middle gaps when their number is even). The buckets are sums of the
 * bins' rows; only the bin(s) holding the middle visits are read by exact gap.
 */
async function returnVisitGaps(
  sql: Sql,
  companyId: number,
  locations: number[] | null,
  range: DayBounds,
): Promise<ReturnVisitGaps> {
  const later = await laterRowReturnGaps(sql, companyId, locations, range);
  const bins = [
    ...summed([...(await returnGapBins(sql, companyId, locations, range)), ...later], (row) => row.bin),
  ].sort(([a], [b]) => a - b);
  const visits = bins.reduce((total, [, count]) => total + count, 0);
  const middle = [Math.floor((visits - 1) / 2), Math.ceil((visits - 1) / 2)];
  // The bins holding the middle ranks: their first rank and their visits by exact gap.
  const holdingBins: number[] = [];
  const holding: { start: number; end: number; gaps: [number, number][] }[] = [];
  let start = 0;
  for (const [bin, count] of bins) {
    if (middle.some((rank) => rank >= start && rank < start + count)) {
      holding.push({ start, end: start + count, gaps: [] });
      holdingBins.push(bin);
    }
    start += count;
  }
  const exact = summed(
    [
      ...(await returnGapsInBins(sql, companyId, locations, range, holdingBins)),
      ...later.filter((row) => holdingBins.includes(row.bin)),
    ],
    (row) => row.gap!,
  );
  for (const [gap, count] of [...exact].sort(([a], [b]) => a - b)) {
    holding[holdingBins.filter((bin) => bin <= gap).length - 1]!.gaps.push([gap, count]);
  }
  const gapAt = (rank: number) => {
    const bin = holding.find((entry) => rank >= entry.start && rank < entry.end)!;
    let seen = bin.start;
    for (const [gap, count] of bin.gaps) {
      seen += count;
      if (rank < seen) return gap;
    }
    throw new Error(`no return visit at rank ${rank}`);
  };
  return {
    visits,
    median_days: visits === 0 ? null : (gapAt(middle[0]!) + gapAt(middle[1]!)) / 2,
    buckets: RETURN_GAP_BUCKETS.map((gap) => ({
      gap,
      visits: bins.filter(([bin]) => bucketOf(bin) === gap).reduce((total, [, count]) => total + count, 0),
    })),
  };
}

/** The top categories of `mine` (by items, then revenue, then name) beside every guest's shares. */
function categoryShares(
  mine: readonly MenuCategoryFigureRow[],
  all: readonly MenuCategoryFigureRow[],
): CategoryShare[] {
  const units = mine.reduce((total, row) => total + row.units, 0);
  const cents = mine.reduce((total, row) => total + row.revenue_cents, 0);
  const allUnits = all.reduce((total, row) => total + row.units, 0);
  const allCents = all.reduce((total, row) => total + row.revenue_cents, 0);
  return [...mine]
    .sort(
      (a, b) =>
        b.units - a.units ||
        b.revenue_cents - a.revenue_cents ||
        a.category.localeCompare(b.category) ||
        a.category_id - b.category_id,
    )
    .slice(0, TOP_CATEGORY_COUNT)
    .map((row) => {
      const every = all.find((other) => other.category_id === row.category_id);
      return {
        category_id: row.category_id,
        category: row.category,
        units: row.units,
        revenue: dollars(row.revenue_cents),
        units_share: percent(row.units, units),
        revenue_share: percent(row.revenue_cents, cents),
        all_units: every?.units ?? 0,
        all_revenue: dollars(every?.revenue_cents ?? 0),
        all_units_share: percent(every?.units ?? 0, allUnits),
        all_revenue_share: percent(every?.revenue_cents ?? 0, allCents),
      };
    });
}

/** The segment's categories (members' checks of the range) or, without one, every guest's. */
async function favouriteCategories(
  sql: Sql,
  companyId: number,
  segmentId: number | null,
  locations: number[] | null,
  range: DayBounds,
  presence: PresenceScope | null,
): Promise<ConsumerInsights['categories']> {
  const all = await menuCategoryFigures(sql, companyId, locations, range);
  let mine: { guests: number; categories: MenuCategoryFigureRow[] };
  if (segmentId === null) {
    // The range's distinct guests as the summary counts them (summed from the presence rollup for its scopes).
    mine = {
      guests: (await salesFigures(sql, companyId, locations, range, presence)).guests,
      categories: all,
    };
  } else {
    const row = await getSegment(sql, companyId, segmentId);
    if (!row) throw notFound('Segment');
    // A saved segment whose rules can no longer be counted (a rule retired since): a 400 naming the rule.
    mine = await membersOf(sql, companyId, row)
      .then(async (members) =>
        segmentCategoryFigures(
          sql,
          companyId,
          members,
          locations,
          await rangeInstants(sql, companyId, range),
        ),
      )
      .catch(refusedAsInvalid);
  }
  const total = (rows: readonly MenuCategoryFigureRow[], pick: (row: MenuCategoryFigureRow) => number) =>
    rows.reduce((sum, row) => sum + pick(row), 0);
  return {
    segment_id: segmentId,
    guests: mine.guests,
    units: total(mine.categories, (row) => row.units),
    revenue: dollars(total(mine.categories, (row) => row.revenue_cents)),
    all_units: total(all, (row) => row.units),
    all_revenue: dollars(total(all, (row) => row.revenue_cents)),
    rows: categoryShares(mine.categories, all),
  };
}

/** The consumer insights dashboard (`GET /api/analytics/consumer-insights/`; docs/dashboards.md). */
export function consumerInsightsService(db: Database) {
  return {
    /**
     * When the range's guests came (weekday × hour), their party sizes, day parts, days between visits, and a
     * segment's favourite categories beside every guest's, at the picked locations; the previous period's
     * totals, day parts and visit gaps with `compare=previous`. Another company's location, group or segment
     * is a 404.
     */
    async figures(companyId: number, query: ConsumerInsightsQuery): Promise<ConsumerInsights> {
      return db.tenant(companyId, async (sql) => {
        const scope = await resolveDashboardScope(sql, companyId, query);
        const locations = scope.locationIds;
        const range = { from: query.from_date, to: query.to_date };
        const previous = scope.previous && { from: scope.previous.from!, to: scope.previous.to! };
        const hours = await hourFigures(sql, companyId, locations, range);
        const before = previous ? await hourFigures(sql, companyId, locations, previous) : null;
        return {
          range,
          previous,
          totals: totalsOf(hours),
          previous_totals: before && totalsOf(before),
          hours: hoursOf(hours),
          party_sizes: partySizesOf(hours),
          day_parts: dayPartsOf(hours),
          previous_day_parts: before && dayPartsOf(before),
          visit_gaps: await returnVisitGaps(sql, companyId, locations, range),
          previous_visit_gaps: previous && (await returnVisitGaps(sql, companyId, locations, previous)),
          segments: await segmentChoices(sql, companyId),
          categories: await favouriteCategories(
            sql,
            companyId,
            query.segment_id ?? null,
            locations,
            range,
            scope.presence,
          ),
        };
      });
    },
  };
}

/** The consumer insights dashboard service. */
export type ConsumerInsightsService = ReturnType<typeof consumerInsightsService>;
