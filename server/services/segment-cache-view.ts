import type { SegmentCache } from '../../src/schemas/segment-records.js';
import { segmentCacheOrDefaults, type SegmentCacheRow } from '../repositories/segment-cache.repository.js';

/**
 * A segment's cached figures in the API's shape (spec section 3): the stored row, or the zeroed defaults with a
 * synthetic id while never computed. Numeric columns arrive as text from the driver, so each is a number here.
 */
export function presentSegmentCache(row: SegmentCacheRow | null, segmentId: number): SegmentCache {
  const figures = segmentCacheOrDefaults(row, segmentId);
  return {
    ...figures,
    all_customers_pct: Number(figures.all_customers_pct),
    marketable_pct: Number(figures.marketable_pct),
    trackable_pct: Number(figures.trackable_pct),
    all_clf: Number(figures.all_clf),
    all_recency: Number(figures.all_recency),
    marketable_clf: Number(figures.marketable_clf),
    marketable_recency: Number(figures.marketable_recency),
    trackable_clf: Number(figures.trackable_clf),
    trackable_recency: Number(figures.trackable_recency),
    computed_at: figures.computed_at ? figures.computed_at.toISOString() : null,
  };
}
