import type { DayPart } from '../../src/schemas/segment-catalogue.js';
import type {
  Recommendation,
  RecommendationDetails,
  RecommendationKind,
  RecommendedSegment,
} from '../../src/schemas/home-dashboard.js';
import { addDays, type DayBounds } from '../../src/schemas/dashboard-query.js';
import type { SegmentRuleSet } from '../../src/schemas/segments.js';
import type { Sql } from '../db/database.js';
import {
  hasLiveBirthdayFlow,
  lapsedRegularsByLocation,
  locationNames,
  weekdayDayPartChecks,
  type WeekdayDayPartRow,
} from '../repositories/home-dashboard.repository.js';
import { bestSellers } from '../repositories/basket.repository.js';
import { countSegmentMembers } from '../repositories/segment-rules.repository.js';
import { keptAudiences, type KeptAudience } from '../repositories/kept-audiences.repository.js';
import { audienceKey, keptOrCounted, type CountMoment } from './kept-audiences.js';

/**
 * The home dashboard's recommendations (docs/dashboards.md, "Recommendations"): each a segment built from the
 * company's own figures, its audience the guests the saved segment will count (the segment engine, or for the
 * lapsed regulars of every location one grouped count of the same figures),
 * ranked by audience × an assumed response rate × the range's average check. In three steps the service runs
 * (home-dashboard.service.ts): the candidates (`recommendationCandidates`) with their kept audiences
 * (`keptCandidateAudiences`), the missing ones counted (`countCandidateAudiences`, in the background), the ranking
 * of those counted (`rankRecommendations`).
 */

/** The share of an audience assumed to come back for each kind of message (docs/dashboards.md). */
export const RESPONSE_RATES: Record<RecommendationKind, number> = {
  lapsed_regulars: 0.1,
  birthdays: 0.25,
  slow_day_part: 0.05,
  untried_item: 0.08,
};

/** Lapsed regulars: at least this many visits to the location … */
export const LAPSED_MIN_VISITS = 3;
/** … and none there for at least this many days. */
export const LAPSED_DAYS = 60;
/** Regulars for the untried best seller: at least this many visits. */
export const REGULAR_MIN_VISITS = 3;
/** The slow day part's segment looks at the guests' last this many days. */
export const DAY_PART_WINDOW_DAYS = 90;
/** The slow day part compares at most the range's last this many days (eight whole weeks): raw checks are read. */
export const DAY_PART_MAX_DAYS = 56;
/** A weekday's day part is "well below" at or under this share of the five weekdays' average. */
export const SLOW_SHARE = 0.75;
/** … counted only when the day part had at least this many weekday checks in the range. */
export const SLOW_MIN_CHECKS = 20;

/** A recommendation's details before its kind fills in its own. */
export const NO_DETAILS: RecommendationDetails = {
  location_id: null,
  location_name: null,
  month: null,
  weekday: null,
  day_part: null,
  checks: null,
  average_checks: null,
  item_id: null,
  item_name: null,
};

/** A candidate before counting: its kind, details and rules. */
export interface Candidate {
  kind: RecommendationKind;
  details: RecommendationDetails;
  description: string;
  /** The segment's own locations (its picker); empty: every location. */
  locationIds: number[];
  rules: Record<string, unknown>[];
}

/** The days the slow day part reads: the range's last `DAY_PART_MAX_DAYS` days, the whole range when shorter. */
export function dayPartRange(range: DayBounds): DayBounds {
  const from = addDays(range.to, -(DAY_PART_MAX_DAYS - 1));
  return { from: from > range.from ? from : range.from, to: range.to };
}

