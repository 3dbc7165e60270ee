import { z } from 'zod';
import type { FieldFailure } from './field-problems.js';
import {
  DAY_PARTS,
  RFM_CELLS,
  RULE_OPTIONS,
  ruleTypeSpec,
  SEGMENT_LIMITS,
  type OperatorSpec,
  type RuleOption,
  type RuleType,
  type ValueKind,
} from './segment-catalogue.js';

/**
 * A segment's rule set (docs/segments.md): `{segment_groups: [{id?, segment_rules: [{type, operator, value,
 * ...options}]}]}`. All rules of a group must hold; a guest is in the segment when any group holds; no group
 * at all is every guest. Each rule is checked against the catalogue (`./segment-catalogue.ts`) and a problem is
 * reported at the rule's own path, `segment_groups[1].segment_rules[0].value`.
 */

/** A rule's value once checked: a number, a date, a flag, a list, or a `[min, max]` pair. */
export type RuleValue = number | string | boolean | readonly number[] | readonly string[] | null;

/** One checked rule. */
export interface SegmentRule {
  type: RuleType;
  operator: string;
  value: RuleValue;
  window_days?: number | undefined;
  group_ids?: number[] | undefined;
}

/** One checked group of rules. */
export interface SegmentGroup {
  id?: number | null | undefined;
  segment_rules: SegmentRule[];
}

/** A checked rule set. */
export interface SegmentRuleSet {
  segment_groups: SegmentGroup[];
}

type Problem = { path: (string | number)[]; message: string };

const isWhole = (value: unknown): value is number => Number.isSafeInteger(value);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isIsoDate = (value: unknown): value is string =>
  typeof value === 'string' &&
  ISO_DATE.test(value) &&
  new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** Why a single value of the kind is wrong, or null when it is right. */
function scalarProblem(kind: ValueKind, value: unknown): string | null {
  switch (kind) {
    case 'count':
      return isWhole(value) && value >= 0 && value <= SEGMENT_LIMITS.maxCount
        ? null
        : `must be a whole number from 0 to ${SEGMENT_LIMITS.maxCount}`;
    case 'days':
      return isWhole(value) && value >= 0 && value <= SEGMENT_LIMITS.maxDays
        ? null
        : `must be a whole number of days from 0 to ${SEGMENT_LIMITS.maxDays}`;
    case 'dollars':
      return typeof value === 'number' &&
        Number.isFinite(value) &&
        value >= 0 &&
        value <= SEGMENT_LIMITS.maxDollars &&
        Math.abs(Math.round(value * 100) - value * 100) < 1e-6
        ? null
        : 'must be an amount in dollars, 0 or more, with at most two decimals';
    case 'probability':
      return typeof value === 'number' && value >= 0 && value <= 1 ? null : 'must be a number from 0 to 1';
    case 'date':
      return isIsoDate(value) ? null : 'must be a date written YYYY-MM-DD';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'percent':
      return isWhole(value) && value >= 1 && value <= 100 ? null : 'must be a whole percentage from 1 to 100';
    case 'none':
      return value === null ? null : 'must be null: this operator takes no value';
    default:
      return listProblem(kind, value);
  }
}

const LIST_ITEMS: Partial<Record<ValueKind, { ok: (item: unknown) => boolean; what: string }>> = {
  location_ids: { ok: (item) => isWhole(item) && item > 0, what: 'location ids' },
  item_ids: { ok: (item) => isWhole(item) && item > 0, what: 'menu item ids' },
  category_ids: { ok: (item) => isWhole(item) && item > 0, what: 'menu category ids' },
  list_ids: { ok: (item) => isWhole(item) && item > 0, what: 'subscriber list ids' },
  campaign_ids: { ok: (item) => isWhole(item) && item > 0, what: 'campaign ids' },
  day_parts: { ok: (item) => (DAY_PARTS as readonly unknown[]).includes(item), what: DAY_PARTS.join(', ') },
  weekdays: {
    ok: (item) => isWhole(item) && item >= 1 && item <= 7,
    what: 'weekdays 1 (Monday) to 7 (Sunday)',
  },
  months: { ok: (item) => isWhole(item) && item >= 1 && item <= 12, what: 'months 1 to 12' },
  zips: { ok: (item) => typeof item === 'string' && /^\d{5}$/.test(item), what: 'five-digit zip codes' },
  rfm_cells: { ok: (item) => (RFM_CELLS as readonly unknown[]).includes(item), what: RFM_CELLS.join(', ') },
};

function listProblem(kind: ValueKind, value: unknown): string | null {
  const items = LIST_ITEMS[kind];
  if (!items) return 'is not valid';
  const message = `must be a list of 1 to ${SEGMENT_LIMITS.idsPerRule} ${items.what}`;
  if (!Array.isArray(value) || value.length === 0 || value.length > SEGMENT_LIMITS.idsPerRule) return message;
  return value.every(items.ok) ? null : message;
}

