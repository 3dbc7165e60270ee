import { checkRuleSet, type SegmentRuleSet } from '../../src/schemas/segments.js';
import type { Sql } from '../db/database.js';
import { fieldFailure, invalid } from '../http/errors.js';
import { UnknownReferenceError } from '../repositories/references.js';
import { SegmentRulesRefusedError } from '../repositories/segment-rules.repository.js';
import type { SegmentRow } from '../repositories/segments.repository.js';
import { scopeOf } from './pos-analytics.service.js';

/**
 * What the segment services share about a segment's input: its rules checked by path, its locations resolved,
 * and the compiler's and repositories' refusals as 400s naming the field.
 */

/** A share in percent with two decimals; 0 of 0 is 0. */
export const percent = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0;

/** The rule set as sent, or a 400 naming each rule's problem at its path. */
export function ruleSetOf(groups: unknown): SegmentRuleSet {
  const checked = checkRuleSet({ segment_groups: groups ?? [] });
  if (!checked.ok) throw invalid(checked.fields, 'The segment rules have problems');
  return checked.ruleSet;
}

/** Turns the repositories' and the compiler's refusals into a 400 naming the field. */
export function refusedAsInvalid(error: unknown): never {
  if (error instanceof SegmentRulesRefusedError)
    throw invalid(error.fields, 'The segment rules have problems');
  if (error instanceof UnknownReferenceError) {
    throw invalid({
      [error.field]: fieldFailure('not_valid', `Unknown ${error.field}: ${error.ids.join(', ')}`),
    });
  }
  throw error;
}

/** A saved segment's own locations and groups as locations (null: every location). */
export function segmentLocations(sql: Sql, companyId: number, row: SegmentRow): Promise<number[] | null> {
  if (row.location_ids.length === 0 && row.group_ids.length === 0) return Promise.resolve(null);
  return scopeOf(sql, companyId, {
    location_id: row.location_ids.map(Number),
    location_group_id: row.group_ids.map(Number),
  });
}
