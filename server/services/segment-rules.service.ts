import type { Database } from '../db/database.js';
import { invalid } from '../http/errors.js';
import {
  countSegment,
  SegmentRulesRefusedError,
  type SegmentCounts,
} from '../repositories/segment-rules.repository.js';
import { checkRuleSet } from '../../src/schemas/segments.js';

/**
 * A rule set's counts without saving it (the builder's live count, `POST /campaigns/segments/?preview=1`):
 * the rules as sent are checked, then counted in one transaction. A malformed rule, a type not live yet or an id
 * the company does not have is a 400 whose `fields` name each rule's path (docs/segments.md).
 */
export async function previewSegmentCounts(
  db: Database,
  companyId: number,
  rules: unknown,
  locationIds: readonly number[] = [],
  asOf?: Date,
): Promise<SegmentCounts> {
  const checked = checkRuleSet(rules);
  if (!checked.ok) throw invalid(checked.fields, 'The segment rules are not valid');
  try {
    return await db.tenant(companyId, (sql) =>
      countSegment(sql, companyId, checked.ruleSet, { locationIds, asOf }),
    );
  } catch (error) {
    if (error instanceof SegmentRulesRefusedError)
      throw invalid(error.fields, 'The segment rules are not valid');
    throw error;
  }
}
