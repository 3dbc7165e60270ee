import { groupPresenceReady } from '../repositories/group-presence.repository.js';
import type { CohortBenchmark, CohortList, CohortQuery, CohortRow } from '../../src/schemas/cohorts.js';
import type { Database, Sql } from '../db/database.js';
import { notFound } from '../http/errors.js';
import {
  findCohortCells,
  latestActivityMonth,
  resolveCohortLocations,
  type CohortCell,
} from '../repositories/cohort-rollups.repository.js';

/** A month `YYYY-MM-DD` (or `YYYY-MM`) as a count of months, so offsets are differences. */
export function monthNumber(month: string): number {
  return Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
}

/** A count of months back to `YYYY-MM`. */
export function monthName(number: number): string {
  return `${String(Math.floor(number / 12)).padStart(4, '0')}-${String((number % 12) + 1).padStart(2, '0')}`;
}

/** Rounds to `places` decimals. */
function round(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

/**
 * Cohort rows from cells: each cohort with offsets 0 … `months` − 1, up to the latest month with activity in
 * the filter (a month without a returning guest answers zeros).
 */
export function cohortRows(cells: readonly CohortCell[], months: number, latest: string | null): CohortRow[] {
  if (latest === null) return [];
  const last = monthNumber(latest);
  const byCohort = new Map<string, Map<number, CohortCell>>();
  for (const cell of cells) {
    const cohort = byCohort.get(cell.cohort_month) ?? new Map<number, CohortCell>();
    cohort.set(monthNumber(cell.activity_month) - monthNumber(cell.cohort_month), cell);
    byCohort.set(cell.cohort_month, cohort);
  }
  return [...byCohort].map(([cohortMonth, offsets]) => {
    const first = monthNumber(cohortMonth);
    const size = offsets.get(0)?.guests ?? 0;
    const row: CohortRow = { cohort: monthName(first), size, months: [] };
    for (let offset = 0; offset < months && first + offset <= last; offset++) {
      const cell = offsets.get(offset);
      const active = cell?.guests ?? 0;
      row.months.push({
        offset,
        month: monthName(first + offset),
        active,
        retention: size === 0 ? 0 : round(active / size, 4),
        revenue: (cell?.revenue_cents ?? 0) / 100,
        checks: cell?.checks ?? 0,
      });
    }
    return row;
  });
}

/** The size-weighted average of some cohort rows at each offset, over the rows that reached it. */
export function cohortBaseline(rows: readonly CohortRow[], months: number): CohortBenchmark['baseline'] {
  const baseline: CohortBenchmark['baseline'] = { months: [] };
  for (let offset = 0; offset < months; offset++) {
    const reached = rows.filter((row) => row.months.length > offset);
    if (reached.length === 0) break;
    const size = reached.reduce((total, row) => total + row.size, 0);
    const active = reached.reduce((total, row) => total + row.months[offset]!.active, 0);
    const revenueCents = reached.reduce(
      (total, row) => total + Math.round(row.months[offset]!.revenue * 100),
      0,
    );
    const checks = reached.reduce((total, row) => total + row.months[offset]!.checks, 0);
    baseline.months.push({
      offset,
      cohorts: reached.length,
      size,
      active,
      retention: size === 0 ? 0 : round(active / size, 4),
      revenue_per_guest: size === 0 ? 0 : round(revenueCents / size / 100, 2),
      checks_per_guest: size === 0 ? 0 : round(checks / size, 3),
    });
  }
  return baseline;
}

/** The cohort months a date range names: those holding a day of it. */
function cohortRange(query: CohortQuery) {
  return {
    fromMonth: query.from_date ? `${query.from_date.slice(0, 7)}-01` : null,
    toMonth: query.to_date ? `${query.to_date.slice(0, 7)}-01` : null,
    months: query.months,
  };
}

/** The cohort rows of a set of locations (empty: the whole company). */
async function rowsOf(
  sql: Sql,
  companyId: number,
  locationIds: readonly number[],
  query: CohortQuery,
): Promise<CohortRow[]> {
  const groupId = await filledGroupOf(sql, companyId, locationIds, query);
  const cells = await findCohortCells(sql, companyId, { locationIds, groupId, ...cohortRange(query) });
  return cohortRows(cells, query.months, await latestActivityMonth(sql, companyId, locationIds));
}

/**
 * The location group whose own cohort rows answer a query: one group asked alone, of several locations (one
 * location or the whole company read their own rows), its rows filled by the group worker; else null.
 */
async function filledGroupOf(
  sql: Sql,
  companyId: number,
  locationIds: readonly number[],
  query: CohortQuery,
): Promise<number | null> {
  if (locationIds.length <= 1 || query.location_id.length > 0 || query.location_group_id.length !== 1)
    return null;
  const groupId = query.location_group_id[0]!;
  return (await groupPresenceReady(sql, companyId, groupId)) ? groupId : null;
}

/**
 * The locations a query means, the whole company as an empty list (then the company-wide rollups answer), or
 * null when it names only groups without locations. 404 for a location or group the company does not have.
 */
async function filterLocations(sql: Sql, companyId: number, query: CohortQuery): Promise<number[] | null> {
  if (query.location_id.length === 0 && query.location_group_id.length === 0) return [];
  const resolved = await resolveCohortLocations(sql, companyId, query.location_id, query.location_group_id);
  if (resolved.missingLocationIds.length > 0) throw notFound('Location');
  if (resolved.missingGroupIds.length > 0) throw notFound('Location group');
  if (resolved.locationIds.length === 0) return null;
  // Every location is the whole company: its own rollups are exact and quicker than a union.
  return resolved.locationIds.length === resolved.companyLocations ? [] : resolved.locationIds;
}

/** The cohort rows of a query's locations, groups and range (the cohort list; the guest analytics dashboard). */
export async function cohortRowsFor(sql: Sql, companyId: number, query: CohortQuery): Promise<CohortRow[]> {
  const locations = await filterLocations(sql, companyId, query);
  return locations === null ? [] : rowsOf(sql, companyId, locations, query);
}

/** The cohort calls: raw cohort rows, and the same rows beside the company's baseline. */
export function cohortsService(db: Database) {
  return {
    /** The monthly first-visit cohorts of the filter's locations, oldest first. */
    async list(companyId: number, query: CohortQuery): Promise<CohortList> {
      return db.tenant(companyId, async (sql) => ({ results: await cohortRowsFor(sql, companyId, query) }));
    },
    /**
     * The same rows with a baseline per offset: the company's own cohorts (all locations, same cohort months)
     * averaged by size, so one location reads against the group and, unfiltered, each cohort against the mean.
     */
    async benchmark(companyId: number, query: CohortQuery): Promise<CohortBenchmark> {
      return db.tenant(companyId, async (sql) => {
        const locations = await filterLocations(sql, companyId, query);
        const company = await rowsOf(sql, companyId, [], query);
        const results =
          locations === null
            ? []
            : locations.length === 0
              ? company
              : await rowsOf(sql, companyId, locations, query);
        return { baseline: cohortBaseline(company, query.months), results };
      });
    },
  };
}

/** The cohorts service. */
export type CohortsService = ReturnType<typeof cohortsService>;
