import { sql as rawSql, type RawBuilder } from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import type { FlowGraphItem } from '../../src/schemas/flows.js';
import { addressHashSql } from './address-hash.js';
import { runWithSegmentPlanner } from './segment-rules/planner.js';

/**
 * The flow engine's durable state (docs/flows.md, "The engine"): enrolments (a subscriber in one published
 * version of a flow), their claims, and the history row of every step. Times come from the engine's clock as
 * parameters, never from `now()`, except claim leases (real time, about processes).
 */

/** A live flow as the trigger matching reads it: its published graph and where and how often it enrols. */
export interface LiveFlow {
  flow_id: number;
  version_id: number;
  graph: FlowGraphItem[];
  /** Every location the flow is kept to (its locations and its groups' members); null: every location. */
  location_ids: number[] | null;
  reentry: 'once' | 'after_days';
  reentry_days: number | null;
}

/** The company's live flows on their current published version. */
export async function liveFlows(sql: Sql, companyId: CompanyId): Promise<LiveFlow[]> {
  const { rows } = await sql.query<LiveFlow>(
    `SELECT f.id::int AS flow_id, v.id::int AS version_id, v.graph, f.reentry, f.reentry_days,
            CASE WHEN cardinality(f.location_ids) = 0 AND cardinality(f.location_group_ids) = 0 THEN NULL
                 ELSE ARRAY(SELECT unnest(f.location_ids)::int
                            UNION SELECT m.location_id::int FROM location_group_members m
                            WHERE m.company_id = $1 AND m.group_id = ANY(f.location_group_ids)) END AS location_ids
     FROM flows f JOIN flow_versions v ON v.company_id = $1 AND v.flow_id = f.id AND v.version = f.published_version
     WHERE f.company_id = $1 AND f.status = 'live'
     ORDER BY f.id`,
    [companyId],
  );
  return rows;
}

/** The subscribed subscribers linked to a POS guest (a visit reaches flows through them). */
export async function subscribersOfGuest(sql: Sql, companyId: CompanyId, guestId: number): Promise<number[]> {
  const { rows } = await sql.query<{ id: number }>(
    'SELECT id::int FROM subscribers WHERE company_id = $1 AND guest_id = $2 AND subscribed ORDER BY id',
    [companyId, guestId],
  );
  return rows.map((row) => row.id);
}

/** Whether a subscriber exists and is subscribed. */
export async function isSubscribed(sql: Sql, companyId: CompanyId, subscriberId: number): Promise<boolean> {
  const { rows } = await sql.query(
    'SELECT 1 FROM subscribers WHERE company_id = $1 AND id = $2 AND subscribed',
    [companyId, subscriberId],
  );
  return rows.length > 0;
}

/** A new enrolment, from a trigger. */
export interface NewEnrolment {
  flowId: number;
  versionId: number;
  subscriberId: number;
  locationId: number | null;
  enteredAt: Date;
  trigger: { key: string; type: string };
  /** The step after the trigger; null: the flow ends at once. */
  firstKey: string | null;
  reentry: 'once' | 'after_days';
  reentryDays: number | null;
}

/**
 * Enrols a person unless the re-entry rule forbids it (already in the flow; been in it at all with `once`; left
 * fewer than `reentry_days` before with `after_days`), with the trigger's history row. The unique indexes keep
 * two processes from enrolling the same person twice. Returns the enrolment's id, or null when not enrolled.
 */
