import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/schemas/constants.js';
import { RULE_TYPES, SegmentTypesAnswerSchema } from '../../src/schemas/segment-catalogue.js';
import { checkRuleSet, segmentFieldPath } from '../../src/schemas/segments.js';
import { segmentTypeCatalogue } from '../../server/segments/segment-types.js';

const one = (rule: Record<string, unknown>, groups = 1) => ({
  segment_groups: [
    ...Array.from({ length: groups - 1 }, () => ({ segment_rules: [] })),
    { segment_rules: [rule] },
  ],
});

/** The problem fields of a rule set, or null when it passes. */
function problems(input: unknown) {
  const checked = checkRuleSet(input);
  return checked.ok ? null : checked.fields;
}

describe('segment rule sets', () => {
  it('name a path the way the API does', () => {
    expect(segmentFieldPath(['segment_groups', 1, 'segment_rules', 0, 'value'])).toBe(
      'segment_groups[1].segment_rules[0].value',
    );
  });

  it('accept an empty rule set, empty groups and a rule of every live type', () => {
    expect(problems({ segment_groups: [] })).toBeNull();
    expect(problems({ segment_groups: [{ segment_rules: [] }] })).toBeNull();
    const valid: Record<string, Record<string, unknown>> = {
      visit_count: { operator: 'between', value: [3, 5], window_days: 90 },
      total_spend: { operator: 'gte', value: 100.5 },
      days_since_last_visit: { operator: 'lte', value: 60 },
      first_visit: { operator: 'between', value: ['2025-01-01', '2025-02-28'] },
      location: { operator: 'in', value: [], group_ids: [4] },
      ordered_item: { operator: 'any', value: [1, 2], window_days: 30 },
      ordered_category: { operator: 'none', value: [1] },
      day_part: { operator: 'any', value: ['late'] },
      weekday: { operator: 'any', value: [6, 7] },
      birthday_month: { operator: 'in', value: [12] },
      birthday_within_days: { operator: 'lte', value: 7 },
      subscribed: { operator: 'is', value: false },
      marketable: { operator: 'is', value: true },
      trackable: { operator: 'is', value: true },
      in_list: { operator: 'any', value: [9] },
      zip: { operator: 'in', value: ['02134'] },
      rfm_cell: { operator: 'in', value: ['champions', 'lost'] },
      predicted_clv: { operator: 'gte', value: 250 },
      probability_alive: { operator: 'between', value: [0, 0.3] },
      received: { operator: 'any', value: [1] },
      opened: { operator: 'none', value: [1], window_days: 30 },
      clicked: { operator: 'any', value: [1] },
    };
    expect(Object.keys(valid).sort()).toEqual(RULE_TYPES.map((spec) => spec.type).sort());
    for (const [type, rule] of Object.entries(valid))
      expect(problems(one({ type, ...rule })), type).toBeNull();
  });

  it('accept the top N % by spend (1 to 100, with a window) and birthdays in the current month (null)', () => {
    for (const value of [1, 10, 100])
      expect(problems(one({ type: 'total_spend', operator: 'top_percent', value }))).toBeNull();
    expect(
      problems(one({ type: 'total_spend', operator: 'top_percent', value: 25, window_days: 365 })),
    ).toBeNull();
    expect(problems(one({ type: 'birthday_month', operator: 'current', value: null }))).toBeNull();
    expect(
      problems(one({ type: 'birthday_month', operator: 'current', value: null, window_days: 30 })),
    ).toEqual({
      'segment_groups[0].segment_rules[0].window_days': {
        code: 'not_valid',
        message: 'segment_groups[0].segment_rules[0].window_days is not an option of birthday_month',
      },
    });
    expect(problems(one({ type: 'total_spend', operator: 'top_percent', value: 0 }))).toEqual({
      'segment_groups[0].segment_rules[0].value': {
        code: 'not_valid',
        message: 'segment_groups[0].segment_rules[0].value must be a whole percentage from 1 to 100',
      },
    });
  });

  it('refuse an unknown type at the rule type path', () => {
    expect(problems(one({ type: 'shoe_size', operator: 'gte', value: 9 }, 2))).toEqual({
      'segment_groups[1].segment_rules[0].type': {
        code: 'not_valid',
        message: 'segment_groups[1].segment_rules[0].type is not a known rule type',
      },
    });
  });

  it('refuse an operator the type does not have', () => {
    const fields = problems(one({ type: 'zip', operator: 'gte', value: ['02134'] }));
    expect(Object.keys(fields ?? {})).toEqual(['segment_groups[0].segment_rules[0].operator']);
    expect(fields?.['segment_groups[0].segment_rules[0].operator']?.message).toContain('must be one of in');
  });

  it.each([
    ['a string for a count', { type: 'visit_count', operator: 'gte', value: '3' }],
    ['a negative count', { type: 'visit_count', operator: 'gte', value: -1 }],
    ['a fractional count', { type: 'visit_count', operator: 'eq', value: 1.5 }],
    ['three decimals of a dollar', { type: 'total_spend', operator: 'gte', value: 1.005 }],
    ['negative dollars', { type: 'total_spend', operator: 'lte', value: -5 }],
    ['between with min above max', { type: 'visit_count', operator: 'between', value: [5, 3] }],
    ['between with one end', { type: 'total_spend', operator: 'between', value: [5] }],
    ['dates out of order', { type: 'first_visit', operator: 'between', value: ['2025-03-01', '2025-01-01'] }],
    ['an impossible date', { type: 'first_visit', operator: 'on_or_after', value: '2025-02-30' }],
    ['a probability above one', { type: 'probability_alive', operator: 'gte', value: 1.2 }],
    ['an empty id list', { type: 'in_list', operator: 'any', value: [] }],
    ['a zero id', { type: 'ordered_item', operator: 'any', value: [0] }],
    ['an unknown day part', { type: 'day_part', operator: 'any', value: ['brunch'] }],
    ['weekday 8', { type: 'weekday', operator: 'any', value: [8] }],
    ['month 13', { type: 'birthday_month', operator: 'in', value: [13] }],
    ['a four-digit zip', { type: 'zip', operator: 'in', value: ['1234'] }],
    ['an unknown cell', { type: 'rfm_cell', operator: 'in', value: ['vips'] }],
    ['a flag as text', { type: 'trackable', operator: 'is', value: 'yes' }],
    ['no locations and no groups', { type: 'location', operator: 'in', value: [] }],
    ['a top share of 0 %', { type: 'total_spend', operator: 'top_percent', value: 0 }],
    ['a top share above 100 %', { type: 'total_spend', operator: 'top_percent', value: 101 }],
    ['a fractional top share', { type: 'total_spend', operator: 'top_percent', value: 10.5 }],
    ['a top share as text', { type: 'total_spend', operator: 'top_percent', value: '10' }],
    ['a value for this month', { type: 'birthday_month', operator: 'current', value: [6] }],
    ['no value at all for this month', { type: 'birthday_month', operator: 'current' }],
  ])('refuse %s at the value path', (_name, rule) => {
    const fields = problems(one(rule, 2));
    expect(Object.keys(fields ?? {})).toEqual(['segment_groups[1].segment_rules[0].value']);
  });

  it('refuse a bad window and an option the type does not take, each at its own path', () => {
    expect(
      Object.keys(problems(one({ type: 'visit_count', operator: 'gte', value: 1, window_days: 0 })) ?? {}),
    ).toEqual(['segment_groups[0].segment_rules[0].window_days']);
    expect(
      Object.keys(problems(one({ type: 'zip', operator: 'in', value: ['02134'], window_days: 7 })) ?? {}),
    ).toEqual(['segment_groups[0].segment_rules[0].window_days']);
  });

  it('refuse too many groups and a missing rule list', () => {
    const many = { segment_groups: Array.from({ length: 21 }, () => ({ segment_rules: [] })) };
    expect(Object.keys(problems(many) ?? {})).toEqual(['segment_groups']);
    expect(Object.keys(problems({ segment_groups: [{}] }) ?? {})).toEqual([
      'segment_groups[0].segment_rules',
    ]);
    expect(Object.keys(problems({}) ?? {})).toEqual(['segment_groups']);
  });
});

