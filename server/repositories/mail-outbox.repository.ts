import type { CompanyId, Sql } from '../db/database.js';
import { fingerprint } from '../privacy.js';
import { addressHashSql } from './address-hash.js';
import { exitSuppressedOutboxRecipients } from './flow-exits.repository.js';

/**
 * The outbox as workers see it (docs/sending.md): claims across companies (run in `db.platform`), results
 * written a batch at a time. A claim is a lease: a row claimed longer ago than the lease belongs to a worker
 * that died and is claimed again, so a crash re-sends at most the batch it had in flight.
 */

/** One claimed message: where it goes and what fills its merge tags; `suppressed` when it must not go. */
export interface ClaimedMessage {
  id: number;
  company_id: number;
  run_id: number;
  subscriber_id: number;
  email: string;
  merge: Record<string, string>;
  message_id: string;
  attempts: number;
  suppressed: boolean;
}

/**
 * Claims up to `limit` due rows of sending runs: queued rows whose time has come and rows another worker claimed
 * longer than `leaseMs` ago (a worker's id is new in every process, so its own old claims are still in flight).
 * Each row's suppression is read in the same statement, just before its message goes.
 */
export async function claimOutboxBatch(
  sql: Sql,
  worker: string,
  limit: number,
  leaseMs: number,
): Promise<ClaimedMessage[]> {
  const { rows } = await sql.query<ClaimedMessage>(
    `WITH candidates AS (
       -- Each sending run's due rows in claim order from its index (mail_outbox_run_due), at most a batch per
       -- run, then the earliest of those, read without locks: locking inside the per-run scan locked up to a batch
       -- in every sending run (thousands of one-message flow runs released by quiet hours at once). A few
       -- batches' worth, so workers claiming together still find rows the others have not locked.
       SELECT c.id FROM mail_runs r
       CROSS JOIN LATERAL (
         SELECT d.id, d.next_attempt_at FROM mail_outbox d
         WHERE d.run_id = r.id AND d.status IN ('queued', 'sending') AND d.next_attempt_at <= now()
           -- A stale claim is taken over only from another worker: this worker's own lane may still be sending it.
           AND (d.status = 'queued' OR (d.claimed_at < now() - make_interval(secs => $3::double precision / 1000)
                                        AND d.claimed_by IS DISTINCT FROM $1))
         ORDER BY d.next_attempt_at, d.id
         LIMIT $2) c
       WHERE r.status = 'sending'
       ORDER BY c.next_attempt_at, c.id
       LIMIT $2 * 4),
     due AS (
       -- Then at most a batch of them locked, through the primary key, the conditions checked again on the
       -- locked row (another worker may have claimed it since the candidates were read, or the run stopped).
       SELECT d.id FROM mail_outbox d
       WHERE d.id = ANY (ARRAY(SELECT id FROM candidates))
         AND d.status IN ('queued', 'sending') AND d.next_attempt_at <= now()
         AND (d.status = 'queued' OR (d.claimed_at < now() - make_interval(secs => $3::double precision / 1000)
                                      AND d.claimed_by IS DISTINCT FROM $1))
         AND EXISTS (SELECT 1 FROM mail_runs r WHERE r.id = d.run_id AND r.status = 'sending')
       ORDER BY d.next_attempt_at, d.id
       LIMIT $2
       FOR UPDATE OF d SKIP LOCKED)
     -- The ids as an array, so the claimed rows are updated through the primary key, not a scan of the outbox.
     UPDATE mail_outbox o SET status = 'sending', claimed_at = now(), claimed_by = $1
     WHERE o.id = ANY (ARRAY(SELECT id FROM due))
     RETURNING o.id::int, o.company_id::int, o.run_id::int, o.subscriber_id::int, o.email, o.merge, o.message_id,
               o.attempts,
               EXISTS (SELECT 1 FROM mail_suppressions x
                       WHERE x.company_id = o.company_id AND x.email_hash = ${addressHashSql('o.email')}) AS suppressed`,
    [worker, limit, leaseMs],
  );
  return rows.sort((a, b) => a.id - b.id);
}

/** What became of one claimed message. */
export type MessageOutcome =
  | { id: number; kind: 'sent'; providerMessageId: string | null }
  | { id: number; kind: 'suppressed' }
  | { id: number; kind: 'retry'; errorClass: string; delayMs: number }
  | { id: number; kind: 'failed'; errorClass: string; suppress: boolean };