export async function enrol(sql: Sql, companyId: CompanyId, input: NewEnrolment): Promise<number | null> {
  const ended = input.firstKey === null;
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO flow_enrolments (company_id, flow_id, flow_version_id, subscriber_id, location_id, entry_no,
                                  status, exit_reason, current_key, next_run_at, entered_at, left_at)
     SELECT $1, $2, $3, $4, $5, coalesce(max(e.entry_no), 0) + 1,
            CASE WHEN $7 THEN 'completed' ELSE 'active' END, CASE WHEN $7 THEN 'completed' END,
            $6, CASE WHEN $7 THEN NULL ELSE $8::timestamptz END, $8, CASE WHEN $7 THEN $8::timestamptz END
     FROM flow_enrolments e
     WHERE e.company_id = $1 AND e.flow_id = $2 AND e.subscriber_id = $4
     HAVING count(*) FILTER (WHERE e.status = 'active') = 0
        AND ($9 = 'after_days' OR count(*) = 0)
        AND ($9 = 'once' OR coalesce(max(e.left_at), '-infinity') <= $8::timestamptz - make_interval(days => $10))
     ON CONFLICT DO NOTHING
     RETURNING id::int`,
    [
      companyId,
      input.flowId,
      input.versionId,
      input.subscriberId,
      input.locationId,
      input.firstKey,
      ended,
      input.enteredAt,
      input.reentry,
      input.reentryDays ?? 0,
    ],
  );
  const id = rows[0]?.id ?? null;
  if (id === null) return null;
  await sql.query(
    `INSERT INTO flow_enrolment_steps (company_id, enrolment_id, flow_id, subscriber_id, key, kind, type, entered_at,
                                       done_at, outcome)
     VALUES ($1, $2, $3, $4, $5, 'trigger', $6, $7, $7, 'entered')`,
    [companyId, id, input.flowId, input.subscriberId, input.trigger.key, input.trigger.type, input.enteredAt],
  );
  return id;
}

/**
 * Claims up to `limit` due enrolments of live flows, any company (a platform transaction), earliest due first.
 * Rows another worker holds are skipped; a claim older than the lease (a dead worker's) is taken over, never a
 * worker's own (a slow step of this process).
 */
export async function claimDueEnrolments(
  sql: Sql,
  worker: string,
  now: Date,
  limit: number,
  leaseSeconds: number,
): Promise<{ id: number; company_id: number; subscriber_id: number | null }[]> {
  const { rows } = await sql.query<{ id: number; company_id: number; subscriber_id: number | null }>(
    `WITH due AS (
       SELECT e.id FROM flow_enrolments e
       JOIN flows f ON f.id = e.flow_id AND f.status = 'live'
       WHERE e.status = 'active' AND e.next_run_at <= $2
         AND (e.claimed_at IS NULL OR (e.claimed_at < now() - make_interval(secs => $4) AND e.claimed_by <> $1))
       ORDER BY e.next_run_at, e.id LIMIT $3 FOR UPDATE OF e SKIP LOCKED)
     UPDATE flow_enrolments e SET claimed_at = now(), claimed_by = $1 FROM due WHERE e.id = due.id
     RETURNING e.id::int, e.company_id::int, e.subscriber_id::int`,
    [worker, now, limit, leaseSeconds],
  );
  return rows.sort((a, b) => a.id - b.id);
}

/** An enrolment as its steps run, with what they need of the person, the flow and the location. */
export interface EnrolmentState {
  id: number;
  flow_id: number;
  subscriber_id: number | null;
  location_id: number | null;
  guest_id: number | null;
  current_key: string;
  next_run_at: Date;
  open_step_id: number | null;
  last_outbox_id: number | null;
  entered_at: Date;
  graph: FlowGraphItem[];
  flow_status: string;
  subscribed: boolean;
  suppressed: boolean;
  /** The location's time zone, else the company's. */
  time_zone: string;
  in_scope: boolean;
}

/**
 * Locks a claimed enrolment for its steps (the caller's tenant transaction), or null when this worker no longer
 * holds it (taken over, or already moved on) or its flow is no longer live. The flow row is held `FOR SHARE` until
 * the steps commit, so a pause (an `UPDATE` of that row) waits for steps already running and no step starts after
 * it: a claim made before the pause is let go here, the enrolment keeps its place and runs after the resume.
 */
export async function lockEnrolment(
  sql: Sql,
  companyId: CompanyId,
  id: number,
  worker: string,
): Promise<EnrolmentState | null> {
  return (await lockEnrolments(sql, companyId, [id], worker)).get(id) ?? null;
}

/**
 * `lockEnrolment` for a whole chunk in two statements: locks every enrolment of `ids` this worker still holds (and
 * their flows `FOR SHARE`, each only while live), lowest id first, and lets go of the claims of the others. The
 * states are as read now; a step run since that may have changed one (the same person's earlier enrolment in the
 * chunk) calls for `lockEnrolment` again.
 */
export async function lockEnrolments(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[],
  worker: string,
): Promise<Map<number, EnrolmentState>> {
  const { rows } = await sql.query<EnrolmentState>(
    `SELECT e.id::int, e.flow_id::int, e.subscriber_id::int, e.location_id::int, s.guest_id::int, e.current_key,
            e.next_run_at, e.open_step_id::int, e.last_outbox_id::int, e.entered_at, v.graph,
            f.status AS flow_status, coalesce(s.subscribed, false) AS subscribed,
            EXISTS (SELECT 1 FROM mail_suppressions x
                    WHERE x.company_id = $1 AND x.email_hash = ${addressHashSql('s.email')}) AS suppressed,
            coalesce(l.time_zone, c.time_zone) AS time_zone, true AS in_scope
     FROM flow_enrolments e
     JOIN flows f ON f.company_id = $1 AND f.id = e.flow_id
     JOIN flow_versions v ON v.company_id = $1 AND v.id = e.flow_version_id
     JOIN companies c ON c.id = $1
     LEFT JOIN subscribers s ON s.company_id = $1 AND s.id = e.subscriber_id
     LEFT JOIN locations l ON l.company_id = $1 AND l.id = e.location_id
     WHERE e.company_id = $1 AND e.id = ANY($2::bigint[]) AND e.claimed_by = $3 AND e.status = 'active'
       AND f.status = 'live'
     ORDER BY e.id
     FOR UPDATE OF e FOR SHARE OF f`,
    [companyId, ids, worker],
  );
  const states = new Map(rows.map((row) => [row.id, row]));
  const others = ids.filter((id) => !states.has(id));
  // Paused (or taken over, or moved on): this worker's claims, where it still has them, go; the due times stay.
  if (others.length > 0) {
    await sql.query(
      `UPDATE flow_enrolments SET claimed_at = NULL, claimed_by = NULL
       WHERE company_id = $1 AND id = ANY($2::bigint[]) AND claimed_by = $3 AND status = 'active'`,
      [companyId, others, worker],
    );
  }
  return states;
}

/**
 * Locks the subscribers of the given enrolments, lowest id first (`FOR NO KEY UPDATE`): two transactions that
 * might email one person take turns, so the frequency cap's count sees the other's email. The fixed order keeps
 * two workers' chunks from deadlocking; an outbox row's foreign key check (`FOR KEY SHARE`, a campaign's freeze)
 * does not wait on it.
 */
export async function lockSubscribersOf(
  sql: Sql,
  companyId: CompanyId,
  enrolmentIds: readonly number[],
): Promise<void> {
  await sql.query(
    `SELECT s.id FROM subscribers s
     WHERE s.company_id = $1
       AND s.id IN (SELECT e.subscriber_id FROM flow_enrolments e WHERE e.company_id = $1 AND e.id = ANY($2::bigint[]))
     ORDER BY s.id FOR NO KEY UPDATE OF s`,
    [companyId, enrolmentIds],
  );
}

/** Starts a step's history row; its id. */
export async function openStep(
  sql: Sql,
  companyId: CompanyId,
  enrolment: Pick<EnrolmentState, 'id' | 'flow_id' | 'subscriber_id'>,
  item: Pick<FlowGraphItem, 'key' | 'kind'> & { type: string },
  enteredAt: Date,
): Promise<number> {
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO flow_enrolment_steps (company_id, enrolment_id, flow_id, subscriber_id, key, kind, type, entered_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::int`,
    [
      companyId,
      enrolment.id,
      enrolment.flow_id,
      enrolment.subscriber_id,
      item.key,
      item.kind,
      item.type,
      enteredAt,
    ],
  );
  return rows[0]!.id;
}

