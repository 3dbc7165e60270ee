import { describe, expect, it } from 'vitest';
import {
  NO_DETAILS,
  rankRecommendations,
  RESPONSE_RATES,
  type Candidate,
  type RecommendationCandidates,
} from '../../server/services/home-recommendations.js';
import type { KeptAudience } from '../../server/repositories/kept-audiences.repository.js';

const candidate = (kind: Candidate['kind'], locationId: number | null = null): Candidate => ({
  kind,
  details: { ...NO_DETAILS, location_id: locationId },
  description: kind,
  locationIds: [],
  rules: [],
});
const FOUND: RecommendationCandidates = {
  picked: null,
  found: [
    candidate('lapsed_regulars', 1),
    candidate('lapsed_regulars', 2),
    candidate('birthdays'),
    candidate('untried_item'),
  ],
  keys: ['l1', 'l2', 'b', 'u'],
};
const at = (hour: number) => new Date(Date.UTC(2026, 10, 29, hour));
const kept = (audience: number, hour = 8): KeptAudience => ({ audience, counted_at: at(hour) });

describe('ranking the recommendations counted so far', () => {
  it('ranks every counted one, the lapsed regulars at their largest location, by expected revenue', () => {
    const ranked = rankRecommendations(FOUND, [kept(30), kept(50, 7), kept(10), kept(0)], 20);
    expect(ranked.counting).toBe(false);
    // 50 × 10 % × $20 = $100 beats 10 × 25 % × $20 = $50; the empty untried audience is left out.
    expect(
      ranked.recommendations.map((item) => [item.kind, item.details.location_id, item.audience]),
    ).toEqual([
      ['lapsed_regulars', 2, 50],
      ['birthdays', null, 10],
    ]);
    expect(ranked.recommendations[0]!.expected_revenue).toBe(50 * RESPONSE_RATES.lapsed_regulars * 20);
    expect(ranked.countedAt).toEqual(at(7));
  });

  it('leaves out what is not counted yet, and the lapsed regulars until every location’s is', () => {
    const ranked = rankRecommendations(FOUND, [kept(30), undefined, kept(10, 9), undefined], 20);
    expect(ranked.counting).toBe(true);
    expect(ranked.recommendations.map((item) => item.kind)).toEqual(['birthdays']);
    expect(ranked.countedAt).toEqual(at(9));
    const none = rankRecommendations(FOUND, [undefined, undefined, undefined, undefined], 20);
    expect(none).toEqual({ recommendations: [], countedAt: null, counting: true });
  });
});
