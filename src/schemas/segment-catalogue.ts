import { z } from 'zod';

/**
 * The segment rule catalogue (docs/segments.md): every rule type with its operators, the kind of value each
 * operator takes and the options it accepts. The rule set schema (`./segments.ts`) validates against it, the
 * server compiles it (`server/repositories/segment-rules/`) and `GET /campaigns/segment-types/` lists it, so the
 * rule builder is driven by the same table.
 */

/** What a rule's value is, as the builder edits it and the schema checks it. */
export const VALUE_KINDS = [
  'count',
  'dollars',
  'days',
  'date',
  'probability',
  'boolean',
  'location_ids',
  'item_ids',
  'category_ids',
  'list_ids',
  'campaign_ids',
  'day_parts',
  'weekdays',
  'months',
  'zips',
  'rfm_cells',
  'percent',
  'none',
] as const;
/** One of the value kinds. */
export type ValueKind = (typeof VALUE_KINDS)[number];

/** Options a rule may carry beside its value. */
export const RULE_OPTIONS = ['window_days', 'group_ids'] as const;
/** One of the rule options. */
export type RuleOption = (typeof RULE_OPTIONS)[number];

/** The day parts of docs/guest-data.md (opening hour in the location's time zone). */
export const DAY_PARTS = ['breakfast', 'lunch', 'dinner', 'late'] as const;
/** One day part. */
export type DayPart = (typeof DAY_PARTS)[number];

/** The named RFM cells (docs/segments.md has the grid of recency and frequency scores). */
export const RFM_CELLS = [
  'champions',
  'loyal',
  'potential_loyalists',
  'new',
  'promising',
  'need_attention',
  'about_to_sleep',
  'at_risk',
  'cant_lose_them',
  'hibernating',
  'lost',
] as const;
/** One RFM cell. */
export type RfmCell = (typeof RFM_CELLS)[number];

/** One operator of a type: its name, the kind of value, and whether the value is a `[min, max]` pair. */
export interface OperatorSpec {
  name: string;
  value: ValueKind;
  range?: boolean;
}

/** One rule type: its operators, the options it accepts, and whether it can be used yet. */
export interface RuleTypeSpec {
  type: string;
  operators: readonly OperatorSpec[];
  options: readonly RuleOption[];
  /** False for types designed ahead of their data (email engagement before campaigns send). */
  live: boolean;
}

const numeric = (kind: ValueKind): OperatorSpec[] => [
  { name: 'gte', value: kind },
  { name: 'lte', value: kind },
  { name: 'eq', value: kind },
  { name: 'between', value: kind, range: true },
];
const bounded = (kind: ValueKind): OperatorSpec[] => [
  { name: 'gte', value: kind },
  { name: 'lte', value: kind },
  { name: 'between', value: kind, range: true },
];
const anyOrNone = (kind: ValueKind): OperatorSpec[] => [
  { name: 'any', value: kind },
  { name: 'none', value: kind },
];
const flag: OperatorSpec[] = [{ name: 'is', value: 'boolean' }];

/** Every rule type, in the order the builder offers them. */
export const RULE_TYPES = [
  { type: 'visit_count', operators: numeric('count'), options: ['window_days'], live: true },
  {
    type: 'total_spend',
    // top_percent: among the top N % of the guests with a check, by the same spend (docs/segments.md).
    operators: [...numeric('dollars'), { name: 'top_percent', value: 'percent' }],
    options: ['window_days'],
    live: true,
  },
  { type: 'days_since_last_visit', operators: numeric('days'), options: [], live: true },
  {
    type: 'first_visit',
    operators: [
      { name: 'on_or_after', value: 'date' },
      { name: 'on_or_before', value: 'date' },
      { name: 'between', value: 'date', range: true },
      { name: 'in_last_days', value: 'days' },
      { name: 'before_last_days', value: 'days' },
    ],
    options: [],
    live: true,
  },
  {
    type: 'location',
    operators: [{ name: 'in', value: 'location_ids' }],
    options: ['group_ids'],
    live: true,
  },
  { type: 'ordered_item', operators: anyOrNone('item_ids'), options: ['window_days'], live: true },
  { type: 'ordered_category', operators: anyOrNone('category_ids'), options: ['window_days'], live: true },
  { type: 'day_part', operators: anyOrNone('day_parts'), options: ['window_days'], live: true },
  { type: 'weekday', operators: anyOrNone('weekdays'), options: ['window_days'], live: true },
  {
    type: 'birthday_month',
    // current: the month of the company's local date when counted, so a saved segment follows the calendar.
    operators: [
      { name: 'in', value: 'months' },
      { name: 'current', value: 'none' },
    ],
    options: [],
    live: true,
  },
  { type: 'birthday_within_days', operators: [{ name: 'lte', value: 'days' }], options: [], live: true },
  { type: 'subscribed', operators: flag, options: [], live: true },
  { type: 'marketable', operators: flag, options: [], live: true },
  { type: 'trackable', operators: flag, options: [], live: true },
  { type: 'in_list', operators: anyOrNone('list_ids'), options: [], live: true },
  { type: 'zip', operators: [{ name: 'in', value: 'zips' }], options: [], live: true },
  { type: 'rfm_cell', operators: [{ name: 'in', value: 'rfm_cells' }], options: [], live: true },
  { type: 'predicted_clv', operators: bounded('dollars'), options: [], live: true },
  { type: 'probability_alive', operators: bounded('probability'), options: [], live: true },
  { type: 'received', operators: anyOrNone('campaign_ids'), options: ['window_days'], live: false },
  { type: 'opened', operators: anyOrNone('campaign_ids'), options: ['window_days'], live: false },
  { type: 'clicked', operators: anyOrNone('campaign_ids'), options: ['window_days'], live: false },
] as const satisfies readonly RuleTypeSpec[];

/** One rule type name. */
export type RuleType = (typeof RULE_TYPES)[number]['type'];

/** The spec of a type by name; undefined for a name the catalogue does not have. */
export function ruleTypeSpec(type: string): RuleTypeSpec | undefined {
  return (RULE_TYPES as readonly RuleTypeSpec[]).find((spec) => spec.type === type);
}

/** Limits of a rule set, so one request cannot ask for an unbounded statement. */
export const SEGMENT_LIMITS = {
  groups: 20,
  rulesPerGroup: 30,
  idsPerRule: 500,
  maxWindowDays: 3650,
  maxDays: 36_500,
  maxCount: 1_000_000,
  maxDollars: 100_000_000,
} as const;

/** One entry of `GET /campaigns/segment-types/`: a type, its translated label and what the builder needs. */
export const SegmentTypeSchema = z.object({
  type: z.string(),
  label_key: z.string(),
  label: z.string(),
  live: z.boolean(),
  operators: z.array(
    z.object({
      operator: z.string(),
      label_key: z.string(),
      label: z.string(),
      value_kind: z.enum(VALUE_KINDS),
      range: z.boolean(),
    }),
  ),
  options: z.array(z.object({ option: z.enum(RULE_OPTIONS), label_key: z.string(), label: z.string() })),
});
/** One entry of the segment type catalogue answer. */
export type SegmentType = z.infer<typeof SegmentTypeSchema>;

/** `GET /campaigns/segment-types/`: every type, in the builder's order. */
export const SegmentTypesAnswerSchema = z.object({ results: z.array(SegmentTypeSchema) });
/** The segment type catalogue answer. */
export type SegmentTypesAnswer = z.infer<typeof SegmentTypesAnswerSchema>;
