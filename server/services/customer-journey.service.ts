import {
  GAP_BUCKETS,
  TOP_VISIT_NUMBER,
  type CustomerJourney,
  type CustomerJourneyQuery,
  type JourneyTotals,
  type NextVisitGap,
} from '../../src/schemas/customer-journey.js';
import type { CompanyId, Database, Sql } from '../db/database.js';
import {
  journeyLocations,
  journeyMoves,
  locationSpread,
  nextVisitGaps,
  type NextGapRow,
  type JourneySource,
  type MoveRow,
} from '../repositories/customer-journey.repository.js';
import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import {
  oneLocationGuests,
  presenceTotals,
  type PresenceScope,
} from '../repositories/guest-presence.repository.js';
import { resolveDashboardScope } from './dashboard-scope.js';

/** Rounds a share (0–1) to four decimals, as the other percentages of the API. */
function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

/**
 * The `q` quantile (0–1) of values given as counts per value, sorted by value: linear interpolation between the
 * two nearest ranks (as PostgreSQL's `percentile_cont`), rounded to a tenth of a day; null without values.
 */
export function quantileOfCounts(
  counts: readonly { value: number; count: number }[],
  q: number,
): number | null {
  const total = counts.reduce((sum, entry) => sum + entry.count, 0);
  if (total === 0) return null;
  const position = q * (total - 1);
  const valueAt = (rank: number) => {
    let seen = 0;
    for (const entry of counts) {
      seen += entry.count;
      if (rank < seen) return entry.value;
    }
    return counts[counts.length - 1]!.value;
  };
  const low = Math.floor(position);
  const below = valueAt(low);
  const value = below + (valueAt(Math.min(low + 1, total - 1)) - below) * (position - low);
  return Math.round(value * 10) / 10;
}

/** One visit number's figures from its visits counted by days until the next visit. */
function gapOf(visitNumber: number, rows: readonly NextGapRow[]): NextVisitGap {
  const visits = rows.reduce((sum, row) => sum + row.visits, 0);
  const back = rows
    .filter((row): row is NextGapRow & { gap: number } => row.gap !== null)
    .sort((a, b) => a.gap - b.gap)
    .map((row) => ({ value: row.gap, count: row.visits }));
  const returned = back.reduce((sum, entry) => sum + entry.count, 0);
  const within = (days: number) =>
    ratio(
      back.filter((entry) => entry.value <= days).reduce((sum, entry) => sum + entry.count, 0),
      visits,
    );
  let lower = 0;
  const buckets = GAP_BUCKETS.map((bucket) => {
    const inside = back.filter(
      (entry) => entry.value > lower && (bucket.upTo === null || entry.value <= bucket.upTo),
    );
    lower = bucket.upTo ?? lower;
    return inside.reduce((sum, entry) => sum + entry.count, 0);
  });
  return {
    visit_number: visitNumber,
    visits,
    returned,
    median_days: quantileOfCounts(back, 0.5),
    p25_days: quantileOfCounts(back, 0.25),
    p75_days: quantileOfCounts(back, 0.75),
    within_30: within(30),
    within_60: within(60),
    within_90: within(90),
    buckets,
    not_returned: visits - returned,
  };
}

/** How a call reads its figures: from the rollups or the raw checks, and the presence scope of its locations. */
interface JourneyReading {
  source: JourneySource;
  presence: PresenceScope | null;
}

/**
 * The range's distinct guests at the locations and those of them at two or more locations: from the presence and
 * spread rows when a presence scope counts these locations (the dashboard), else by grouping the range's
 * guest-day rows per guest (picked locations no scope counts, and the raw comparison).
 */
async function spreadOf(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  { source, presence }: JourneyReading,
): Promise<{ guests: number; multi_location_guests: number }> {
  if (source === 'raw' || presence === null) return locationSpread(sql, companyId, locations, range, source);
  const guests = (await presenceTotals(sql, companyId, presence, range)).guests;
  return {
    guests,
    multi_location_guests: guests - (await oneLocationGuests(sql, companyId, presence, range)),
  };
}

/** The headline figures of a range at the locations. */
async function totalsOf(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: DayBounds,
  reading: JourneyReading,
  moves?: readonly MoveRow[],
): Promise<JourneyTotals> {
  const rows = moves ?? (await journeyMoves(sql, companyId, locations, range, reading.source));
  const spread = await spreadOf(sql, companyId, locations, range, reading);
  const newGuests = rows.reduce((sum, row) => sum + row.guests, 0);
  const returned = rows
    .filter((row) => row.to_location_id !== null)
    .reduce((sum, row) => sum + row.guests, 0);
  return {
    guests: spread.guests,
    multi_location_guests: spread.multi_location_guests,
    multi_location_share: ratio(spread.multi_location_guests, spread.guests),
    new_guests: newGuests,
    returned_guests: returned,
    return_rate: ratio(returned, newGuests),
  };
}

/**
 * The customer journey's figures inside the company's tenant transaction, from the rollups or (the bench's
 * comparison) the raw checks: the same answer either way.
 */
export async function journeyFigures(
  sql: Sql,
  companyId: CompanyId,
  query: CustomerJourneyQuery,
  source: JourneySource = 'rollup',
): Promise<CustomerJourney> {
  const scope = await resolveDashboardScope(sql, companyId, query);
  const range = { from: query.from_date, to: query.to_date };
  const previous = scope.previous && { from: scope.previous.from!, to: scope.previous.to! };
  const reading: JourneyReading = { source, presence: scope.presence };
  const moves = await journeyMoves(sql, companyId, scope.locationIds, range, source);
  const gapRows = await nextVisitGaps(sql, companyId, scope.locationIds, range, TOP_VISIT_NUMBER, source);
  const wanted = new Set(scope.locationIds ?? []);
  for (const move of moves) if (move.to_location_id !== null) wanted.add(move.to_location_id);
  const locations = await journeyLocations(sql, companyId, scope.locationIds && [...wanted]);
  return {
    range,
    previous,
    company_locations: locations.count,
    locations: locations.named,
    moves: moves.sort(
      (a, b) =>
        a.from_location_id - b.from_location_id ||
        (a.to_location_id ?? Infinity) - (b.to_location_id ?? Infinity),
    ),
    gaps: Array.from({ length: TOP_VISIT_NUMBER }, (_, index) => index + 1)
      .map((visitNumber) =>
        gapOf(
          visitNumber,
          gapRows.filter((row) => row.visit_number === visitNumber),
        ),
      )
      .filter((gap) => gap.visits > 0),
    totals: await totalsOf(sql, companyId, scope.locationIds, range, reading, moves),
    previous_totals: previous && (await totalsOf(sql, companyId, scope.locationIds, previous, reading)),
  };
}

/** The customer journey dashboard (`GET /api/analytics/customer-journey/`; docs/dashboards.md). */
export function customerJourneyService(db: Database) {
  return {
    /** The range's first-to-next location moves, days until the next visit by visit number, and headline figures. */
    async figures(companyId: number, query: CustomerJourneyQuery): Promise<CustomerJourney> {
      return db.tenant(companyId, (sql) => journeyFigures(sql, companyId, query));
    },
  };
}

/** The customer journey dashboard service. */
export type CustomerJourneyService = ReturnType<typeof customerJourneyService>;
