import type { Segment } from '../../../src/schemas/segment-records.js';

/** A saved segment's rules: 3+ visits in 90 days. */
export const RULES = [{ type: 'visit_count', operator: 'gte', value: 3, window_days: 90 }];
/** The zeroed figures of a segment never computed: id 10000 + its id (spec section 3). */
export function zeroCache(segment: number): Segment['segmentcache'] {
  return {
    id: 10_000 + segment,
    segment,
    all_customers: 0,
    all_customers_pct: 0,
    marketable_customers: 0,
    marketable_pct: 0,
    trackable_customers: 0,
    trackable_pct: 0,
    all_clv: 0,
    all_annual_clv: 0,
    all_clf: 0,
    all_recency: 0,
    marketable_clv: 0,
    marketable_annual_clv: 0,
    marketable_clf: 0,
    marketable_recency: 0,
    trackable_clv: 0,
    trackable_annual_clv: 0,
    trackable_clf: 0,
    trackable_recency: 0,
    computed_at: null,
  };
}

/** A saved segment whose figures are still being computed (the zeroed defaults, id 10000 + its id). */
export const REGULARS: Segment = {
  id: 4,
  name: 'Regulars',
  description: '4+ visits in 90 days',
  segment_type: 'custom',
  location_ids: [3],
  group_ids: [],
  segment_groups: [{ id: 11, segment_rules: RULES }],
  segmentcache: zeroCache(4),
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
};
