import type { Language } from '../../src/schemas/constants.js';
import {
  RULE_TYPES,
  type RuleTypeSpec,
  type SegmentTypesAnswer,
} from '../../src/schemas/segment-catalogue.js';
import { messagesFor } from '../../src/i18n/resources.js';

/**
 * The answer of `GET /campaigns/segment-types/` in the caller's language: every rule type of the catalogue
 * with its operators (value kind, whether a `[min, max]` pair), its options and their labels, each with the
 * i18n key the builder may translate itself (`segmentRules.types.visit_count`). Types that are not live yet
 * (email engagement) are listed with `live: false`; the compiler refuses them.
 */
export function segmentTypeCatalogue(language: Language): SegmentTypesAnswer {
  const texts = messagesFor(language).segmentRules;
  const label = (group: Record<string, string>, key: string) => group[key] ?? key;
  return {
    results: (RULE_TYPES as readonly RuleTypeSpec[]).map((spec) => ({
      type: spec.type,
      label_key: `segmentRules.types.${spec.type}`,
      label: label(texts.types, spec.type),
      live: spec.live,
      operators: spec.operators.map((operator) => ({
        operator: operator.name,
        label_key: `segmentRules.operators.${operator.name}`,
        label: label(texts.operators, operator.name),
        value_kind: operator.value,
        range: operator.range ?? false,
      })),
      options: spec.options.map((option) => ({
        option,
        label_key: `segmentRules.options.${option}`,
        label: label(texts.options, option),
      })),
    })),
  };
}
