import type { CompanyId, Sql } from '../db/database.js';

/**
 * Ending people's flow enrolments at once (docs/flows.md, "Exits"), in the transaction of the change that ends
 * them: an unsubscribe, a suppression, an erasure, a flow deleted, a flow's locations narrowed, a location group's
 * members changed. Each exit keeps the step the person was at (`current_key`), so the canvas counts them as exited
 * there, and closes the step they were waiting at with the reason as its outcome. Times are the database's: the change's own moment, never earlier
 * than the person's entry or step (the engine's test clock may run ahead of real time).
 */

/** Why a change ends an enrolment at once. */
export type ImmediateExitReason = 'unsubscribed' | 'suppressed' | 'deleted' | 'flow_deleted' | 'out_of_scope';

/**
 * Ends the company's active enrolments that `where` picks (a condition on `e`, the enrolment; parameters from
 * $3 on), and closes the steps they were waiting at. Locks each enrolment first, so a runner working on one
 * finishes its turn before (and an enrolment it ended meanwhile is left alone). Answers the enrolments ended.
 */
async function exitWhere(
  sql: Sql,
  companyId: CompanyId,
  reason: ImmediateExitReason,
  where: string,
  params: readonly unknown[],
): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `WITH ending AS (
       SELECT e.id, e.open_step_id FROM flow_enrolments e
       WHERE e.company_id = $1 AND e.status = 'active' AND (${where})
       ORDER BY e.id FOR UPDATE),
     ended AS (
       UPDATE flow_enrolments e
       SET status = 'exited', exit_reason = $2, left_at = greatest(now(), e.entered_at), next_run_at = NULL,
           open_step_id = NULL, claimed_at = NULL, claimed_by = NULL
       FROM ending WHERE e.id = ending.id AND e.status = 'active'
       RETURNING e.id, ending.open_step_id),
     closed AS (
       UPDATE flow_enrolment_steps st SET done_at = greatest(now(), st.entered_at), outcome = $2
       FROM ended WHERE st.company_id = $1 AND st.id = ended.open_step_id AND st.done_at IS NULL)
     SELECT count(*)::int AS n FROM ended`,
    [companyId, reason, ...params],
  );
  return rows[0]?.n ?? 0;
}

/** Ends the active enrolments of these subscribers (unsubscribed, suppressed or about to be erased). */
export async function exitSubscribersFromFlows(
  sql: Sql,
  companyId: CompanyId,
  subscriberIds: readonly number[],
  reason: 'unsubscribed' | 'suppressed' | 'deleted',
): Promise<number> {
  if (subscriberIds.length === 0) return 0;
  return exitWhere(sql, companyId, reason, 'e.subscriber_id = ANY($3::bigint[])', [subscriberIds]);
}

/**
 * Ends the active enrolments of the people whose outbox rows these are (addresses just suppressed by a bounce
 * or complaint), each in its company: matched by address, so the subscriber holding it now leaves. Any company
 * (the send runner's platform transaction).
 */
export async function exitSuppressedOutboxRecipients(
  sql: Sql,
  outboxIds: readonly number[],
): Promise<number> {
  if (outboxIds.length === 0) return 0;
  const { rows } = await sql.query<{ company_id: number; ids: number[] }>(
    `SELECT s.company_id::int, array_agg(s.id::int ORDER BY s.id) AS ids
     FROM mail_outbox o JOIN subscribers s ON s.company_id = o.company_id AND lower(s.email) = lower(o.email)
     WHERE o.id = ANY($1::bigint[])
     GROUP BY s.company_id ORDER BY s.company_id`,
    [outboxIds],
  );
  let ended = 0;
  for (const row of rows) ended += await exitSubscribersFromFlows(sql, row.company_id, row.ids, 'suppressed');
  return ended;
}

/**
 * Before a flow is deleted: its people leave as `flow_deleted`, and its emails not yet sent are cancelled (its
 * mail runs still sending or paused, and their queued outbox rows; a batch a send worker holds finishes); the
 * steps of the cancelled emails become `cancelled`, so only emails that can still go out count against the cap.
 */
export async function endDeletedFlow(sql: Sql, companyId: CompanyId, flowId: number): Promise<number> {
  const ended = await exitWhere(sql, companyId, 'flow_deleted', 'e.flow_id = $3', [flowId]);
  await sql.query(
    `WITH runs AS (
       UPDATE mail_runs SET status = 'cancelled', finished_at = now()
       WHERE company_id = $1 AND kind = 'flow' AND source_id = $2 AND status IN ('sending', 'paused')
       RETURNING id),
     cancelled AS (
       UPDATE mail_outbox o SET status = 'cancelled'
       FROM runs WHERE o.company_id = $1 AND o.run_id = runs.id AND o.status = 'queued'
       RETURNING o.run_id)
     -- An email that will never go out no longer counts against the frequency cap; one sent still does.
     UPDATE flow_enrolment_steps st SET outcome = 'cancelled'
     FROM cancelled WHERE st.company_id = $1 AND st.mail_run_id = cancelled.run_id AND st.outcome = 'sent'`,
    [companyId, flowId],
  );
  return ended;
}

// The enrolment `e` is at a location its flow `f` no longer takes ($1 the company): the flow is kept to locations
// or groups, and the enrolment has no location or one outside them (the groups' members read now, as triggers do).
const OUTSIDE_FLOW_SCOPE = `(cardinality(f.location_ids) > 0 OR cardinality(f.location_group_ids) > 0)
  AND (e.location_id IS NULL OR NOT (
        e.location_id = ANY(f.location_ids)
        OR EXISTS (SELECT 1 FROM location_group_members m
                   WHERE m.company_id = $1 AND m.group_id = ANY(f.location_group_ids)
                     AND m.location_id = e.location_id)))`;

/**
 * After a flow's locations or groups change: people whose enrolment location the flow no longer takes leave as
 * `out_of_scope` (an enrolment without a location is outside any flow kept to locations, as at enrolment).
 */
export async function exitOutOfScope(sql: Sql, companyId: CompanyId, flowId: number): Promise<number> {
  return exitWhere(
    sql,
    companyId,
    'out_of_scope',
    `e.flow_id = $3 AND EXISTS (
       SELECT 1 FROM flows f WHERE f.company_id = $1 AND f.id = $3 AND ${OUTSIDE_FLOW_SCOPE})`,
    [flowId],
  );
}

/**
 * After a location group's members change or the group goes: in every flow kept to that group, people whose
 * enrolment location the flow no longer takes (through its other groups or its own locations) leave as
 * `out_of_scope`, whatever the flow's status.
 */
export async function exitOutOfGroupScope(sql: Sql, companyId: CompanyId, groupId: number): Promise<number> {
  return exitWhere(
    sql,
    companyId,
    'out_of_scope',
    `EXISTS (
       SELECT 1 FROM flows f
       WHERE f.company_id = $1 AND f.id = e.flow_id AND $3::bigint = ANY(f.location_group_ids)
         AND ${OUTSIDE_FLOW_SCOPE})`,
    [groupId],
  );
}