/** Why the value is wrong for the operator, or null. */
function valueProblem(operator: OperatorSpec, value: unknown): string | null {
  if (!operator.range) return scalarProblem(operator.value, value);
  if (!Array.isArray(value) || value.length !== 2) return 'must be a pair [minimum, maximum]';
  const problem = scalarProblem(operator.value, value[0]) ?? scalarProblem(operator.value, value[1]);
  if (problem) return `both ends ${problem.replace(/^must/, 'must each')}`;
  return (value[0] as number | string) > (value[1] as number | string)
    ? 'the minimum must not be above the maximum'
    : null;
}

function optionProblem(option: RuleOption, value: unknown): string | null {
  if (option === 'window_days') {
    return isWhole(value) && value >= 1 && value <= SEGMENT_LIMITS.maxWindowDays
      ? null
      : `must be a whole number of days from 1 to ${SEGMENT_LIMITS.maxWindowDays}`;
  }
  return Array.isArray(value) &&
    value.length <= SEGMENT_LIMITS.idsPerRule &&
    value.every((id) => isWhole(id) && id > 0)
    ? null
    : 'must be a list of location group ids';
}

/** The problems of one rule, each with its path inside the rule. */
function ruleProblems(rule: Record<string, unknown>): Problem[] {
  const spec = typeof rule.type === 'string' ? ruleTypeSpec(rule.type) : undefined;
  if (!spec) return [{ path: ['type'], message: 'is not a known rule type' }];
  const operator = spec.operators.find((candidate) => candidate.name === rule.operator);
  if (!operator) {
    const names = spec.operators.map((candidate) => candidate.name).join(', ');
    return [{ path: ['operator'], message: `must be one of ${names} for ${spec.type}` }];
  }
  const problems: Problem[] = [];
  const locationsByGroup =
    spec.type === 'location' && Array.isArray(rule.group_ids) && rule.group_ids.length > 0;
  const emptyLocations = locationsByGroup && Array.isArray(rule.value) && rule.value.length === 0;
  const problem = emptyLocations ? null : valueProblem(operator, rule.value);
  if (problem) problems.push({ path: ['value'], message: problem });
  for (const key of Object.keys(rule)) {
    if (key === 'type' || key === 'operator' || key === 'value' || rule[key] === undefined) continue;
    const option = RULE_OPTIONS.find((name) => name === key);
    if (!option || !spec.options.includes(option)) {
      problems.push({ path: [key], message: `is not an option of ${spec.type}` });
      continue;
    }
    const optionIssue = optionProblem(option, rule[key]);
    if (optionIssue) problems.push({ path: [key], message: optionIssue });
  }
  return problems;
}

/** A rule as sent: checked against the catalogue, each problem at its own path. */
export const SegmentRuleSchema = z
  .looseObject({ type: z.unknown(), operator: z.unknown(), value: z.unknown() })
  .superRefine((rule, ctx) => {
    for (const problem of ruleProblems(rule)) {
      ctx.addIssue({
        code: 'custom',
        path: problem.path,
        message: problem.message,
        params: { code: 'not_valid' },
      });
    }
  })
  .transform((rule) => rule as unknown as SegmentRule);

/** A group as sent: the id of an existing group to keep it (when saved), and its rules. */
export const SegmentGroupSchema = z.object({
  id: z.number().int().positive().nullish(),
  segment_rules: z
    .array(SegmentRuleSchema)
    .max(SEGMENT_LIMITS.rulesPerGroup, `at most ${SEGMENT_LIMITS.rulesPerGroup} rules in a group`),
});

/** A rule set as sent. */
export const SegmentRuleSetSchema = z.object({
  segment_groups: z
    .array(SegmentGroupSchema)
    .max(SEGMENT_LIMITS.groups, `at most ${SEGMENT_LIMITS.groups} groups in a segment`),
});

/** A path as the API names it: `segment_groups[1].segment_rules[0].value`. */
export function segmentFieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/** A rule set checked: the rules, or each problem by its path (the API's `fields` of a 400). */
export type RuleSetCheck =
  { ok: true; ruleSet: SegmentRuleSet } | { ok: false; fields: Record<string, FieldFailure> };

/** Checks a rule set as sent, naming every problem by its path. */
export function checkRuleSet(input: unknown): RuleSetCheck {
  const parsed = SegmentRuleSetSchema.safeParse(input);
  if (parsed.success) return { ok: true, ruleSet: parsed.data };
  const fields: Record<string, FieldFailure> = {};
  for (const issue of parsed.error.issues) {
    const name = segmentFieldPath(issue.path) || 'segment_groups';
    const message = issue.code === 'invalid_type' ? `${name} is required` : `${name} ${issue.message}`;
    fields[name] ??= { code: issue.code === 'invalid_type' ? 'required' : 'not_valid', message };
  }
  return { ok: false, fields };
}
