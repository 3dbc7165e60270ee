import { sql as rawSql, type RawBuilder, type SqlBool } from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import type { FieldFailure } from '../../src/schemas/field-problems.js';
import type { SegmentRuleSet } from '../../src/schemas/segments.js';
import { SegmentClock } from './segment-rules/clock.js';
import {
  excludesMarketable,
  inGuests,
  marketable,
  ruleSetCondition,
  TRACKABLE,
} from './segment-rules/conditions.js';
import { distributionsStatement, type DistributionRow } from './segment-rules/distributions.js';
import { notLiveRules, unknownReferences } from './segment-rules/references.js';
import { DISTRIBUTION_PLANNER, runWithSegmentPlanner as run } from './segment-rules/planner.js';

/** A row of the dashboard's distributions. */
export type { DistributionRow };

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

/** A segment's size: all its guests, the marketable and the trackable among them; the company's guests. */
export interface SegmentCounts {
  all: number;
  marketable: number;
  trackable: number;
  company_guests: number;
}

/**
 * The rule set and the picker, after refusing what cannot be counted: `member`, whether a guest `g` of the
 * company is in the segment; `from`, `FROM guests g WHERE` the company's members; `marketable`, the marketable
 * test of a guest `g`.
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
  const zone = await sql.query<{ time_zone: string }>('SELECT time_zone FROM companies WHERE id = $1', [
    companyId,
  ]);
  const base = {
    companyId,
    clock: new SegmentClock(zone.rows[0]?.time_zone ?? 'UTC', scope.asOf ?? new Date()),
  };
  const rules = ruleSetCondition(base, ruleSet.segment_groups);
  const conditions = [rules];
  // The picker: guests who visited one of the picked locations.
  const picker =
    picked.length > 0
      ? inGuests(rawSql`SELECT gl.guest_id FROM guest_locations gl
          WHERE gl.company_id = ${companyId} AND gl.visits > 0 AND gl.location_id = ANY(${picked}::bigint[])`)
      : rawSql<SqlBool>`TRUE`;
  if (picked.length > 0) conditions.push(picker);
  const member = rawSql<SqlBool>`(${rawSql.join(conditions, rawSql` AND `)})`;
  return {
    member,
    rules,
    picker,
    from: rawSql`FROM guests g WHERE g.company_id = ${companyId} AND ${member}`,
    marketable: excludesMarketable(ruleSet.segment_groups) ? rawSql<SqlBool>`false` : marketable(base),
  };
}

/**
 * The segment's counts (all, marketable and trackable guests) and the company's guests, the base of its share, in
 * one scan of the company's guests. Each guest's membership is worked out once, below an `OFFSET 0` that keeps
 * the planner from copying it (and the hash tables of its sets) into each count; marketable is tested for members
 * only.
 */
export async function countSegment(
  sql: Sql,
  companyId: CompanyId,
  ruleSet: SegmentRuleSet,
  scope: SegmentScope = {},
): Promise<SegmentCounts> {
  const statement = await segmentStatement(sql, companyId, ruleSet, scope);
  const [row] = await run(
    sql,
    rawSql<SegmentCounts>`SELECT (count(*) FILTER (WHERE g.member))::int AS "all",
                                 (count(*) FILTER (WHERE g.member AND ${statement.marketable}))::int AS marketable,
                                 (count(*) FILTER (WHERE g.member AND ${TRACKABLE}))::int AS trackable,
                                 count(*)::int AS company_guests
                          FROM (SELECT g.id, g.visit_count, g.pos_id, g.hashid, g.customer_name, g.last_four_digits,
                                       ${statement.member} AS member
                                FROM guests g WHERE g.company_id = ${companyId} OFFSET 0) g`,
  );
  return {
    all: row?.all ?? 0,
    marketable: row?.marketable ?? 0,
    trackable: row?.trackable ?? 0,
    company_guests: row?.company_guests ?? 0,
  };
}

/**
 * The members of several rule sets under one scope (the same picker and moment) counted in one scan of the
 * company's guests, in the order given: the `all` of `countSegment` for each, without the marketable, trackable
 * and company counts (the home dashboard's recommendations, docs/dashboards.md). The picker's set is worked out
 * once, for the scan, not once per rule set. Refused as `countSegment` is.
 */
export async function countSegmentMembers(
  sql: Sql,
  companyId: CompanyId,
  ruleSets: readonly SegmentRuleSet[],
  scope: SegmentScope = {},
): Promise<number[]> {
  if (ruleSets.length === 0) return [];
  const statements = [];
  for (const ruleSet of ruleSets) statements.push(await segmentStatement(sql, companyId, ruleSet, scope));
  const counts = statements.map(
    (statement, index) =>
      rawSql`(count(*) FILTER (WHERE ${statement.rules}))::int AS ${rawSql.raw(`c${index}`)}`,
  );
  const [row] = await run(
    sql,
    rawSql<Record<string, number>>`SELECT ${rawSql.join(counts)} FROM guests g
                                   WHERE g.company_id = ${companyId} AND ${statements[0]!.picker}`,
  );
  return statements.map((_, index) => row?.[`c${index}`] ?? 0);
}

