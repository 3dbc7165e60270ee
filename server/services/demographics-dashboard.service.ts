import {
  AGE_BANDS,
  TOP_ZIP_COUNT,
  type Demographics,
  type DemographicsQuery,
  type PeopleShare,
} from '../../src/schemas/demographics-dashboard.js';
import type { Database } from '../db/database.js';
import { rangeInstants } from '../repositories/company-clock.repository.js';
import { demographicCounts, type KeyCount } from '../repositories/demographics.repository.js';
import { resolveDashboardScope } from './dashboard-scope.js';
import { presenceTotals } from '../repositories/guest-presence.repository.js';
import type { DayBounds } from '../../src/schemas/dashboard-query.js';

/** The people of one key of a breakdown (0 when absent). */
function countOf(counts: readonly KeyCount[], key: string | null): number {
  return counts.find((count) => count.key === key)?.people ?? 0;
}

/** The people by kind. */
function shareOf(kinds: readonly KeyCount[]): PeopleShare {
  const share = {
    guests_subscribed: countOf(kinds, 'guests_subscribed'),
    guests_only: countOf(kinds, 'guests_only'),
    subscribers_only: countOf(kinds, 'subscribers_only'),
  };
  return { people: share.guests_subscribed + share.guests_only + share.subscribers_only, ...share };
}

/** Rounds a share (0–1) to four decimals, as the other percentages of the API. */
function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

/** The demographics dashboard (`GET /api/analytics/demographics/`; docs/dashboards.md "Demographics"). */
export function demographicsDashboardService(db: Database) {
  return {
    /** The range's people at the locations by age band, home zip, zip against the location's, and kind. */
    async figures(companyId: number, query: DemographicsQuery): Promise<Demographics> {
      return db.tenant(companyId, async (sql) => {
        const scope = await resolveDashboardScope(sql, companyId, query);
        const range = { from: query.from_date, to: query.to_date };
        const previous = scope.previous && { from: scope.previous.from!, to: scope.previous.to! };
        // The range's distinct guests from the presence rollup when the scope has one: then only the subscribed
        // guests are read one by one (docs/dashboards.md, "Demographics").
        const guestsOf = async (days: DayBounds) =>
          scope.presence ? (await presenceTotals(sql, companyId, scope.presence, days)).guests : null;
        const counts = await demographicCounts(
          sql,
          companyId,
          scope.locationIds,
          range,
          await rangeInstants(sql, companyId, range),
          TOP_ZIP_COUNT,
          await guestsOf(range),
        );
        const share = shareOf(counts.kinds);
        const zips = counts.zips.filter((zip) => zip.key !== '').slice(0, TOP_ZIP_COUNT);
        const listed = zips.reduce((total, zip) => total + zip.people, 0);
        return {
          range,
          previous,
          share,
          previous_share:
            previous &&
            shareOf(
              (
                await demographicCounts(
                  sql,
                  companyId,
                  scope.locationIds,
                  previous,
                  await rangeInstants(sql, companyId, previous),
                  0,
                  await guestsOf(previous),
                )
              ).kinds,
            ),
          age_bands: AGE_BANDS.map((band) => ({ band, people: countOf(counts.bands, band) })),
          no_birthday: countOf(counts.bands, null),
          zips: zips.map((zip) => ({
            zip: zip.key,
            people: zip.people,
            share: ratio(zip.people, counts.zipped),
          })),
          other_zips: counts.zipped - listed,
          no_zip: share.people - counts.zipped,
          distance: {
            same_zip: countOf(counts.distance, 'same_zip'),
            elsewhere: countOf(counts.distance, 'elsewhere'),
            unknown: countOf(counts.distance, 'unknown'),
          },
        };
      });
    },
  };
}

/** The demographics dashboard service. */
export type DemographicsDashboardService = ReturnType<typeof demographicsDashboardService>;
