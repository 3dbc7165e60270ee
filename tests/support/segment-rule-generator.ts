import {
  DAY_PARTS,
  RFM_CELLS,
  RULE_TYPES,
  type OperatorSpec,
  type RuleTypeSpec,
  type ValueKind,
} from '../../src/schemas/segment-catalogue.js';
import type { SegmentRule, SegmentRuleSet } from '../../src/schemas/segments.js';

/** The company's ids a generated rule may name. */
export interface RuleIds {
  locations: number[];
  groups: number[];
  items: number[];
  categories: number[];
  lists: number[];
  zips: string[];
}

const DAY_MS = 86_400_000;

const specOf = (type: string): RuleTypeSpec =>
  (RULE_TYPES as readonly RuleTypeSpec[]).find((spec) => spec.type === type)!;
const formOf = (type: string, name: string): [RuleTypeSpec, OperatorSpec] => [
  specOf(type),
  specOf(type).operators.find((operator) => operator.name === name)!,
];
/** Forms added after the first rule types, generated on purpose as well as by chance. */
const RECENT_FORMS = [formOf('total_spend', 'top_percent'), formOf('birthday_month', 'current')];

/** Random rule sets over every live type, with values near the generated data's (seeded `random`). */
export function ruleSetGenerator(random: () => number, ids: RuleIds, asOf: Date) {
  const whole = (max: number) => Math.floor(random() * (max + 1));
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const some = <T>(values: readonly T[]): T[] => {
    const chosen = values.filter(() => random() < 0.4);
    return chosen.length > 0 ? chosen : [pick(values)];
  };
  const date = () => new Date(asOf.getTime() - whole(420) * DAY_MS).toISOString().slice(0, 10);

  function scalar(kind: ValueKind, type: string): unknown {
    switch (kind) {
      case 'count':
        return whole(6);
      case 'dollars':
        return type === 'predicted_clv' ? whole(600) : Math.round(random() * 30_000) / 100;
      case 'days':
        return type === 'birthday_within_days'
          ? whole(60)
          : whole(type === 'days_since_last_visit' ? 200 : 420);
      case 'date':
        return date();
      case 'probability':
        return Math.round(random() * 100) / 100;
      case 'boolean':
        return random() < 0.5;
      case 'location_ids':
        return some(ids.locations);
      case 'item_ids':
        return some(ids.items);
      case 'category_ids':
        return some(ids.categories);
      case 'list_ids':
        return some(ids.lists);
      case 'day_parts':
        return some(DAY_PARTS);
      case 'weekdays':
        return some([1, 2, 3, 4, 5, 6, 7]);
      case 'months':
        return some([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      case 'zips':
        return some(ids.zips);
      case 'rfm_cells':
        return some(RFM_CELLS);
      case 'percent':
        // Small shares often (boundaries among few guests), sometimes everyone.
        return random() < 0.7 ? 1 + whole(30) : 1 + whole(99);
      case 'none':
        return null;
      default:
        throw new Error(`no generator for ${kind}`);
    }
  }

  function anyForm(): [RuleTypeSpec, OperatorSpec] {
    const spec = pick((RULE_TYPES as readonly RuleTypeSpec[]).filter((candidate) => candidate.live));
    return [spec, pick(spec.operators)];
  }

  function value(operator: OperatorSpec, type: string): unknown {
    if (!operator.range) return scalar(operator.value, type);
    const ends = [scalar(operator.value, type), scalar(operator.value, type)] as (number | string)[];
    return ends.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  function rule(): SegmentRule {
    // One rule in six is a form added later (top N % by spend, birthdays this month), so each is met often.
    const [spec, operator] = random() < 1 / 6 ? pick(RECENT_FORMS) : anyForm();
    const generated: Record<string, unknown> = {
      type: spec.type,
      operator: operator.name,
      value: value(operator, spec.type),
    };
    if (spec.options.includes('window_days') && random() < 0.5) generated.window_days = 1 + whole(400);
    if (spec.options.includes('group_ids') && random() < 0.4) {
      generated.group_ids = some(ids.groups);
      if (random() < 0.5) generated.value = [];
    }
    return generated as unknown as SegmentRule;
  }

  return (): SegmentRuleSet => ({
    segment_groups: Array.from({ length: whole(3) }, () => ({
      segment_rules: Array.from({ length: whole(3) }, rule),
    })),
  });
}
