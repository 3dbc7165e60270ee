import { createHash } from 'node:crypto';
import { rangeOfPreset } from '../../src/schemas/date-range.js';
import type { Database, Sql } from '../db/database.js';
import { companyToday } from '../repositories/company-clock.repository.js';
import { locationNames } from '../repositories/home-dashboard.repository.js';
import { listLocationGroups } from '../repositories/location-groups.repository.js';
import {
  forgetAudiences,
  keepAudiences,
  keptAudiences,
  lockAudiencesForCounting,
  type KeptAudience,
} from '../repositories/kept-audiences.repository.js';

/**
 * Audiences kept for the company's day (docs/dashboards.md, "Kept audiences"): counts of guests that take a scan of
 * every guest or of a range's checks — the recommendations' audiences, the basket's "guests who ordered X" — made
 * once a day, read back by the day's later calls, and forgotten when the guests' figures move (an import's end, the
 * company's refresh, the demo loader).
 */

/** When a count is made: the moment, and the company's local day it is kept for (`YYYY-MM-DD`). */
export interface CountMoment {
  asOf: Date;
  today: string;
}

/** The key an audience is kept under: the SHA-256 (hex) of what was counted, as JSON. */
export function audienceKey(counted: unknown): string {
  return createHash('sha256').update(JSON.stringify(counted)).digest('hex');
}

/**
 * Each of `keys`' audience and when it was counted, in order: those kept today read back, the others counted now
 * (`countMissing` gets their indexes in `keys` and answers their counts in that order) and kept for the rest of the
 * day. Two calls missing the same key at once both count it; the first to keep it is kept.
 */
export async function keptOrCounted(
  sql: Sql,
  companyId: number,
  moment: CountMoment,
  keys: readonly string[],
  countMissing: (missing: number[]) => Promise<number[]>,
): Promise<KeptAudience[]> {
  const kept = await keptAudiences(sql, companyId, moment.today, keys);
  const missing = keys.flatMap((key, index) => (kept.has(key) ? [] : [index]));
  if (missing.length > 0) {
    // A forget (an import's end, the refresh) waits for this count, so its data's count is never kept after it.
    await lockAudiencesForCounting(sql, companyId);
    const audiences = await countMissing(missing);
    const counted = new Map(missing.map((index, at) => [keys[index]!, audiences[at]!]));
    await keepAudiences(sql, companyId, moment.today, moment.asOf, counted);
    for (const [key, audience] of counted) kept.set(key, { audience, counted_at: moment.asOf });
  }
  return keys.map((key) => kept.get(key)!);
}

/**
 * Forgets the company's kept audiences, so the next call counts them again: the end of a CSV import, the company's
 * refresh (after many new checks, nightly) and the demo loader call it once the guests' figures have changed.
 */
export async function forgetKeptAudiences(db: Database, companyId: number): Promise<void> {
  await db.tenant(companyId, (sql) => forgetAudiences(sql, companyId));
}

/** A dashboard query the company's refresh counts ahead (the dashboards' own query fields). */
export interface OpeningQuery {
  from_date: string;
  to_date: string;
  location_id: number[];
  location_group_id: number[];
}

/**
 * What the dashboards open on, counted ahead by the company's refresh: their first range (the last 30 days) at every
 * location, at each group with locations and at each location, the picks a marketer of a restaurant group makes
 * most.
 */
async function openingQueries(db: Database, companyId: number, asOf: Date): Promise<OpeningQuery[]> {
  return db.tenant(companyId, async (sql) => {
    const { today } = await companyToday(sql, companyId, asOf);
    const range = rangeOfPreset('last30', today);
    const groups = (await listLocationGroups(sql, companyId)).filter(
      (group) => group.location_ids.length > 0,
    );
    const locations = await locationNames(sql, companyId, null);
    const opening = { from_date: range.from, to_date: range.to, location_id: [], location_group_id: [] };
    // A company of one location opens on it at "every location" already.
    const eachLocation = locations.length > 1 ? locations : [];
    return [
      opening,
      ...groups.map((group) => ({ ...opening, location_group_id: [group.id] })),
      ...eachLocation.map((location) => ({ ...opening, location_id: [location.id] })),
    ];
  });
}

/**
 * Runs `count` for each query a dashboard opens on (`openingQueries`), one after another, stopping between two once
 * `signal` is aborted: the company's refresh counts the day's opening audiences ahead with it.
 */
export async function countEachOpening(
  db: Database,
  companyId: number,
  signal: AbortSignal | undefined,
  now: () => Date,
  count: (query: OpeningQuery) => Promise<unknown>,
): Promise<void> {
  for (const query of await openingQueries(db, companyId, now())) {
    if (signal?.aborted) return;
    await count(query);
  }
}