/**
 * The segment's member guests as a statement fragment, `SELECT g.id FROM guests g WHERE …`, for a statement that
 * reads them in one go (a campaign's audience, docs/campaigns.md); run it with `runWithSegmentPlanner`. Refused
 * as `countSegment` is.
 */
export async function segmentMembersFragment(
  sql: Sql,
  companyId: CompanyId,
  ruleSet: SegmentRuleSet,
  scope: SegmentScope = {},
): Promise<RawBuilder<{ id: number }>> {
  const statement = await segmentStatement(sql, companyId, ruleSet, scope);
  return rawSql<{ id: number }>`SELECT g.id ${statement.from}`;
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
    }>`SELECT g.id ${statement.from} AND g.id > ${page.afterId ?? 0}::bigint
                           ORDER BY g.id LIMIT ${page.limit}::int`,
  );
  return rows.map((row) => Number(row.id));
}

/** A segment's figures for the cache: counts, and per-member averages of CLV, clf and recency by audience. */
export interface SegmentFigureRow {
  all: number;
  marketable: number;
  trackable: number;
  /** The company's guests, the base of the segment's share. */
  company_guests: number;
  all_clv_cents: number;
  all_annual_clv_cents: number;
  all_clf: number;
  all_recency: number;
  marketable_clv_cents: number;
  marketable_annual_clv_cents: number;
  marketable_clf: number;
  marketable_recency: number;
  trackable_clv_cents: number;
  trackable_annual_clv_cents: number;
  trackable_clf: number;
  trackable_recency: number;
}

/**
 * The segment's figures in one statement: its counts, and for all, marketable and trackable members the average
 * predicted CLV and annual CLV (cents), expected visits in the next 12 months (clf) over members with a
 * prediction, and the average days since the last visit over members with one.
 */
export async function segmentFigures(
  sql: Sql,
  companyId: CompanyId,
  ruleSet: SegmentRuleSet,
  scope: SegmentScope = {},
): Promise<SegmentFigureRow> {
  const statement = await segmentStatement(sql, companyId, ruleSet, scope);
  const averages = (name: string, filter: RawBuilder<unknown>) => {
    const as = (figure: string) => rawSql.raw(`${name}_${figure}`);
    return rawSql`coalesce(avg(p.clv_cents) FILTER (WHERE ${filter}), 0)::float8 AS ${as('clv_cents')},
      coalesce(avg(p.annual_clv_cents) FILTER (WHERE ${filter}), 0)::float8 AS ${as('annual_clv_cents')},
      coalesce(avg(p.expected_visits_next_year) FILTER (WHERE ${filter}), 0)::float8 AS ${as('clf')},
      coalesce(avg(extract(epoch FROM now() - m.last_visit_at) / 86400) FILTER (WHERE ${filter}), 0)::float8
        AS ${as('recency')}`;
  };
  // Each member with its audiences, then its prediction (none before the company's first fit).
  const [row] = await run(
    sql,
    rawSql<SegmentFigureRow>`
      SELECT count(*)::int AS "all", (count(*) FILTER (WHERE m.marketable))::int AS marketable,
             (count(*) FILTER (WHERE m.trackable))::int AS trackable,
             (SELECT count(*) FROM guests WHERE company_id = ${companyId})::int AS company_guests,
             ${averages('all', rawSql`true`)}, ${averages('marketable', rawSql`m.marketable`)},
             ${averages('trackable', rawSql`m.trackable`)}
      FROM (SELECT g.id, g.last_visit_at, ${statement.marketable} AS marketable, ${TRACKABLE} AS trackable
            ${statement.from}) m
      LEFT JOIN guest_predictions p ON p.company_id = ${companyId} AND p.guest_id = m.id`,
  );
  return row!;
}

/**
 * The segment dashboard's distributions over its members, in one statement (`segment-rules/distributions.ts`):
 * members per visit and spend bucket (lower bounds given, the first 0) and per location of the company. An
 * empty `locationIds` (a segment's locations and the picker share none) counts nobody.
 */
export async function segmentDistributions(
  sql: Sql,
  companyId: CompanyId,
  ruleSet: SegmentRuleSet,
  buckets: { visitStarts: readonly number[]; spendStartsCents: readonly number[] },
  scope: SegmentScope = {},
): Promise<DistributionRow[]> {
  const columns = rawSql`SELECT g.id, g.visit_count, g.total_spend_cents`;
  // An empty (not absent) location list is a scope nobody is in; the locations are still listed.
  const nobody =
    scope.locationIds !== null && scope.locationIds !== undefined && scope.locationIds.length === 0;
  const statement = nobody ? null : await segmentStatement(sql, companyId, ruleSet, scope);
  const members = statement
    ? rawSql`${columns} ${statement.from}`
    : rawSql`${columns} FROM guests g WHERE false`;
  const rows = await run(
    sql,
    distributionsStatement(companyId, members, buckets.visitStarts, buckets.spendStartsCents),
    DISTRIBUTION_PLANNER,
  );
  return rows.map((row) => ({ ...row, key: Number(row.key) }));
}
