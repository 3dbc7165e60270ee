import {
  SPEND_BUCKET_STARTS_CENTS,
  VISIT_BUCKET_STARTS,
  type DistributionBucket,
  type SegmentDashboardV2,
} from '../../src/schemas/segment-dashboard.js';
import type { Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { getSegmentCache } from '../repositories/segment-cache.repository.js';
import { segmentDistributions, type DistributionRow } from '../repositories/segment-rules.repository.js';
import { getSegment } from '../repositories/segments.repository.js';
import { scopeOf } from './pos-analytics.service.js';
import { presentSegmentCache } from './segment-cache-view.js';
import { refusedAsInvalid, ruleSetOf, segmentLocations } from './segment-input.js';
import type { LocationPicker } from './segments.service.js';

/**
 * The segment dashboard (v2) of spec section 7 (docs/segments.md): a segment's cached figures, and the
 * distributions of its members worked out now over its own locations and the picker's.
 */

/** The locations both sides allow (null: every location; an empty list: none). */
function bothScopes(own: number[] | null, picked: number[] | null): number[] | null {
  if (own === null) return picked;
  if (picked === null) return own;
  return own.filter((id) => picked.includes(id));
}

/** Every bucket of a distribution, from its lower bounds, with the members counted in each (0 when absent). */
function bucketsOf(
  rows: readonly DistributionRow[],
  kind: 'visits' | 'spend',
  starts: readonly number[],
  unit: number,
  step: number,
): DistributionBucket[] {
  const counted = new Map(rows.filter((row) => row.kind === kind).map((row) => [row.key, row.members]));
  return starts.map((start, index) => {
    const next = starts[index + 1];
    return {
      min: start / unit,
      // Both ends included: the next bucket's start less one step (a visit, a cent).
      max: next === undefined ? null : Math.max(start, next - step) / unit,
      count: counted.get(index) ?? 0,
    };
  });
}

/** The segment dashboard call. */
export function segmentDashboardService(db: Database) {
  return {
    /**
     * One segment's dashboard; 404 unless it is the company's or for another company's location in the picker,
     * 400 naming the rule when the segment cannot be counted any more.
     */
    async dashboard(companyId: number, id: number, picker: LocationPicker): Promise<SegmentDashboardV2> {
      const found = await db
        .tenant(companyId, async (sql) => {
          const row = await getSegment(sql, companyId, id);
          if (!row) return null;
          const picked = await scopeOf(sql, companyId, picker);
          const ruleSet = ruleSetOf(row.segment_groups.map(({ segment_rules }) => ({ segment_rules })));
          const locationIds = bothScopes(await segmentLocations(sql, companyId, row), picked);
          const rows = await segmentDistributions(
            sql,
            companyId,
            ruleSet,
            { visitStarts: VISIT_BUCKET_STARTS, spendStartsCents: SPEND_BUCKET_STARTS_CENTS },
            { locationIds },
          );
          return { row, cache: await getSegmentCache(sql, companyId, id), rows };
        })
        .catch(refusedAsInvalid);
      if (!found) throw notFound('Segment');
      const { row, cache, rows } = found;
      const visits = bucketsOf(rows, 'visits', VISIT_BUCKET_STARTS, 1, 1);
      return {
        segment: { id: Number(row.id), name: row.name },
        segmentcache: presentSegmentCache(cache, Number(row.id)),
        computing: cache === null,
        distributions: {
          members: visits.reduce((sum, bucket) => sum + bucket.count, 0),
          visits,
          spend: bucketsOf(rows, 'spend', SPEND_BUCKET_STARTS_CENTS, 100, 1),
          locations: rows
            .filter((entry) => entry.kind === 'location')
            .map((entry) => ({ id: entry.key, name: entry.name ?? '', count: entry.members }))
            .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name) || a.id - b.id),
        },
      };
    },
  };
}

/** The segment dashboard's calls. */
export type SegmentDashboardService = ReturnType<typeof segmentDashboardService>;
