import type { CompanyId, Sql } from '../../db/database.js';
import type { FieldFailure } from '../../../src/schemas/field-problems.js';
import { ruleTypeSpec } from '../../../src/schemas/segment-catalogue.js';
import { segmentFieldPath, type SegmentRuleSet } from '../../../src/schemas/segments.js';

/** The tables a rule's ids name, by the kind of id. */
const NAMED = {
  location: { table: 'locations', what: 'location' },
  group: { table: 'location_groups', what: 'location group' },
  item: { table: 'menu_items', what: 'menu item' },
  category: { table: 'menu_categories', what: 'menu category' },
  list: { table: 'subscriber_lists', what: 'subscriber list' },
} as const;
type Named = keyof typeof NAMED;

const KIND_OF_VALUE: Record<string, Named> = {
  location_ids: 'location',
  item_ids: 'item',
  category_ids: 'category',
  list_ids: 'list',
};

/** One place a rule set names ids: the field's path, what they are, and the ids. */
interface Reference {
  field: string;
  named: Named;
  ids: number[];
}

function referencesOf(ruleSet: SegmentRuleSet): Reference[] {
  const references: Reference[] = [];
  ruleSet.segment_groups.forEach((group, groupIndex) => {
    group.segment_rules.forEach((rule, ruleIndex) => {
      const at = (field: string) =>
        segmentFieldPath(['segment_groups', groupIndex, 'segment_rules', ruleIndex, field]);
      const operator = ruleTypeSpec(rule.type)?.operators.find(
        (candidate) => candidate.name === rule.operator,
      );
      const named = operator ? KIND_OF_VALUE[operator.value] : undefined;
      if (named) references.push({ field: at('value'), named, ids: [...(rule.value as number[])] });
      if (rule.group_ids?.length)
        references.push({ field: at('group_ids'), named: 'group', ids: rule.group_ids });
    });
  });
  return references;
}

/**
 * The fields of a rule set (and the location picker, field `location_id`) that name an id the company does not
 * have: another company's reads as one that does not exist, and never reaches the count. One statement reads
 * which of the named ids are the company's.
 */
export async function unknownReferences(
  sql: Sql,
  companyId: CompanyId,
  ruleSet: SegmentRuleSet,
  pickedLocations: readonly number[],
): Promise<Record<string, FieldFailure>> {
  const references = referencesOf(ruleSet);
  if (pickedLocations.length > 0)
    references.push({ field: 'location_id', named: 'location', ids: [...pickedLocations] });
  if (references.length === 0) return {};
  const kinds = Object.keys(NAMED) as Named[];
  const wanted = kinds.map((kind) => [
    ...new Set(
      references.filter((reference) => reference.named === kind).flatMap((reference) => reference.ids),
    ),
  ]);
  const { rows } = await sql.query<{ kind: Named; id: string | number }>(
    kinds
      .map(
        (kind, index) =>
          `SELECT '${kind}' AS kind, id FROM ${NAMED[kind].table} WHERE company_id = $1 AND id = ANY($${index + 2}::bigint[])`,
      )
      .join(' UNION ALL '),
    [companyId, ...wanted],
  );
  const known = new Set(rows.map((row) => `${row.kind}:${Number(row.id)}`));
  const fields: Record<string, FieldFailure> = {};
  for (const reference of references) {
    const missing = reference.ids.filter((id) => !known.has(`${reference.named}:${id}`));
    if (missing.length === 0) continue;
    const what = NAMED[reference.named].what;
    fields[reference.field] ??= {
      code: 'not_valid',
      message: `${reference.field} names ${what} ${missing.join(', ')}, which does not exist`,
    };
  }
  return fields;
}

/** The fields of rules whose type is designed but not live yet (email engagement before campaigns send). */
export function notLiveRules(ruleSet: SegmentRuleSet): Record<string, FieldFailure> {
  const fields: Record<string, FieldFailure> = {};
  ruleSet.segment_groups.forEach((group, groupIndex) => {
    group.segment_rules.forEach((rule, ruleIndex) => {
      if (ruleTypeSpec(rule.type)?.live !== false) return;
      const field = segmentFieldPath(['segment_groups', groupIndex, 'segment_rules', ruleIndex, 'type']);
      fields[field] = {
        code: 'not_valid',
        message: `${field} ${rule.type} is not available until campaigns are sent`,
      };
    });
  });
  return fields;
}