/** Finishes a step's history row with what happened. */
export async function closeStep(
  sql: Sql,
  companyId: CompanyId,
  stepId: number,
  doneAt: Date,
  outcome: string,
  mailRunId: number | null = null,
): Promise<void> {
  await sql.query(
    `UPDATE flow_enrolment_steps SET done_at = $3, outcome = $4, mail_run_id = coalesce($5, mail_run_id)
     WHERE company_id = $1 AND id = $2`,
    [companyId, stepId, doneAt, outcome, mailRunId],
  );
}

/** Where an enrolment goes next, written with its claim released. */
export interface EnrolmentMove {
  current_key: string | null;
  next_run_at: Date | null;
  open_step_id: number | null;
  last_outbox_id: number | null;
  status: 'active' | 'completed' | 'exited';
  exit_reason: string | null;
  left_at: Date | null;
}

/** Saves where the enrolment is now and lets go of its claim. */
export async function moveEnrolment(
  sql: Sql,
  companyId: CompanyId,
  id: number,
  move: EnrolmentMove,
): Promise<void> {
  await sql.query(
    `UPDATE flow_enrolments SET current_key = $3, next_run_at = $4, open_step_id = $5, last_outbox_id = $6,
            status = $7, exit_reason = $8, left_at = $9, claimed_at = NULL, claimed_by = NULL, failures = 0,
            last_error = NULL
     WHERE company_id = $1 AND id = $2`,
    [
      companyId,
      id,
      move.current_key,
      move.next_run_at,
      move.open_step_id,
      move.last_outbox_id,
      move.status,
      move.exit_reason,
      move.left_at,
    ],
  );
}

