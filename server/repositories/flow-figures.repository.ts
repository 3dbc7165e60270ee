import type { CompanyId, Sql } from '../db/database.js';
import type { FlowNodeCountsResult, SubscriberFlowPaths } from '../../src/schemas/flows.js';

/**
 * What the flow engine's tables say about flows and people (docs/flows.md, "Figures"): the list's figures, the
 * canvas's per-node counts, and a subscriber's path through each flow.
 */

/** People in each flow now (active enrolments, every version) and the marketing emails it has sent. */
export async function flowFigures(
  sql: Sql,
  companyId: CompanyId,
  flowIds: number[],
): Promise<Map<number, { in_flow: number; emails_sent: number }>> {
  const figures = new Map(flowIds.map((id) => [id, { in_flow: 0, emails_sent: 0 }]));
  if (flowIds.length === 0) return figures;
  const { rows } = await sql.query<{ flow_id: number; in_flow: number; emails_sent: number }>(
    `SELECT f.id::int AS flow_id,
            (SELECT count(*)::int FROM flow_enrolments e
             WHERE e.company_id = $1 AND e.flow_id = f.id AND e.status = 'active') AS in_flow,
            (SELECT count(*)::int FROM flow_enrolment_steps st
             WHERE st.company_id = $1 AND st.flow_id = f.id AND st.outcome = 'sent') AS emails_sent
     FROM flows f WHERE f.company_id = $1 AND f.id = ANY($2::bigint[])`,
    [companyId, flowIds],
  );
  for (const row of rows) figures.set(row.flow_id, { in_flow: row.in_flow, emails_sent: row.emails_sent });
  return figures;
}

/** Whether the flow is the company's. */
export async function flowExists(sql: Sql, companyId: CompanyId, flowId: number): Promise<boolean> {
  const { rows } = await sql.query('SELECT 1 FROM flows WHERE company_id = $1 AND id = $2', [
    companyId,
    flowId,
  ]);
  return rows.length > 0;
}

/**
 * Per item key over every version: people who entered the node, are waiting at it (active enrolments whose step
 * it is), went past it, and left the flow at it (exit steps, unsubscribes, suppressions, erasures).
 */
export async function flowNodeCounts(
  sql: Sql,
  companyId: CompanyId,
  flowId: number,
): Promise<FlowNodeCountsResult['counts']> {
  const { rows } = await sql.query<{
    key: string;
    entered: number;
    waiting: number;
    completed: number;
    exited: number;
  }>(
    `WITH steps AS (
       SELECT key, count(*)::int AS entered, count(*) FILTER (WHERE done_at IS NOT NULL)::int AS completed
       FROM flow_enrolment_steps WHERE company_id = $1 AND flow_id = $2 GROUP BY key),
     people AS (
       SELECT current_key AS key, count(*) FILTER (WHERE status = 'active')::int AS waiting,
              count(*) FILTER (WHERE status = 'exited')::int AS exited
       FROM flow_enrolments WHERE company_id = $1 AND flow_id = $2 AND current_key IS NOT NULL GROUP BY current_key)
     SELECT coalesce(s.key, p.key) AS key, coalesce(s.entered, 0) AS entered, coalesce(p.waiting, 0) AS waiting,
            coalesce(s.completed, 0) AS completed, coalesce(p.exited, 0) AS exited
     FROM steps s FULL JOIN people p ON p.key = s.key`,
    [companyId, flowId],
  );
  const counts: FlowNodeCountsResult['counts'] = {};
  for (const { key, ...figures } of rows) counts[key] = figures;
  return counts;
}

/** Whether the subscriber is the company's. */
export async function subscriberExists(
  sql: Sql,
  companyId: CompanyId,
  subscriberId: number,
): Promise<boolean> {
  const { rows } = await sql.query('SELECT 1 FROM subscribers WHERE company_id = $1 AND id = $2', [
    companyId,
    subscriberId,
  ]);
  return rows.length > 0;
}

/** Every enrolment of a subscriber, newest first, each with its steps in order. */
export async function subscriberFlowPaths(
  sql: Sql,
  companyId: CompanyId,
  subscriberId: number,
): Promise<SubscriberFlowPaths['results']> {
  const { rows } = await sql.query<SubscriberFlowPaths['results'][number]>(
    `SELECT e.flow_id::int, f.name AS flow_name, v.version, e.status, e.exit_reason,
            to_json(e.entered_at)#>>'{}' AS entered_at, to_json(e.left_at)#>>'{}' AS left_at,
            coalesce((SELECT json_agg(json_build_object('key', st.key, 'kind', st.kind, 'type', st.type,
                                                        'entered_at', st.entered_at, 'done_at', st.done_at,
                                                        'outcome', st.outcome) ORDER BY st.id)
                      FROM flow_enrolment_steps st WHERE st.company_id = $1 AND st.enrolment_id = e.id), '[]') AS steps
     FROM flow_enrolments e
     JOIN flows f ON f.company_id = $1 AND f.id = e.flow_id
     JOIN flow_versions v ON v.company_id = $1 AND v.id = e.flow_version_id
     WHERE e.company_id = $1 AND e.subscriber_id = $2
     ORDER BY e.entered_at DESC, e.id DESC
     LIMIT 200`,
    [companyId, subscriberId],
  );
  return rows;
}
