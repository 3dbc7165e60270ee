import { sql as rawSql, type RawBuilder } from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import { runWithSegmentPlanner, SEGMENT_PLANNER } from './segment-rules/planner.js';

/**
 * Segment member snapshots for the `entered_segment` trigger (docs/flows.md, "Entered a segment"): the member
 * guests a segment had at its last refresh, kept only while a live flow starts on entering it. A refresh compares
 * the members now with the snapshot in one set-based statement, replaces the snapshot and writes a
 * `segment_entered` flow event per new member, in the refresh's transaction.
 */

/**
 * The comparison's planner: the snapshot rows were often written in this or a recent transaction, before any
 * statistics, and a nested loop planned on a guess compared 50,000 members with 50,000 one by one (minutes); the
 * hash and merge anti-joins take the same work in one pass.
 */
const SNAPSHOT_PLANNER = { ...SEGMENT_PLANNER, enable_nestloop: 'off' };

/** Live flows whose published trigger is "entered this segment" ($1 the company, $2 the segment). */
const WATCHING_FLOW = `EXISTS (
  SELECT 1 FROM flows f
  JOIN flow_versions v ON v.company_id = f.company_id AND v.flow_id = f.id AND v.version = f.published_version
  WHERE f.company_id = $1 AND f.status = 'live'
    AND EXISTS (SELECT 1 FROM jsonb_array_elements(v.graph) item
                WHERE item->>'kind' = 'trigger' AND item->'settings'->>'type' = 'entered_segment'
                  AND (item->'settings'->>'segment_id')::bigint = $2))`;

/** Whether a live flow starts on entering the segment. */
export async function segmentWatched(sql: Sql, companyId: CompanyId, segmentId: number): Promise<boolean> {
  const { rows } = await sql.query<{ watched: boolean }>(`SELECT ${WATCHING_FLOW} AS watched`, [
    companyId,
    segmentId,
  ]);
  return rows[0]?.watched === true;
}

/** The segment a flow's live version starts on entering, or null (another trigger, or not live). */
export async function enteredSegmentOfFlow(
  sql: Sql,
  companyId: CompanyId,
  flowId: number,
): Promise<number | null> {
  const { rows } = await sql.query<{ segment_id: number }>(
    `SELECT (item->'settings'->>'segment_id')::int AS segment_id
     FROM flows f
     JOIN flow_versions v ON v.company_id = f.company_id AND v.flow_id = f.id AND v.version = f.published_version
     CROSS JOIN LATERAL jsonb_array_elements(v.graph) item
     WHERE f.company_id = $1 AND f.id = $2 AND f.status = 'live'
       AND item->>'kind' = 'trigger' AND item->'settings'->>'type' = 'entered_segment'`,
    [companyId, flowId],
  );
  return rows[0]?.segment_id ?? null;
}

/** Whether the segment has a member snapshot. */
export async function hasMemberSnapshot(sql: Sql, companyId: CompanyId, segmentId: number): Promise<boolean> {
  const { rows } = await sql.query(
    'SELECT 1 FROM segment_member_snapshots WHERE company_id = $1 AND segment_id = $2',
    [companyId, segmentId],
  );
  return rows.length > 0;
}

/** Forgets a segment's snapshot (no live flow watches it any more). */
export async function dropMemberSnapshot(sql: Sql, companyId: CompanyId, segmentId: number): Promise<void> {
  await sql.query('DELETE FROM segment_member_snapshots WHERE company_id = $1 AND segment_id = $2', [
    companyId,
    segmentId,
  ]);
}

/**
 * Takes a segment's first snapshot: its members now (`members`, a `SELECT g.id …` fragment; null: nobody),
 * raising no event, so people already in the segment when a flow starts watching it never enrol.
 */
export async function takeMemberSnapshot(
  sql: Sql,
  companyId: CompanyId,
  segmentId: number,
  members: RawBuilder<{ id: number }> | null,
): Promise<void> {
  await dropMemberSnapshot(sql, companyId, segmentId);
  await sql.query('INSERT INTO segment_member_snapshots (company_id, segment_id) VALUES ($1, $2)', [
    companyId,
    segmentId,
  ]);
  if (members === null) return;
  await runWithSegmentPlanner(
    sql,
    rawSql`INSERT INTO segment_members (company_id, segment_id, guest_id)
           SELECT ${companyId}::bigint, ${segmentId}::bigint, x.id FROM (${members}) x`,
  );
}

/**
 * Compares a segment's members now with its snapshot, in one statement: members who left are forgotten, new ones
 * are added and each gets a `segment_entered` event at their first location. Answers the members who entered.
 */
export async function advanceMemberSnapshot(
  sql: Sql,
  companyId: CompanyId,
  segmentId: number,
  members: RawBuilder<{ id: number }> | null,
): Promise<number> {
  const now = members ?? rawSql<{ id: number }>`SELECT NULL::bigint AS id WHERE false`;
  const [row] = await runWithSegmentPlanner(
    sql,
    rawSql<{ entered: number }>`
      WITH now_in AS MATERIALIZED (SELECT DISTINCT x.id FROM (${now}) x),
      gone AS (
        DELETE FROM segment_members m
        WHERE m.company_id = ${companyId} AND m.segment_id = ${segmentId}
          AND NOT EXISTS (SELECT 1 FROM now_in n WHERE n.id = m.guest_id)),
      added AS (
        INSERT INTO segment_members (company_id, segment_id, guest_id)
        SELECT ${companyId}::bigint, ${segmentId}::bigint, n.id FROM now_in n
        WHERE NOT EXISTS (SELECT 1 FROM segment_members m
                          WHERE m.company_id = ${companyId} AND m.segment_id = ${segmentId} AND m.guest_id = n.id)
        RETURNING guest_id),
      events AS (
        INSERT INTO flow_events (company_id, kind, guest_id, segment_id, location_id, occurred_at)
        SELECT ${companyId}::bigint, 'segment_entered', a.guest_id, ${segmentId}::bigint, g.first_location_id, now()
        FROM added a JOIN guests g ON g.company_id = ${companyId} AND g.id = a.guest_id
        RETURNING 1)
      SELECT count(*)::int AS entered FROM events`,
    SNAPSHOT_PLANNER,
  );
  await sql.query(
    'UPDATE segment_member_snapshots SET taken_at = now() WHERE company_id = $1 AND segment_id = $2',
    [companyId, segmentId],
  );
  return row?.entered ?? 0;
}