/**
 * Marketing emails a person got in `(from, to]`: flow emails (steps sent, by the engine's clock) and campaign
 * messages (outbox rows not failed, suppressed or cancelled, by their run's creation).
 */
export async function marketingEmailsBetween(
  sql: Sql,
  companyId: CompanyId,
  subscriberId: number,
  from: Date,
  to: Date,
): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM flow_enrolment_steps st
             WHERE st.company_id = $1 AND st.subscriber_id = $2 AND st.outcome = 'sent'
               AND st.entered_at > $3 AND st.entered_at <= $4)
          + (SELECT count(*) FROM mail_outbox o JOIN mail_runs r ON r.id = o.run_id AND r.kind = 'campaign'
             WHERE o.company_id = $1 AND o.subscriber_id = $2 AND o.status IN ('queued', 'sending', 'sent')
               AND r.created_at > $3 AND r.created_at <= $4) AS n`,
    [companyId, subscriberId, from, to],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Whether the guest has a check closed in `(after, until]`. */
export async function visitedBetween(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
  after: Date,
  until: Date,
): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT 1 FROM pos_checks WHERE company_id = $1 AND guest_id = $2 AND closed_at > $3 AND closed_at <= $4 LIMIT 1`,
    [companyId, guestId, after, until],
  );
  return rows.length > 0;
}

/** Whether an outbox row was opened by a person / clicked. */
export async function outboxEngagement(
  sql: Sql,
  companyId: CompanyId,
  outboxId: number,
): Promise<{ opened: boolean; clicked: boolean }> {
  const { rows } = await sql.query<{ opened: boolean; clicked: boolean }>(
    `SELECT opened_at IS NOT NULL AS opened, clicked_at IS NOT NULL AS clicked
     FROM mail_outbox WHERE company_id = $1 AND id = $2`,
    [companyId, outboxId],
  );
  return rows[0] ?? { opened: false, clicked: false };
}

/** Whether the subscriber's guest is a member of any of the segments' member-guest fragments. */
export async function subscriberInSegments(
  sql: Sql,
  companyId: CompanyId,
  guestId: number | null,
  segments: readonly RawBuilder<{ id: number }>[],
): Promise<boolean> {
  if (guestId === null || segments.length === 0) return false;
  const members = rawSql.join(
    segments.map((fragment) => rawSql`${guestId}::bigint IN (${fragment})`),
    rawSql` OR `,
  );
  const [row] = await runWithSegmentPlanner(sql, rawSql<{ hit: boolean }>`SELECT (${members}) AS hit`);
  void companyId;
  return row?.hit === true;
}

/** How long a failed enrolment or event waits before it is tried again: a minute, doubling, at most 6 hours. */
export const FLOW_RETRY_SQL = (failures: string) => `least(60 * power(2, ${failures}), 21600)`;

