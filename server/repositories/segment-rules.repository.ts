import { sql as rawSql, type RawBuilder, type SqlBool } from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import { queryBuilder } from '../db/query-builder.js';
import type { FieldFailure } from '../../src/schemas/field-problems.js';
import type { SegmentRuleSet } from '../../src/schemas/segments.js';
import { SegmentClock } from './segment-rules/clock.js';
import { GuestSets, marketable, ruleSetCondition, TRACKABLE } from './segment-rules/conditions.js';
import { notLiveRules, unknownReferences } from './segment-rules/references.js';

/**
 * A checked rule set (`checkRuleSet`, src/schemas/segments.ts) compiled to one parameterised statement over the
 * company's guests (docs/segments.md): the segment's counts, or a page of its members. Before compiling, rules
 * of types not live yet and ids the company does not have are refused with `SegmentRulesRefusedError`, naming
 * each rule's field, so another company's location, item, category or list never reaches a count.
 */

/** Raised when a rule set cannot be counted: each field at fault with its problem (a 400 for the API). */
export class SegmentRulesRefusedError extends Error {
  constructor(readonly fields: Record<string, FieldFailure>) {
    super(`segment rules refused: ${Object.keys(fields).join(', ')}`);
    this.name = 'SegmentRulesRefusedError';
  }
}

/** Where and when to count: the location picker (null or empty: every location) and the moment "today" is. */
export interface SegmentScope {
  locationIds?: readonly number[] | null | undefined;
  /** The moment the rules' days are counted from (default: now). */
  asOf?: Date | undefined;
}

/** A segment's size: all its guests, the marketable and the trackable among them. */
export interface SegmentCounts {
  all: number;
  marketable: number;
  trackable: number;
}

/**
 * The rule set and the picker as `WITH <sets>` and `FROM guests g <joins> WHERE <condition>`, after refusing
 * what cannot be counted; `marketable` is the marketable test over the same joins.
 */
async function segmentStatement(
  sql: Sql,
  companyId: CompanyId,
  ruleSet: SegmentRuleSet,
  scope: SegmentScope,
) {
  const notLive = notLiveRules(ruleSet);
  if (Object.keys(notLive).length > 0) throw new SegmentRulesRefusedError(notLive);
  const picked = [...(scope.locationIds ?? [])];
  const unknown = await unknownReferences(sql, companyId, ruleSet, picked);
  if (Object.keys(unknown).length > 0) throw new SegmentRulesRefusedError(unknown);
  const base = {
    companyId,
    clock: new SegmentClock(companyId, scope.asOf ?? new Date()),
    sets: new GuestSets(),
  };
  const conditions = [
    rawSql<SqlBool>`g.company_id = ${companyId}`,
    ruleSetCondition(base, ruleSet.segment_groups),
  ];
  if (picked.length > 0) {
    // The picker: guests who visited one of the picked locations.
    const visited = rawSql`SELECT gl.guest_id FROM guest_locations gl
      WHERE gl.company_id = ${companyId} AND gl.visits > 0 AND gl.location_id = ANY(${picked}::bigint[])`;
    conditions.push(rawSql<SqlBool>`${base.sets.add(visited)} IS NOT NULL`);
  }
  const marketableGuest = marketable(base);
  return {
    with: base.sets.definitions(),
    from: rawSql`FROM guests g ${base.sets.joins()} WHERE ${rawSql.join(conditions, rawSql` AND `)}`,
    marketable: marketableGuest,
  };
}

async function run<Row>(sql: Sql, statement: RawBuilder<Row>): Promise<Row[]> {
  const compiled = statement.compile(queryBuilder);
  const { rows } = await sql.query<Row>(compiled.sql, compiled.parameters);
  return rows;
}

/** The segment's counts: all, marketable and trackable guests, in one statement. */
export async function countSegment(
  sql: Sql,
  companyId: CompanyId,
  ruleSet: SegmentRuleSet,
  scope: SegmentScope = {},
): Promise<SegmentCounts> {
  const statement = await segmentStatement(sql, companyId, ruleSet, scope);
  const [row] = await run(
    sql,
    rawSql<SegmentCounts>`${statement.with} SELECT count(*)::int AS "all",
                                 (count(*) FILTER (WHERE ${statement.marketable}))::int AS marketable,
                                 (count(*) FILTER (WHERE ${TRACKABLE}))::int AS trackable
                          ${statement.from}`,
  );
  return { all: row?.all ?? 0, marketable: row?.marketable ?? 0, trackable: row?.trackable ?? 0 };
}

/** A page of a segment's member ids, in id order, after `afterId` (keyset). */
export async function segmentMemberIds(
  sql: Sql,
  companyId: CompanyId,
  ruleSet: SegmentRuleSet,
  page: { afterId?: number | undefined; limit: number },
  scope: SegmentScope = {},
): Promise<number[]> {
  const statement = await segmentStatement(sql, companyId, ruleSet, scope);
  const rows = await run(
    sql,
    rawSql<{
      id: number;
    }>`${statement.with} SELECT g.id ${statement.from} AND g.id > ${page.afterId ?? 0}::bigint
                           ORDER BY g.id LIMIT ${page.limit}::int`,
  );
  return rows.map((row) => Number(row.id));
}