/** How many times each ISO weekday (1–7) falls in an inclusive range of days. */
export function weekdayOccurrences(range: DayBounds): Map<number, number> {
  const counts = new Map<number, number>();
  for (
    let day = new Date(`${range.from}T00:00:00Z`);
    day <= new Date(`${range.to}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() + 1)
  ) {
    const weekday = ((day.getUTCDay() + 6) % 7) + 1;
    counts.set(weekday, (counts.get(weekday) ?? 0) + 1);
  }
  return counts;
}

/** Two decimals. */
const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The weekday (Monday–Friday) day part furthest below its day part's weekday average, in checks per such day of
 * the range, when it is at most `SLOW_SHARE` of it and the day part had `SLOW_MIN_CHECKS` weekday checks; else null.
 */
export function slowestDayPart(
  rows: readonly WeekdayDayPartRow[],
  range: DayBounds,
): { weekday: number; day_part: DayPart; perDay: number; average: number } | null {
  const occurrences = weekdayOccurrences(range);
  let slowest: { weekday: number; day_part: DayPart; perDay: number; average: number; share: number } | null =
    null;
  for (const part of ['breakfast', 'lunch', 'dinner', 'late'] as const) {
    const weekdays = [1, 2, 3, 4, 5].filter((weekday) => (occurrences.get(weekday) ?? 0) > 0);
    const perDay = weekdays.map((weekday) => {
      const checks = rows.find((row) => row.weekday === weekday && row.day_part === part)?.checks ?? 0;
      return { weekday, checks, perDay: checks / occurrences.get(weekday)! };
    });
    const total = perDay.reduce((sum, day) => sum + day.checks, 0);
    if (weekdays.length === 0 || total < SLOW_MIN_CHECKS) continue;
    const average = perDay.reduce((sum, day) => sum + day.perDay, 0) / perDay.length;
    for (const day of perDay) {
      const share = day.perDay / average;
      if (share <= SLOW_SHARE && (slowest === null || share < slowest.share)) {
        slowest = { weekday: day.weekday, day_part: part, perDay: day.perDay, average, share };
      }
    }
  }
  return (
    slowest && {
      weekday: slowest.weekday,
      day_part: slowest.day_part,
      perDay: round2(slowest.perDay),
      average: round2(slowest.average),
    }
  );
}

/** The candidates of the company's figures over the range and locations (null: all). */
async function candidates(
  sql: Sql,
  companyId: number,
  locationIds: number[] | null,
  range: DayBounds,
  month: number,
): Promise<Candidate[]> {
  const picker = locationIds ?? [];
  const found: Candidate[] = [];
  // Lapsed regulars: one candidate per location; the best is kept once counted.
  for (const location of await locationNames(sql, companyId, locationIds)) {
    found.push({
      kind: 'lapsed_regulars',
      details: { ...NO_DETAILS, location_id: location.id, location_name: location.name },
      description: `${LAPSED_MIN_VISITS}+ visits to ${location.name}, none there in ${LAPSED_DAYS}+ days`,
      locationIds: [],
      rules: [
        { type: 'location', operator: 'in', value: [location.id] },
        { type: 'visit_count', operator: 'gte', value: LAPSED_MIN_VISITS },
        { type: 'days_since_last_visit', operator: 'gte', value: LAPSED_DAYS },
      ],
    });
  }
  if (!(await hasLiveBirthdayFlow(sql, companyId))) {
    found.push({
      kind: 'birthdays',
      details: { ...NO_DETAILS, month },
      description: 'Birthday in the current month; no birthday flow is live',
      locationIds: picker,
      rules: [{ type: 'birthday_month', operator: 'current', value: null }],
    });
  }
  // The range's last eight weeks at most, from the hourly rollup.
  const partDays = dayPartRange(range);
  const slow = slowestDayPart(await weekdayDayPartChecks(sql, companyId, locationIds, partDays), partDays);
  if (slow) {
    found.push({
      kind: 'slow_day_part',
      details: {
        ...NO_DETAILS,
        weekday: slow.weekday,
        day_part: slow.day_part,
        checks: slow.perDay,
        average_checks: slow.average,
      },
      description: `${slow.day_part} guests of the last ${DAY_PART_WINDOW_DAYS} days who never came on weekday ${slow.weekday}`,
      locationIds: picker,
      rules: [
        { type: 'day_part', operator: 'any', value: [slow.day_part], window_days: DAY_PART_WINDOW_DAYS },
        { type: 'weekday', operator: 'none', value: [slow.weekday], window_days: DAY_PART_WINDOW_DAYS },
      ],
    });
  }
  const [best] = await bestSellers(sql, companyId, locationIds, range, 1);
  if (best) {
    found.push({
      kind: 'untried_item',
      details: { ...NO_DETAILS, item_id: best.menu_item_id, item_name: best.name },
      description: `${REGULAR_MIN_VISITS}+ visits, never ordered ${best.name}`,
      locationIds: picker,
      rules: [
        { type: 'visit_count', operator: 'gte', value: REGULAR_MIN_VISITS },
        { type: 'ordered_item', operator: 'none', value: [best.menu_item_id] },
      ],
    });
  }
  return found;
}

/** A candidate's segment as the click saves it. */
function segmentOf(candidate: Candidate): RecommendedSegment {
  return {
    description: candidate.description,
    location_ids: candidate.locationIds,
    group_ids: [],
    segment_groups: [{ segment_rules: candidate.rules }],
  };
}

/** The key a candidate's audience is kept under: its segment's own locations and rules. */
function segmentKey(candidate: Candidate): string {
  return audienceKey({
    location_ids: [...candidate.locationIds].sort((a, b) => a - b),
    segment_groups: [{ segment_rules: candidate.rules }],
  });
}

/**
 * Each candidate's audience, in order, in two statements whatever the number of locations: the lapsed regulars of
 * every location in one grouped count over `guest_locations` (the guests their segment's rules hold for), the
 * other candidates' segments counted by the segment engine together in one scan of the guests.
 */
async function countAudiences(
  sql: Sql,
  companyId: number,
  found: readonly Candidate[],
  picked: number[] | null,
  asOf: Date,
): Promise<number[]> {
  const lapsedAt = found
    .filter((candidate) => candidate.kind === 'lapsed_regulars')
    .map((candidate) => candidate.details.location_id!);
  const lapsed =
    lapsedAt.length === 0
      ? new Map<number, number>()
      : await lapsedRegularsByLocation(sql, companyId, lapsedAt, {
          minVisits: LAPSED_MIN_VISITS,
          days: LAPSED_DAYS,
          asOf,
        });
  // The other candidates' own locations are all the picked ones.
  const others = found.filter((candidate) => candidate.kind !== 'lapsed_regulars');
  const counts = await countSegmentMembers(
    sql,
    companyId,
    others.map((candidate) => ({
      segment_groups: [
        { segment_rules: candidate.rules as unknown as SegmentRuleSet['segment_groups'][0]['segment_rules'] },
      ],
    })),
    { locationIds: picked, asOf },
  );
  return found.map((candidate) =>
    candidate.kind === 'lapsed_regulars'
      ? (lapsed.get(candidate.details.location_id!) ?? 0)
      : counts[others.indexOf(candidate)]!,
  );
}

/** What the recommendations are worked out from: the locations (null: all), the range, and the company's day. */
export interface RecommendationScope {
  locationIds: number[] | null;
  range: DayBounds;
  /** The company's local day (`YYYY-MM-DD`) at the moment of the call. */
  today: string;
}

/** The recommendations a query may show before their audiences are known, each with the key its audience is kept under. */
export interface RecommendationCandidates {
  /** The locations the audiences are counted at (null: all). */
  picked: number[] | null;
  found: Candidate[];
  keys: string[];
}

/** The query's candidates (none for an empty pick of locations) and their audiences' keys. */
export async function recommendationCandidates(
  sql: Sql,
  companyId: number,
  scope: RecommendationScope,
): Promise<RecommendationCandidates> {
  if (scope.locationIds !== null && scope.locationIds.length === 0) {
    return { picked: scope.locationIds, found: [], keys: [] };
  }
  const month = Number(scope.today.slice(5, 7));
  const found = await candidates(sql, companyId, scope.locationIds, scope.range, month);
  return { picked: scope.locationIds, found, keys: found.map(segmentKey) };
}

/** Each candidate's audience kept today, in order; undefined where it has not been counted today. */
export async function keptCandidateAudiences(
  sql: Sql,
  companyId: number,
  today: string,
  { keys }: RecommendationCandidates,
): Promise<(KeptAudience | undefined)[]> {
  const kept = await keptAudiences(sql, companyId, today, keys);
  return keys.map((key) => kept.get(key));
}

/**
 * Each candidate's audience and when it was counted, in order: those kept today read back, the others counted now
 * (`countAudiences`) and kept for the rest of the day, until an import or the company's refresh forgets them
 * (docs/dashboards.md, "Recommendations").
 */
export async function countCandidateAudiences(
  sql: Sql,
  companyId: number,
  { picked, found, keys }: RecommendationCandidates,
  moment: CountMoment,
): Promise<KeptAudience[]> {
  return keptOrCounted(sql, companyId, moment, keys, (missing) =>
    countAudiences(
      sql,
      companyId,
      missing.map((index) => found[index]!),
      picked,
      moment.asOf,
    ),
  );
}

/** The ranked recommendations, when the earliest shown was counted, and whether some are still being counted. */
export interface RankedRecommendations {
  recommendations: Recommendation[];
  countedAt: Date | null;
  /** Some candidates' audiences are not counted yet: they are left out until they are. */
  counting: boolean;
}

/**
 * The candidates with a counted audience (`audiences`, in order; undefined: not counted yet) ranked: lapsed regulars
 * kept at their largest location (shown only once every location's is counted), empty audiences dropped, ranked by
 * expected revenue (audience × response rate × `averageCheck`), then audience, then kind.
 */
export function rankRecommendations(
  { found }: RecommendationCandidates,
  audiences: readonly (KeptAudience | undefined)[],
  averageCheck: number | null,
): RankedRecommendations {
  const countedAt = new Map<Recommendation, Date>();
  const counted: Recommendation[] = [];
  found.forEach((candidate, index) => {
    const kept = audiences[index];
    if (kept === undefined) return;
    const rate = RESPONSE_RATES[candidate.kind];
    const item: Recommendation = {
      kind: candidate.kind,
      audience: kept.audience,
      response_rate: rate,
      // No checks in the range: no average check to price the audience by, so no expected revenue (not $0).
      expected_revenue: averageCheck === null ? null : round2(kept.audience * rate * averageCheck),
      details: candidate.details,
      segment: segmentOf(candidate),
    };
    counted.push(item);
    countedAt.set(item, kept.counted_at);
  });
  const lapsedCounting = found.some(
    (candidate, index) => candidate.kind === 'lapsed_regulars' && audiences[index] === undefined,
  );
  const lapsed = lapsedCounting
    ? undefined
    : counted.filter((item) => item.kind === 'lapsed_regulars').sort((a, b) => b.audience - a.audience)[0];
  const order = ['lapsed_regulars', 'birthdays', 'slow_day_part', 'untried_item'];
  const ranked = counted
    .filter((item) => item.kind !== 'lapsed_regulars' || item === lapsed)
    .filter((item) => item.audience > 0)
    .sort(
      (a, b) =>
        (b.expected_revenue ?? 0) - (a.expected_revenue ?? 0) ||
        b.audience - a.audience ||
        order.indexOf(a.kind) - order.indexOf(b.kind),
    );
  // When the earliest audience shown was counted.
  const times = ranked.map((item) => countedAt.get(item)!.getTime());
  return {
    recommendations: ranked,
    countedAt: times.length === 0 ? null : new Date(Math.min(...times)),
    counting: audiences.some((audience) => audience === undefined),
  };
}
