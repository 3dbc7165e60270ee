import { sql as rawSql, type RawBuilder } from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { queryBuilder } from '../db/query-builder.js';
import { runWithSegmentPlanner } from './segment-rules/planner.js';
import { addressHashSql } from './address-hash.js';
import type { WriteScope } from './scope.js';
import { redactPersonalData } from '../privacy.js';

/**
 * Who a run is for (only those still subscribed): chosen subscribers, the members of subscriber lists, or the
 * subscriber ids a statement fragment selects (a campaign's audience, `audienceSubscribers`).
 */
export type RunAudience =
  | { subscriberIds: readonly number[] }
  | { listIds: readonly number[] }
  | { subscribers: RawBuilder<{ id: number }> };

/** What is sent, frozen with the run: templates with merge tags, and the footer's postal address. */
export interface RunContent {
  from: string;
  subject: string;
  html: string;
  text: string;
  tracking: boolean;
}

/** A run's status: sending until every row is done; paused and cancelled by the company. */
export type RunStatus = 'sending' | 'paused' | 'cancelled' | 'sent';

/** A mail run as stored. */
export interface MailRunRow {
  id: number;
  company_id: number;
  kind: 'campaign' | 'flow' | 'test';
  source_id: number | null;
  run_key: string;
  from_address: string;
  subject: string;
  html_template: string;
  text_template: string;
  postal_address: string;
  language: string;
  tracking: boolean;
  status: RunStatus;
  recipients: number;
  created_at: Date;
  finished_at: Date | null;
}

/** A new run's identity and frozen content. */
export interface NewRun {
  kind: MailRunRow['kind'];
  sourceId: number | null;
  runKey: string;
  content: RunContent;
  postalAddress: string;
  language: string;
}

const RUN_COLUMNS = `id::int, company_id::int, kind, source_id::int, run_key, from_address, subject, html_template,
  text_template, postal_address, language, tracking, status, recipients, created_at, finished_at`;

/** The company's name and postal address (empty until set), or null when there is no such company. */
export async function findCompanyMailIdentity(
  sql: Sql,
  companyId: CompanyId,
): Promise<{ name: string; postal_address: string; time_zone: string } | null> {
  const { rows } = await sql.query<{ name: string; postal_address: string; time_zone: string }>(
    'SELECT name, postal_address, time_zone FROM companies WHERE id = $1',
    [companyId],
  );
  return rows[0] ?? null;
}

/** Sets the postal address every marketing footer of the company shows; companies are written in a platform transaction. */
export async function updateCompanyPostalAddress(
  sql: Sql,
  scope: WriteScope,
  address: string,
): Promise<void> {
  const before = await findCompanyMailIdentity(sql, scope.companyId);
  await sql.query('UPDATE companies SET postal_address = $2 WHERE id = $1', [scope.companyId, address]);
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'company_postal_address',
    entityId: scope.companyId,
    before: before?.postal_address ?? null,
    after: address,
  });
}

/**
 * Inserts the run unless the same (kind, source, run key) exists; `created` says which. A second process
 * inserting the same key waits on the unique index for the first to commit, then finds its run.
 */
export async function insertRunOnce(
  sql: Sql,
  scope: WriteScope,
  run: NewRun,
): Promise<{ run: MailRunRow; created: boolean }> {
  const inserted = await sql.query<MailRunRow>(
    `INSERT INTO mail_runs (company_id, kind, source_id, run_key, from_address, subject, html_template, text_template,
                            postal_address, language, tracking)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (company_id, kind, source_id, run_key) DO NOTHING
     RETURNING ${RUN_COLUMNS}`,
    [
      scope.companyId,
      run.kind,
      run.sourceId,
      run.runKey,
      run.content.from,
      run.content.subject,
      run.content.html,
      run.content.text,
      run.postalAddress,
      run.language,
      run.content.tracking,
    ],
  );
  if (inserted.rows[0]) {
    await recordAudit(sql, scope, {
      action: 'create',
      entity: 'mail_run',
      entityId: inserted.rows[0].id,
      after: { kind: run.kind, source_id: run.sourceId, run_key: run.runKey },
    });
    return { run: inserted.rows[0], created: true };
  }
  const { rows } = await sql.query<MailRunRow>(
    `SELECT ${RUN_COLUMNS} FROM mail_runs
     WHERE company_id = $1 AND kind = $2 AND source_id IS NOT DISTINCT FROM $3 AND run_key = $4`,
    [scope.companyId, run.kind, run.sourceId, run.runKey],
  );
  return { run: rows[0]!, created: false };
}

