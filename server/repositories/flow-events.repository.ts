import type { CompanyId, Sql } from '../db/database.js';
import { FLOW_RETRY_SQL } from './flow-enrolments.repository.js';

/**
 * The flow engine's trigger inbox (docs/flows.md, "Triggers"): the writes that can start a flow add a row here in
 * their own transaction (nothing is lost if the process dies after they commit), and the flow runner turns the
 * rows into enrolments. Rows are written only while the company has a live flow, so imports and check batches of
 * companies without flows pay nothing.
 */

/** One trigger event as the runner reads it. */
export interface FlowEventRow {
  id: number;
  company_id: number;
  kind: 'subscriber_created' | 'list_joined' | 'check' | 'segment_entered';
  subscriber_id: number | null;
  guest_id: number | null;
  list_id: number | null;
  segment_id: number | null;
  location_id: number | null;
  visit_number: number | null;
  spend_before_cents: number | null;
  spend_after_cents: number | null;
  occurred_at: Date;
}

const LIVE_FLOW = `EXISTS (SELECT 1 FROM flows f WHERE f.company_id = $1 AND f.status = 'live')`;

/**
 * An event per stored check with a guest: the guest's visit number at that check and the spend before and after
 * it (visits counted in closing order), the check's location and closing time. In the ingesting transaction.
 */
export async function recordCheckFlowEvents(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
): Promise<void> {
  if (checkIds.length === 0) return;
  await sql.query(
    `INSERT INTO flow_events (company_id, kind, guest_id, location_id, visit_number, spend_before_cents,
                              spend_after_cents, occurred_at)
     SELECT $1, 'check', c.guest_id, c.location_id, t.visits, t.spend - c.total_cents, t.spend, c.closed_at
     FROM pos_checks c
     CROSS JOIN LATERAL (
       SELECT count(*)::int AS visits, coalesce(sum(p.total_cents), 0)::bigint AS spend
       FROM pos_checks p
       WHERE p.company_id = $1 AND p.guest_id = c.guest_id AND (p.closed_at, p.id) <= (c.closed_at, c.id)) t
     WHERE c.company_id = $1 AND c.id = ANY($2::bigint[]) AND c.guest_id IS NOT NULL AND ${LIVE_FLOW}`,
    [companyId, checkIds],
  );
}

/** An event for a new subscriber (at their source location). In the creating transaction. */
export async function recordSubscriberFlowEvent(
  sql: Sql,
  companyId: CompanyId,
  subscriberId: number,
): Promise<void> {
  await sql.query(
    `INSERT INTO flow_events (company_id, kind, subscriber_id, location_id, occurred_at)
     SELECT $1, 'subscriber_created', s.id, s.source_location_id, now()
     FROM subscribers s WHERE s.company_id = $1 AND s.id = $2 AND ${LIVE_FLOW}`,
    [companyId, subscriberId],
  );
}

/**
 * A statement's CTE (to follow others, `name AS (…)`) writing an event for each subscriber a bulk upsert inserted:
 * `source` is a CTE of the upsert's rows with `inserted`, `subscribed`, `id` and `source_location_id`; $1 is the
 * company. In the upsert's own statement, so an import of 100k rows writes its events in the same set-based pass;
 * unsubscribed ones get none (they could never enrol).
 */
export function newSubscriberEventsCte(source: string): string {
  return `new_subscriber_events AS (
       INSERT INTO flow_events (company_id, kind, subscriber_id, location_id, occurred_at)
       SELECT $1, 'subscriber_created', m.id, m.source_location_id, now()
       FROM ${source} m WHERE m.inserted AND m.subscribed AND ${LIVE_FLOW})`;
}

/** An event per subscriber who joined a list. In the joining transaction. */
export async function recordListFlowEvents(
  sql: Sql,
  companyId: CompanyId,
  listId: number,
  subscriberIds: readonly number[],
): Promise<void> {
  if (subscriberIds.length === 0) return;
  await sql.query(
    `INSERT INTO flow_events (company_id, kind, subscriber_id, list_id, location_id, occurred_at)
     SELECT $1, 'list_joined', s.id, $2, s.source_location_id, now()
     FROM subscribers s WHERE s.company_id = $1 AND s.id = ANY($3::bigint[]) AND ${LIVE_FLOW}`,
    [companyId, listId, subscriberIds],
  );
}

/**
 * Claims up to `limit` unprocessed events of any company (a platform transaction), oldest first; rows another
 * worker holds are skipped, a claim older than `leaseSeconds` (a dead worker's) is taken over, and an event that
 * failed waits until its `retry_at` (`now`: the engine's clock).
 */
export async function claimFlowEvents(
  sql: Sql,
  worker: string,
  limit: number,
  leaseSeconds: number,
  now: Date,
): Promise<FlowEventRow[]> {
  const { rows } = await sql.query<FlowEventRow>(
    `WITH due AS (
       SELECT id FROM flow_events
       WHERE processed_at IS NULL AND (retry_at IS NULL OR retry_at <= $4)
         AND (claimed_at IS NULL OR (claimed_at < now() - make_interval(secs => $3) AND claimed_by <> $1))
       ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
     UPDATE flow_events e SET claimed_at = now(), claimed_by = $1 FROM due WHERE e.id = due.id
     RETURNING e.id::int, e.company_id::int, e.kind, e.subscriber_id::int, e.guest_id::int, e.list_id::int,
               e.segment_id::int, e.location_id::int, e.visit_number, e.spend_before_cents::float8,
               e.spend_after_cents::float8, e.occurred_at`,
    [worker, limit, leaseSeconds, now],
  );
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * Lets go of this worker's claim on an event whose transaction failed: it counts the failure, keeps the error's
 * code only, and is tried again after the backoff (a minute, doubling, at most 6 hours; `now`: the engine's clock).
 */
export async function failFlowEvent(
  sql: Sql,
  companyId: CompanyId,
  eventId: number,
  worker: string,
  now: Date,
  code: string,
): Promise<void> {
  await sql.query(
    `UPDATE flow_events
     SET claimed_at = NULL, claimed_by = NULL, failures = failures + 1, last_error = $5,
         retry_at = $4::timestamptz + make_interval(secs => ${FLOW_RETRY_SQL('failures')})
     WHERE company_id = $1 AND id = $2 AND claimed_by = $3 AND processed_at IS NULL`,
    [companyId, eventId, worker, now, code],
  );
}

/** Marks a claimed event done (in the transaction that enrolled its people); false when another worker took it. */
export async function finishFlowEvent(
  sql: Sql,
  companyId: CompanyId,
  eventId: number,
  worker: string,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE flow_events SET processed_at = now(), claimed_at = NULL, claimed_by = NULL
     WHERE company_id = $1 AND id = $2 AND claimed_by = $3 AND processed_at IS NULL`,
    [companyId, eventId, worker],
  );
  return rowCount > 0;
}

/** Forgets events processed more than a week ago (a platform transaction); the rows removed. */
export async function sweepFlowEvents(sql: Sql): Promise<number> {
  const { rowCount } = await sql.query(
    `DELETE FROM flow_events WHERE processed_at IS NOT NULL AND processed_at < now() - interval '7 days'`,
  );
  return rowCount;
}
