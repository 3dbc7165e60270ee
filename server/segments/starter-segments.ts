import type { Language } from '../../src/schemas/constants.js';
import type { SegmentRule } from '../../src/schemas/segments.js';
import { messagesFor } from '../../src/i18n/resources.js';

/**
 * The seven starter segments every company is given (issue 14; docs/segments.md "Starter segments"): ordinary
 * segments, edited, cloned and deleted like any other. Their rules are fixed here; their names and descriptions
 * come from `segmentStarters` in the owner's language when they are created, and are the company's own text
 * from then on.
 */

/** The key of a starter segment (`segmentStarters.<key>` in the locale files). */
export type StarterKey =
  | 'new_guests'
  | 'regulars'
  | 'lapsed_regulars'
  | 'big_spenders'
  | 'birthdays_this_month'
  | 'at_risk'
  | 'not_subscribed';

/** Each starter's rules, one group each, in the order they are created. */
export const STARTER_RULES: ReadonlyArray<{ key: StarterKey; rules: SegmentRule[] }> = [
  { key: 'new_guests', rules: [{ type: 'first_visit', operator: 'in_last_days', value: 30 }] },
  { key: 'regulars', rules: [{ type: 'visit_count', operator: 'gte', value: 4, window_days: 90 }] },
  {
    // Were regulars (4+ visits over all time) and have not come for 60 days: a last visit 60 or more days ago.
    key: 'lapsed_regulars',
    rules: [
      { type: 'visit_count', operator: 'gte', value: 4 },
      { type: 'days_since_last_visit', operator: 'gte', value: 60 },
    ],
  },
  { key: 'big_spenders', rules: [{ type: 'total_spend', operator: 'top_percent', value: 10 }] },
  { key: 'birthdays_this_month', rules: [{ type: 'birthday_month', operator: 'current', value: null }] },
  {
    // "Below 0.3": the operators compare inclusively, and a fitted probability of exactly 0.3 is vanishingly rare.
    key: 'at_risk',
    rules: [
      { type: 'probability_alive', operator: 'lte', value: 0.3 },
      { type: 'visit_count', operator: 'gte', value: 3 },
    ],
  },
  { key: 'not_subscribed', rules: [{ type: 'subscribed', operator: 'is', value: false }] },
];

/** A starter segment ready to save: its name and description in `language`, and its one group of rules. */
export interface StarterSegment {
  key: StarterKey;
  name: string;
  description: string;
  segment_groups: Array<{ segment_rules: SegmentRule[] }>;
}

/** The seven starter segments, named in `language`. */
export function starterSegments(language: Language): StarterSegment[] {
  const texts = messagesFor(language).segmentStarters;
  return STARTER_RULES.map(({ key, rules }) => ({
    key,
    name: texts[key].name,
    description: texts[key].description,
    segment_groups: [{ segment_rules: rules }],
  }));
}