/**
 * Freezes the audience into the outbox in one statement: address and merge values as they are now, the stable
 * Message-ID `<r{run}.s{subscriber}@{domain}>`, and 'suppressed' for an address on the suppression list. Only
 * subscribed subscribers of the company are taken; a row already there is kept. Returns the rows inserted.
 */
export async function freezeOutbox(
  sql: Sql,
  companyId: CompanyId,
  runId: number,
  domain: string,
  audience: RunAudience,
): Promise<number> {
  const chosen =
    'subscriberIds' in audience
      ? rawSql`s.id = ANY(${[...audience.subscriberIds]}::bigint[])`
      : 'listIds' in audience
        ? rawSql`s.id IN (SELECT m.subscriber_id FROM subscriber_list_members m
                          WHERE m.company_id = ${companyId} AND m.list_id = ANY(${[...audience.listIds]}::bigint[]))`
        : rawSql`s.id IN (${audience.subscribers})`;
  // One statement, whatever the audience: a campaign's segments are evaluated inside it (hashed guest sets).
  const statement = rawSql<{ n: number }>`
    WITH added AS (
      ${outboxInsert(companyId, rawSql`${runId}::bigint`, rawSql``, domain, chosen)}
      RETURNING 1)
    SELECT count(*)::int AS n FROM added`;
  // Chosen subscribers (a flow's email) need no segment planner: its settings cost two round trips per email.
  const [inserted] =
    'subscriberIds' in audience
      ? (await sql.query<{ n: number }>(...compiledOf(statement))).rows
      : await runWithSegmentPlanner(sql, statement);
  const rowCount = inserted?.n ?? 0;
  await sql.query(
    `UPDATE mail_runs SET recipients = (SELECT count(*) FROM mail_outbox WHERE run_id = $2 AND company_id = $1)
     WHERE company_id = $1 AND id = $2`,
    [companyId, runId],
  );
  return rowCount;
}

/**
 * The outbox rows of a run (`runId`, an expression; `from`, more `FROM` items it needs): the subscribed
 * subscribers `chosen` picks, each with address and merge values as they are now, the stable Message-ID
 * `<r{run}.s{subscriber}@{domain}>`, and 'suppressed' for an address on the suppression list; a row already there
 * is kept.
 */
function outboxInsert(
  companyId: CompanyId,
  runId: RawBuilder<unknown>,
  from: RawBuilder<unknown>,
  domain: string,
  chosen: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return rawSql`
    INSERT INTO mail_outbox (company_id, run_id, subscriber_id, email, merge, message_id, status)
    SELECT ${companyId}::bigint, ${runId}, s.id, s.email,
           jsonb_build_object('first_name', s.first_name, 'last_name', s.last_name, 'email', s.email,
                              'location_name', coalesce(l.name, '')),
           '<r' || ${runId} || '.s' || s.id || '@' || ${domain}::text || '>',
           CASE WHEN EXISTS (SELECT 1 FROM mail_suppressions x
                             WHERE x.company_id = ${companyId} AND x.email_hash = ${rawSql.raw(addressHashSql('s.email'))})
                THEN 'suppressed' ELSE 'queued' END
    FROM ${from} subscribers s
    LEFT JOIN locations l ON l.company_id = ${companyId} AND l.id = s.source_location_id
    WHERE s.company_id = ${companyId}::bigint AND s.subscribed AND ${chosen}
    ON CONFLICT (run_id, subscriber_id) DO NOTHING`;
}

/** A one-subscriber run as `freezeSubscriberRun` made it: the run, and its outbox row (null: not subscribed). */
export interface SubscriberRun {
  runId: number;
  created: boolean;
  outbox: { id: number; status: string } | null;
}

/**
 * A run for one subscriber (a flow's email) in one statement: the run (recipients counted from the same
 * subscriber row), its audit entry and its outbox row, as `insertRunOnce` then `freezeOutbox` would make them, in
 * one round trip instead of five. A run already made with the key is answered as it is (`created: false`).
 */
