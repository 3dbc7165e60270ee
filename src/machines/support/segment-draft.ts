import type { SegmentType } from '../../schemas/segment-catalogue.js';
import type { FieldErrors } from './api-problem.js';

/**
 * The rule builder's draft of a segment's rule set (docs/segments.md): groups ("any group holds") of rules
 * ("all rules hold"), each with a key the screen renders by, and the pure steps between the draft and the
 * API's `segment_groups`. Values are kept as edited (a number field left empty is null) and sent as they are;
 * the server names what is wrong at the rule's path.
 */

/** A value kind of the catalogue, including kinds this build's schema may not list yet. */
export type BuilderValueKind = SegmentType['operators'][number]['value_kind'] | 'percent' | 'none';

/** One rule as edited. */
export interface DraftRule {
  key: string;
  type: string;
  operator: string;
  /** A number, a date, a flag, a list, `[min, max]`, or null while empty (or for a kind without a value). */
  value: unknown;
  /** "In the last N days"; null: all time. Only on types that take the option. */
  window_days: number | null;
  /** Location groups whose locations the rule also takes (the `location` type). */
  group_ids: number[];
}

/** One group of rules as edited; `id` is the saved group's (kept on update). */
export interface DraftGroup {
  key: string;
  id: number | null;
  rules: DraftRule[];
}

/** A rule as the API takes it. */
export interface ApiRule {
  type: string;
  operator: string;
  value: unknown;
  window_days?: number;
  group_ids?: number[];
}

/** A group as the API takes it. */
export interface ApiGroup {
  id?: number;
  segment_rules: ApiRule[];
}

/** Where a problem belongs: one rule's field (`value`, `operator`…), or the whole rule set. */
export interface RuleProblemPlace {
  group: number;
  rule: number | null;
  field: string;
}

const PATH = /^segment_groups\[(\d+)\](?:\.segment_rules\[(\d+)\](?:\.(\w+))?)?/;

/** The group, rule and field a server path names (`segment_groups[1].segment_rules[0].value`), or null. */
export function placeOfPath(path: string): RuleProblemPlace | null {
  const match = PATH.exec(path);
  if (!match) return null;
  return {
    group: Number(match[1]),
    rule: match[2] === undefined ? null : Number(match[2]),
    field: match[3] ?? 'rule',
  };
}

/** The operator spec of a rule in the catalogue, or undefined for an unknown type or operator. */
export function operatorOf(catalogue: readonly SegmentType[], type: string, operator: string) {
  return catalogue.find((entry) => entry.type === type)?.operators.find((item) => item.operator === operator);
}

/** The kind of value a rule takes, as the catalogue says (undefined for an unknown type or operator). */
export function kindOf(
  catalogue: readonly SegmentType[],
  type: string,
  operator: string,
): BuilderValueKind | undefined {
  return operatorOf(catalogue, type, operator)?.value_kind;
}

/** Kinds whose value is a list of choices. */
const LIST_KINDS: ReadonlySet<string> = new Set([
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
]);

/** Whether a kind's value is a list. */
export function isListKind(kind: string | undefined): boolean {
  return kind !== undefined && LIST_KINDS.has(kind);
}

/** The value a rule starts with for a kind: a sensible number, true, an empty list; null to be filled. */
export function startingValue(kind: BuilderValueKind | undefined, range: boolean): unknown {
  if (range) return [null, null];
  switch (kind) {
    case 'count':
      return 1;
    case 'percent':
      return 10;
    case 'boolean':
      return true;
    case undefined:
    case 'none':
      return null;
    default:
      return isListKind(kind) ? [] : null;
  }
}

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (typeof value === 'number' && Number.isNaN(value));

/** Whether a rule still lacks its value (so counting it would only be refused). */
export function lacksValue(catalogue: readonly SegmentType[], rule: DraftRule): boolean {
  const spec = operatorOf(catalogue, rule.type, rule.operator);
  if (!spec || spec.value_kind === ('none' as string)) return false;
  if (spec.range) return !Array.isArray(rule.value) || rule.value.length !== 2 || rule.value.some(isEmpty);
  if (isListKind(spec.value_kind)) return !Array.isArray(rule.value) || rule.value.length === 0;
  return isEmpty(rule.value);
}

/** The keys of the rules that still lack a value. */
export function rulesLackingValues(
  catalogue: readonly SegmentType[],
  groups: readonly DraftGroup[],
): string[] {
  return groups.flatMap((group) =>
    group.rules.filter((rule) => lacksValue(catalogue, rule)).map((rule) => rule.key),
  );
}

/** Whether a type takes an option. */
export function takesOption(
  catalogue: readonly SegmentType[],
  type: string,
  option: 'window_days' | 'group_ids',
): boolean {
  return (
    catalogue.find((entry) => entry.type === type)?.options.some((item) => item.option === option) ?? false
  );
}

/** The draft as the API's `segment_groups`: keys dropped, empty options left out. */
export function apiGroupsOf(groups: readonly DraftGroup[]): ApiGroup[] {
  return groups.map((group) => ({
    ...(group.id === null ? {} : { id: group.id }),
    segment_rules: group.rules.map((rule) => ({
      type: rule.type,
      operator: rule.operator,
      value: rule.value,
      ...(rule.window_days === null ? {} : { window_days: rule.window_days }),
      ...(rule.group_ids.length === 0 ? {} : { group_ids: rule.group_ids }),
    })),
  }));
}

/** A saved rule set as a draft, keys numbered from `firstKey`; answers the draft and the next free key. */
export function draftOf(
  groups: readonly { id?: number | null; segment_rules: readonly object[] }[],
  firstKey: number,
): { groups: DraftGroup[]; nextKey: number } {
  let key = firstKey;
  const draft = groups.map((group) => ({
    key: `g${key++}`,
    id: group.id ?? null,
    rules: group.segment_rules.map((saved) => {
      const rule = saved as Record<string, unknown>;
      return {
        key: `r${key++}`,
        type: String(rule.type),
        operator: String(rule.operator),
        value: rule.value ?? null,
        window_days: typeof rule.window_days === 'number' ? rule.window_days : null,
        group_ids: Array.isArray(rule.group_ids) ? (rule.group_ids as number[]) : [],
      };
    }),
  }));
  return { groups: draft, nextKey: key };
}

/** Problems by rule key and field (`{r4: {value: …}}`), from field errors named by path against the draft. */
export function ruleErrorsOf(
  groups: readonly DraftGroup[],
  fields: FieldErrors,
): { byRule: Record<string, FieldErrors>; rest: FieldErrors } {
  const byRule: Record<string, FieldErrors> = {};
  const rest: FieldErrors = {};
  for (const [path, failure] of Object.entries(fields)) {
    const place = placeOfPath(path);
    const group = place ? groups[place.group] : undefined;
    const rule = place?.rule === null || place?.rule === undefined ? undefined : group?.rules[place.rule];
    if (place && rule) (byRule[rule.key] ??= {})[place.field] = failure;
    else rest[path] = failure;
  }
  return { byRule, rest };
}