/**
 * Lets go of this worker's claims after a failed turn: each enrolment counts the failure, keeps the error's code
 * (never its message, which may quote a person's data) and is due again after the backoff (`now`: the engine's
 * clock), so a step that keeps failing is tried a minute later, then 2, 4 … up to 6 hours apart.
 */
export async function failEnrolments(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[],
  worker: string,
  now: Date,
  code: string,
): Promise<void> {
  await sql.query(
    `UPDATE flow_enrolments
     SET claimed_at = NULL, claimed_by = NULL, failures = failures + 1, last_error = $5,
         next_run_at = greatest(next_run_at, $4::timestamptz + make_interval(secs => ${FLOW_RETRY_SQL('failures')}))
     WHERE company_id = $1 AND id = ANY($2::bigint[]) AND claimed_by = $3 AND status = 'active'`,
    [companyId, ids, worker, now, code],
  );
}

/** The companies with a live flow whose trigger is date-based (the daily pass visits only these). */
export async function companiesWithDateFlows(sql: Sql): Promise<number[]> {
  const { rows } = await sql.query<{ company_id: number }>(
    `SELECT DISTINCT f.company_id::int FROM flows f
     JOIN flow_versions v ON v.company_id = f.company_id AND v.flow_id = f.id AND v.version = f.published_version
     WHERE f.status = 'live'
       AND EXISTS (SELECT 1 FROM jsonb_array_elements(v.graph) item
                   WHERE item->>'kind' = 'trigger'
                     AND item->'settings'->>'type' IN ('birthday', 'first_visit_anniversary', 'no_visit_for'))`,
  );
  return rows.map((row) => row.company_id);
}

/** A person a date-based trigger fires for today, at the location whose day it is. */
export interface DateCandidate {
  subscriber_id: number;
  location_id: number | null;
}

/**
 * The subscribed subscribers a date-based trigger fires for on the local day of `now` (the zone of their location,
 * else the company's): a birthday `days_before` days from today (29 February only in leap years); the
 * anniversary of the linked guest's first visit (a later year); the linked guest's last visit exactly `days` days
 * ago. Their location: the subscriber's source location, or the guest's first location.
 */
export async function dateTriggerCandidates(
  sql: Sql,
  companyId: CompanyId,
  trigger:
    | { type: 'birthday'; days_before: number }
    | { type: 'first_visit_anniversary' }
    | { type: 'no_visit_for'; days: number },
  now: Date,
): Promise<DateCandidate[]> {
  const today = `($2::timestamptz AT TIME ZONE coalesce(l.time_zone, c.time_zone))::date`;
  const local = (column: string) => `(${column} AT TIME ZONE coalesce(l.time_zone, c.time_zone))::date`;
  const condition = {
    birthday: `s.birthday IS NOT NULL AND to_char(s.birthday, 'MM-DD') = to_char(${today} + $3::int, 'MM-DD')`,
    first_visit_anniversary: `g.first_visit_at IS NOT NULL
      AND to_char(${local('g.first_visit_at')}, 'MM-DD') = to_char(${today}, 'MM-DD')
      AND ${local('g.first_visit_at')} < ${today}`,
    no_visit_for: `g.last_visit_at IS NOT NULL AND ${local('g.last_visit_at')} = ${today} - $3::int`,
  }[trigger.type];
  const days =
    trigger.type === 'birthday' ? trigger.days_before : trigger.type === 'no_visit_for' ? trigger.days : 0;
  const { rows } = await sql.query<DateCandidate>(
    `SELECT s.id::int AS subscriber_id, coalesce(s.source_location_id, g.first_location_id)::int AS location_id
     FROM subscribers s
     JOIN companies c ON c.id = $1
     LEFT JOIN guests g ON g.company_id = $1 AND g.id = s.guest_id
     LEFT JOIN locations l ON l.company_id = $1 AND l.id = coalesce(s.source_location_id, g.first_location_id)
     WHERE s.company_id = $1 AND s.subscribed AND ${condition}
     ORDER BY s.id`,
    [companyId, now, days],
  );
  return rows;
}