describe('the segment type catalogue', () => {
  it('lists every type with translated labels for each language, and marks email engagement not live', () => {
    for (const language of LANGUAGES) {
      const answer = SegmentTypesAnswerSchema.parse(segmentTypeCatalogue(language));
      expect(answer.results.map((entry) => entry.type)).toEqual(RULE_TYPES.map((spec) => spec.type));
      for (const entry of answer.results) {
        // A label missing from the language file would fall back to its bare name.
        expect(entry.label).not.toBe(entry.type);
        for (const operator of entry.operators) expect(operator.label).not.toBe('');
        for (const option of entry.options) expect(option.label).not.toBe(option.option);
      }
    }
    // The later forms: their own value kinds, labelled in every language (not their bare names).
    for (const language of LANGUAGES) {
      const results = segmentTypeCatalogue(language).results;
      const operator = (type: string, name: string) =>
        results.find((entry) => entry.type === type)?.operators.find((entry) => entry.operator === name);
      expect(operator('total_spend', 'top_percent')).toMatchObject({ value_kind: 'percent', range: false });
      expect(operator('birthday_month', 'current')).toMatchObject({ value_kind: 'none', range: false });
      expect(operator('total_spend', 'top_percent')?.label).not.toBe('top_percent');
      expect(operator('birthday_month', 'current')?.label).not.toBe('current');
    }
    const english = segmentTypeCatalogue('en').results;
    expect(english.filter((entry) => !entry.live).map((entry) => entry.type)).toEqual([
      'received',
      'opened',
      'clicked',
    ]);
    expect(english.find((entry) => entry.type === 'visit_count')).toMatchObject({
      label: 'Visits',
      label_key: 'segmentRules.types.visit_count',
      options: [{ option: 'window_days', label: 'In the last (days)' }],
    });
  });
});