/**
 * Writes a batch's outcomes in one statement (only rows this worker still holds), suppresses the addresses a
 * server refused for good, and marks runs with nothing left to send as sent.
 */
export async function finishOutboxBatch(
  sql: Sql,
  worker: string,
  outcomes: readonly MessageOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const status = outcomes.map((o) => (o.kind === 'retry' ? 'queued' : o.kind));
  const provider = outcomes.map((o) => (o.kind === 'sent' ? o.providerMessageId : null));
  const errorClass = outcomes.map((o) => (o.kind === 'retry' || o.kind === 'failed' ? o.errorClass : null));
  const delay = outcomes.map((o) => (o.kind === 'retry' ? o.delayMs : 0));
  const { rows } = await sql.query<{ run_id: number }>(
    `UPDATE mail_outbox o
     SET status = u.status, provider_message_id = u.provider, error_class = u.error_class,
         attempts = o.attempts + CASE WHEN u.status IN ('queued', 'failed') THEN 1 ELSE 0 END,
         next_attempt_at = now() + make_interval(secs => u.delay / 1000),
         sent_at = CASE WHEN u.status = 'sent' THEN now() ELSE o.sent_at END,
         claimed_at = NULL, claimed_by = NULL
     FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::double precision[])
          AS u(id, status, provider, error_class, delay)
     -- The id list again, so the rows are found through the primary key whatever the statistics say.
     WHERE o.id = ANY($2::bigint[]) AND o.id = u.id AND o.status = 'sending' AND o.claimed_by = $1
     RETURNING o.run_id::int`,
    [worker, outcomes.map((o) => o.id), status, provider, errorClass, delay],
  );
  const refused = outcomes.filter((o) => o.kind === 'failed' && o.suppress).map((o) => o.id);
  if (refused.length > 0) {
    await sql.query(
      `INSERT INTO mail_suppressions (company_id, email, email_hash, reason, run_id)
       SELECT company_id, email, ${addressHashSql('email')}, 'bounced', run_id FROM mail_outbox
       WHERE id = ANY($1::bigint[])
       ON CONFLICT (company_id, email_hash) DO NOTHING`,
      [refused],
    );
    // A suppressed address leaves its flows at once (docs/flows.md, "Exits").
    await exitSuppressedOutboxRecipients(sql, refused);
  }
  const runs = [...new Set(rows.map((row) => row.run_id))];
  await sql.query(
    `UPDATE mail_runs r SET status = 'sent', finished_at = now()
     WHERE r.id = ANY($1::bigint[]) AND r.status = 'sending'
       AND NOT EXISTS (SELECT 1 FROM mail_outbox o WHERE o.run_id = r.id AND o.status IN ('queued', 'sending'))`,
    [runs],
  );
}

/** One outbox row as an unsubscribe link sees it. */
export interface OutboxRecipient {
  id: number;
  run_id: number;
  subscriber_id: number;
  email: string;
}

/** A delivered message as the view-in-browser page shows it again. */
export interface ViewableMessage {
  id: number;
  run_id: number;
  email: string;
  merge: Record<string, string>;
  message_id: string;
  sent_at: Date;
}

/**
 * The message a view-in-browser token names, only once it was sent and while its recipient is not erased (an
 * erasure empties the merge values and keeps only a fingerprint of the address); null otherwise.
 */
export async function findViewableMessage(
  sql: Sql,
  companyId: CompanyId,
  outboxId: number,
): Promise<ViewableMessage | null> {
  const { rows } = await sql.query<ViewableMessage>(
    `SELECT id::int, run_id::int, email, merge, message_id, sent_at FROM mail_outbox
     WHERE company_id = $1 AND id = $2 AND status = 'sent' AND sent_at IS NOT NULL AND merge <> '{}'::jsonb`,
    [companyId, outboxId],
  );
  return rows[0] ?? null;
}

/** The outbox row an unsubscribe token names, in its company; null when there is none. */
export async function findOutboxRecipient(
  sql: Sql,
  companyId: CompanyId,
  outboxId: number,
): Promise<OutboxRecipient | null> {
  const { rows } = await sql.query<OutboxRecipient>(
    `SELECT id::int, run_id::int, subscriber_id::int, email FROM mail_outbox WHERE company_id = $1 AND id = $2`,
    [companyId, outboxId],
  );
  return rows[0] ?? null;
}

/** The installation's unsubscribe-token secret (platform read). */
export async function findMailTokenSecret(sql: Sql): Promise<string> {
  const { rows } = await sql.query<{ secret: string }>(
    'SELECT secret FROM mail_token_keys ORDER BY id DESC LIMIT 1',
  );
  return rows[0]!.secret;
}

