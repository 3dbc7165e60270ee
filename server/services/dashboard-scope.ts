import {
  daysIn,
  MAX_DASHBOARD_DAYS,
  previousPeriod,
  type DashboardQuery,
} from '../../src/schemas/dashboard-query.js';
import type { Sql } from '../db/database.js';
import { fieldFailure, invalid, notFound } from '../http/errors.js';
import { groupPresenceReady } from '../repositories/group-presence.repository.js';
import { presenceScopeOf, type PresenceScope } from '../repositories/guest-presence.repository.js';
import { resolveLocationScope, type DayRange } from '../repositories/pos-analytics.repository.js';

/** What every dashboard call reads: the locations (null: all of the company's), the range and the one before. */
export interface DashboardScope {
  locationIds: number[] | null;
  range: DayRange;
  /** The same number of days just before `range`, when the query asks `compare=previous`; else null. */
  previous: DayRange | null;
  /** The distinct-guest rows that count these locations' guests (company, location, group); null: none do. */
  presence: PresenceScope | null;
}

/**
 * The scope of a dashboard call (docs/dashboards.md), inside the company's tenant transaction: the locations
 * of `location_id` and `location_group_id` (both: the locations in both), another company's or an unknown id a
 * 404 as the other analytics calls answer; a range the schema let through but no dashboard reads (reversed,
 * longer than `MAX_DASHBOARD_DAYS`) a 400 naming `to_date`.
 */
export async function resolveDashboardScope(
  sql: Sql,
  companyId: number,
  query: Pick<DashboardQuery, 'from_date' | 'to_date' | 'compare' | 'location_id' | 'location_group_id'>,
): Promise<DashboardScope> {
  const range = { from: query.from_date, to: query.to_date };
  if (range.to < range.from) {
    throw invalid({ to_date: fieldFailure('not_valid', 'to_date must not be before from_date') });
  }
  if (daysIn(range) > MAX_DASHBOARD_DAYS) {
    throw invalid({
      to_date: fieldFailure(
        'not_valid',
        `to_date must be at most ${MAX_DASHBOARD_DAYS} days after from_date`,
      ),
    });
  }
  const scope = await resolveLocationScope(sql, companyId, query.location_id, query.location_group_id);
  if (scope.kind === 'unknown') throw notFound(scope.field === 'location_id' ? 'Location' : 'Location group');
  return {
    locationIds: scope.ids,
    range,
    previous: query.compare === 'previous' ? previousPeriod(range) : null,
    presence: await presenceScopeFor(sql, companyId, scope.ids, query),
  };
}

/**
 * The presence rows that count exactly the guests of `locations` (`presenceScopeOf`), when they are filled: a
 * group whose members changed waits for the group worker (group-presence.repository.ts), and until then its
 * guests are counted from the guest-day rows (null).
 */
export async function presenceScopeFor(
  sql: Sql,
  companyId: number,
  locations: number[] | null,
  query: { location_id: readonly number[]; location_group_id: readonly number[] },
): Promise<PresenceScope | null> {
  const scope = presenceScopeOf(locations, query);
  if (scope?.kind !== 'group') return scope;
  return (await groupPresenceReady(sql, companyId, scope.id)) ? scope : null;
}