export async function freezeSubscriberRun(
  sql: Sql,
  scope: WriteScope,
  run: NewRun,
  subscriberId: number,
  domain: string,
): Promise<SubscriberRun> {
  const companyId = scope.companyId;
  const chosen = rawSql`s.id = ${subscriberId}::bigint`;
  const after = JSON.stringify(
    redactPersonalData({ kind: run.kind, source_id: run.sourceId, run_key: run.runKey }),
  );
  const statement = rawSql<{ run_id: number; outbox_id: number | null; status: string | null }>`
    WITH run AS (
      INSERT INTO mail_runs (company_id, kind, source_id, run_key, from_address, subject, html_template,
                             text_template, postal_address, language, tracking, recipients)
      VALUES (${companyId}, ${run.kind}, ${run.sourceId}, ${run.runKey}, ${run.content.from}, ${run.content.subject},
              ${run.content.html}, ${run.content.text}, ${run.postalAddress}, ${run.language}, ${run.content.tracking},
              (SELECT count(*) FROM subscribers s WHERE s.company_id = ${companyId}::bigint AND s.subscribed AND ${chosen}))
      ON CONFLICT (company_id, kind, source_id, run_key) DO NOTHING
      RETURNING id),
    -- Not recordAudit: that is a statement of its own needing the run's id first, a second round trip per email.
    audit AS (
      INSERT INTO audit_log (company_id, user_id, actor_user_id, action, entity, entity_id, before, after)
      SELECT ${companyId}::bigint, ${scope.userId}::bigint, ${scope.actorUserId}::bigint, 'create', 'mail_run',
             run.id::text, NULL,
             ${after}::jsonb
      FROM run),
    added AS (
      ${outboxInsert(companyId, rawSql`run.id`, rawSql`run,`, domain, chosen)}
      RETURNING id, status)
    SELECT run.id::int AS run_id, added.id::int AS outbox_id, added.status FROM run LEFT JOIN added ON true`;
  const { rows } = await sql.query<{ run_id: number; outbox_id: number | null; status: string | null }>(
    ...compiledOf(statement),
  );
  const made = rows[0];
  if (made) {
    const outbox = made.outbox_id === null ? null : { id: made.outbox_id, status: made.status! };
    return { runId: made.run_id, created: true, outbox };
  }
  // Made before with this key (a retried step): the run and its row as they are.
  const found = await sql.query<{ run_id: number; outbox_id: number | null; status: string | null }>(
    `SELECT r.id::int AS run_id, o.id::int AS outbox_id, o.status FROM mail_runs r
     LEFT JOIN mail_outbox o ON o.run_id = r.id AND o.subscriber_id = $5
     WHERE r.company_id = $1 AND r.kind = $2 AND r.source_id IS NOT DISTINCT FROM $3 AND r.run_key = $4`,
    [companyId, run.kind, run.sourceId, run.runKey, subscriberId],
  );
  const row = found.rows[0]!;
  const outbox = row.outbox_id === null ? null : { id: row.outbox_id, status: row.status! };
  return { runId: row.run_id, created: false, outbox };
}

/** A raw statement as the text and parameters `Sql.query` takes. */
function compiledOf(statement: RawBuilder<unknown>): [string, readonly unknown[]] {
  const compiled = statement.compile(queryBuilder);
  return [compiled.sql, compiled.parameters];
}

/** A run of the company, or null. */
export async function findRun(sql: Sql, companyId: CompanyId, runId: number): Promise<MailRunRow | null> {
  const { rows } = await sql.query<MailRunRow>(
    `SELECT ${RUN_COLUMNS} FROM mail_runs WHERE company_id = $1 AND id = $2`,
    [companyId, runId],
  );
  return rows[0] ?? null;
}

/** A run's outbox rows counted by status. */
export type RunProgress = Record<
  'queued' | 'sending' | 'sent' | 'failed' | 'suppressed' | 'cancelled',
  number
>;

/** How far a run has gone: its outbox rows counted by status. */
export async function runProgress(sql: Sql, companyId: CompanyId, runId: number): Promise<RunProgress> {
  const { rows } = await sql.query<{ status: keyof RunProgress; n: number }>(
    `SELECT status, count(*)::int AS n FROM mail_outbox WHERE company_id = $1 AND run_id = $2 GROUP BY status`,
    [companyId, runId],
  );
  const progress: RunProgress = { queued: 0, sending: 0, sent: 0, failed: 0, suppressed: 0, cancelled: 0 };
  for (const row of rows) progress[row.status] = row.n;
  return progress;
}

/**
 * Moves a run from one of `from` to `to`; false when it is in none of them. Cancelling also cancels the rows
 * not yet claimed (a claimed batch finishes). Resuming makes the paused rows due now.
 */
export async function changeRunStatus(
  sql: Sql,
  scope: WriteScope,
  runId: number,
  from: readonly RunStatus[],
  to: RunStatus,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE mail_runs SET status = $3, finished_at = CASE WHEN $3 = 'cancelled' THEN now() ELSE finished_at END
     WHERE company_id = $1 AND id = $2 AND status = ANY($4::text[])`,
    [scope.companyId, runId, to, from],
  );
  if (rowCount === 0) return false;
  if (to === 'cancelled') {
    await sql.query(
      `UPDATE mail_outbox SET status = 'cancelled' WHERE company_id = $1 AND run_id = $2 AND status = 'queued'`,
      [scope.companyId, runId],
    );
  }
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'mail_run',
    entityId: runId,
    after: { status: to },
  });
  return true;
}