/** How an open or click was judged: by its request (agent, address), and how soon after sending counts as a prefetch. */
export interface EngagementSignal {
  /** The request looked automated (a proxy or scanner agent, an Apple Mail Privacy Protection address). */
  automated: boolean;
  /** An open or click this soon after the message was sent is a prefetch or scan at delivery. */
  prefetchSeconds: number;
}

/** Whether the recorded event counted as a person's or a machine's; null when the row is gone. */
export type EngagementOutcome = 'human' | 'machine' | null;

// A machine when the request looked automated, or it came within the prefetch window after sending.
const MACHINE = `($3::boolean OR coalesce(sent_at > now() - make_interval(secs => $4::double precision), false))`;

/** `column = now()` the first time a person's event comes; a machine's leaves it as it was. */
const humanOnce = (column: string) =>
  `${column} = CASE WHEN ${MACHINE} THEN ${column} ELSE coalesce(${column}, now()) END`;

/** `column` counts a person's event; a machine's adds nothing. */
const humanCount = (column: string) => `${column} = ${column} + CASE WHEN ${MACHINE} THEN 0 ELSE 1 END`;

/** `machine_opened_at` set the first time a machine's event comes. */
const MACHINE_OPEN_ONCE = `machine_opened_at = CASE WHEN ${MACHINE} THEN coalesce(machine_opened_at, now()) ELSE machine_opened_at END`;

/** Applies one engagement's assignments to a message in one statement and says whose it was. */
async function recordEngagement(
  sql: Sql,
  companyId: CompanyId,
  outboxId: number,
  signal: EngagementSignal,
  assignments: readonly string[],
): Promise<EngagementOutcome> {
  const { rows } = await sql.query<{ machine: boolean }>(
    `UPDATE mail_outbox SET ${assignments.join(', ')}
     WHERE company_id = $1 AND id = $2
     RETURNING ${MACHINE} AS machine`,
    [companyId, outboxId, signal.automated, signal.prefetchSeconds],
  );
  return rows[0] ? (rows[0].machine ? 'machine' : 'human') : null;
}

/**
 * Records an open of a message in one statement: a person's open sets `opened_at` once and counts in
 * `open_count`; a machine's sets `machine_opened_at` once and counts nothing. Repeats only add to the count.
 */
export async function recordOpen(
  sql: Sql,
  companyId: CompanyId,
  outboxId: number,
  signal: EngagementSignal,
): Promise<EngagementOutcome> {
  return recordEngagement(sql, companyId, outboxId, signal, [
    humanOnce('opened_at'),
    humanCount('open_count'),
    MACHINE_OPEN_ONCE,
  ]);
}

/**
 * Records a click in one statement. A person's click sets `clicked_at` once, counts in `click_count`, and is a
 * human open too when none was recorded (images are often blocked); a scanner's click (automated or within the
 * prefetch window) counts no click and only marks a machine open.
 */
export async function recordClick(
  sql: Sql,
  companyId: CompanyId,
  outboxId: number,
  signal: EngagementSignal,
): Promise<EngagementOutcome> {
  return recordEngagement(sql, companyId, outboxId, signal, [
    humanOnce('clicked_at'),
    humanCount('click_count'),
    // Assignments read the row as it was, so `opened_at IS NULL` is before this click's own open.
    `open_count = open_count + CASE WHEN NOT ${MACHINE} AND opened_at IS NULL THEN 1 ELSE 0 END`,
    humanOnce('opened_at'),
    MACHINE_OPEN_ONCE,
  ]);
}

/**
 * Forgets an erased subscriber in every run: their unsent messages are cancelled (a claimed one too: its
 * worker's result is then not written), and every message of theirs keeps only a fingerprint of the address
 * and no merge values. The suppression by hash (mail-suppressions) keeps the address out of later runs.
 */
export async function forgetSubscriberInOutbox(
  sql: Sql,
  companyId: CompanyId,
  subscriberId: number,
  email: string,
): Promise<void> {
  await sql.query(
    `UPDATE mail_outbox
     SET status = CASE WHEN status IN ('queued', 'sending') THEN 'cancelled' ELSE status END,
         email = $3, merge = '{}', claimed_at = NULL, claimed_by = NULL
     WHERE company_id = $1 AND subscriber_id = $2`,
    [companyId, subscriberId, fingerprint(email.toLowerCase())],
  );
}
