import { sql as rawSql, type RawBuilder } from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import { addressHashSql } from './address-hash.js';
import { runWithSegmentPlanner } from './segment-rules/planner.js';

/**
 * A campaign's audience as one statement fragment over the company's subscribers (docs/campaigns.md, "Audience"):
 * subscribers linked to a member guest of any of the segments, or on any of the lists; kept, when locations or
 * groups are named, to those who signed up at one of them or whose guest visited one. Each subscriber once. The
 * mail-run freeze inserts from it in one `INSERT … SELECT`, and the live count counts it.
 */

/** What an audience is made of: the segments' member-guest fragments (`segmentMembersFragment`) and ids. */
export interface AudienceSelection {
  segments: readonly RawBuilder<{ id: number }>[];
  listIds: readonly number[];
  locationIds: readonly number[];
  locationGroupIds: readonly number[];
}

/** The audience's subscriber ids (`SELECT s.id FROM subscribers s …`); only subscribed ones unless `everyone`. */
export function audienceSubscribers(
  companyId: CompanyId,
  selection: AudienceSelection,
  everyone = false,
): RawBuilder<{ id: number }> {
  const sources: RawBuilder<unknown>[] = [];
  if (selection.segments.length > 0) {
    const guests = rawSql.join(
      selection.segments.map((fragment) => rawSql`(${fragment})`),
      rawSql` UNION `,
    );
    sources.push(rawSql`s.guest_id IN (SELECT x.id FROM (${guests}) x)`);
  }
  if (selection.listIds.length > 0) {
    sources.push(rawSql`s.id IN (SELECT m.subscriber_id FROM subscriber_list_members m
                                  WHERE m.company_id = ${companyId}
                                    AND m.list_id = ANY(${[...selection.listIds]}::bigint[]))`);
  }
  if (sources.length === 0) return rawSql<{ id: number }>`SELECT s.id FROM subscribers s WHERE false`;
  const conditions: RawBuilder<unknown>[] = [
    rawSql`s.company_id = ${companyId}`,
    rawSql`(${rawSql.join(sources, rawSql` OR `)})`,
  ];
  if (!everyone) conditions.push(rawSql`s.subscribed`);
  if (selection.locationIds.length > 0 || selection.locationGroupIds.length > 0) {
    const picked = rawSql`SELECT unnest(${[...selection.locationIds]}::bigint[])
                          UNION SELECT gm.location_id FROM location_group_members gm
                          WHERE gm.company_id = ${companyId}
                            AND gm.group_id = ANY(${[...selection.locationGroupIds]}::bigint[])`;
    conditions.push(rawSql`(s.source_location_id IN (${picked})
      OR (s.guest_id IS NOT NULL AND EXISTS (SELECT 1 FROM guest_locations gl
            WHERE gl.company_id = ${companyId} AND gl.guest_id = s.guest_id AND gl.visits > 0
              AND gl.location_id IN (${picked}))))`);
  }
  return rawSql<{
    id: number;
  }>`SELECT s.id FROM subscribers s WHERE ${rawSql.join(conditions, rawSql` AND `)}`;
}

/** An audience's live count: who would receive it, and members left out (unsubscribed or suppressed). */
export interface AudienceCounts {
  recipients: number;
  suppressed: number;
}

/** Counts the audience now: each member once; unsubscribed and suppressed addresses counted apart. */
export async function countAudience(
  sql: Sql,
  companyId: CompanyId,
  selection: AudienceSelection,
): Promise<AudienceCounts> {
  const members = audienceSubscribers(companyId, selection, true);
  const [row] = await runWithSegmentPlanner(
    sql,
    rawSql<AudienceCounts>`
      SELECT count(*) FILTER (WHERE s.subscribed AND x.id IS NULL)::int AS recipients,
             count(*) FILTER (WHERE NOT s.subscribed OR x.id IS NOT NULL)::int AS suppressed
      FROM subscribers s
      LEFT JOIN mail_suppressions x ON x.company_id = ${companyId} AND x.email_hash = ${rawSql.raw(addressHashSql('s.email'))}
      WHERE s.company_id = ${companyId} AND s.id IN (${members})`,
  );
  return { recipients: row?.recipients ?? 0, suppressed: row?.suppressed ?? 0 };
}
