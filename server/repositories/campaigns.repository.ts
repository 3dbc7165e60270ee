import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { likePattern } from './like-pattern.js';
import { assertOwnedRows, distinctIds, jsonParam, type Page, type PageWindow } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/** Where a campaign is in its life (docs/campaigns.md, "Statuses"). */
export type CampaignStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'paused' | 'cancelled';

/** How often a campaign sends. */
export type CampaignRepeat = 'once' | 'daily' | 'weekly' | 'monthly';

/** Statuses in which the campaign's fields may still change. */
export const EDITABLE_CAMPAIGN_STATUSES: readonly CampaignStatus[] = [
  'draft',
  'scheduled',
  'paused',
  'cancelled',
];

/** Statuses from which the send action may start a campaign. */
export const SENDABLE_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['draft', 'scheduled', 'cancelled'];

/** A campaign row: the audience's ids, `start`/`end` as `YYYY-MM-DD` days, the schedule's JSON arrays. */
export interface CampaignRow {
  id: number;
  company_id: number;
  name: string;
  kind: CampaignKind;
  status: CampaignStatus;
  segment_ids: number[];
  list_ids: number[];
  location_ids: number[];
  location_group_ids: number[];
  start: string | null;
  end: string | null;
  repeat_on: CampaignRepeat;
  categories: string[];
  selected_days: string[];
  schedules: string[];
  next_run_at: Date | null;
  sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The writable fields of a campaign, all given on create and update (the editor saves the whole draft). */
export interface CampaignFields {
  name: string;
  segment_ids: readonly number[];
  list_ids: readonly number[];
  location_ids: readonly number[];
  location_group_ids: readonly number[];
  start: string | null;
  end: string | null;
  repeat_on: CampaignRepeat;
  categories: readonly string[];
  selected_days: readonly string[];
  schedules: readonly string[];
}

/** What creating a campaign needs: a name; the rest defaults (an email draft, no audience, sent once). */
export type CampaignInput = Pick<CampaignFields, 'name'> & Partial<CampaignFields> & { kind?: CampaignKind };

/** Email campaigns are sent by the product; other campaigns run in store and are measured. */
export type CampaignKind = 'email' | 'other';

/** Filters of the campaign list. */
export interface CampaignFilter extends PageWindow {
  q?: string | undefined;
  status?: CampaignStatus | undefined;
}

/** Outbox rows of a campaign's runs by status, with engagement and the latest run's start. */
export interface CampaignFigures {
  queued: number;
  sending: number;
  sent: number;
  failed: number;
  suppressed: number;
  cancelled: number;
  recipients: number;
  opened: number;
  clicked: number;
  unsubscribed: number;
  last_sent_at: Date | null;
}

/** Figures of a campaign that has never sent. */
export const NO_FIGURES: CampaignFigures = {
  queued: 0,
  sending: 0,
  sent: 0,
  failed: 0,
  suppressed: 0,
  cancelled: 0,
  recipients: 0,
  opened: 0,
  clicked: 0,
  unsubscribed: 0,
  last_sent_at: null,
};

const SELECT_CAMPAIGN = `
  SELECT c.id::int, c.company_id::int, c.name, c.kind, c.status, c.segment_ids::int[] AS segment_ids,
         c.list_ids::int[] AS list_ids, c.location_ids::int[] AS location_ids,
         c.location_group_ids::int[] AS location_group_ids, c.start::text AS start, c."end"::text AS "end",
         c.repeat_on, c.categories, c.selected_days, c.schedules, c.next_run_at, c.sent_at, c.created_at,
         c.updated_at
  FROM campaigns c`;

/** One campaign, or null when it does not exist in this company; `lock` holds it for the transaction. */
export async function getCampaign(
  sql: Sql,
  companyId: CompanyId,
  id: number,
  lock = false,
): Promise<CampaignRow | null> {
  const { rows } = await sql.query<CampaignRow>(
    `${SELECT_CAMPAIGN} WHERE c.company_id = $1 AND c.id = $2${lock ? ' FOR UPDATE OF c' : ''}`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

/** One page of a company's email campaigns, newest first, searched by name and status, with the total. */
export async function listCampaigns(
  sql: Sql,
  companyId: CompanyId,
  filter: CampaignFilter,
): Promise<Page<CampaignRow>> {
  const where = `c.company_id = $1 AND c.kind = 'email' AND ($2::text IS NULL OR c.name ILIKE $2)
    AND ($3::text IS NULL OR c.status = $3)`;
  const params = [companyId, filter.q ? likePattern(filter.q) : null, filter.status ?? null];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM campaigns c WHERE ${where}`,
    params,
  );
  const page = await sql.query<CampaignRow>(
    `${SELECT_CAMPAIGN} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT $4 OFFSET $5`,
    [...params, filter.limit, filter.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/**
 * Throws UnknownReferenceError naming the field (`segment_ids`, `list_ids`, `location_ids`,
 * `location_group_ids`) for an id the company does not have.
 */
export async function assertAudienceOwned(
  sql: Sql,
  companyId: CompanyId,
  fields: Pick<CampaignFields, 'segment_ids' | 'list_ids' | 'location_ids' | 'location_group_ids'>,
): Promise<void> {
  await assertOwnedRows(sql, companyId, 'segments', 'segment_ids', fields.segment_ids);
  await assertOwnedRows(sql, companyId, 'subscriber_lists', 'list_ids', fields.list_ids);
  await assertOwnedRows(sql, companyId, 'locations', 'location_ids', fields.location_ids);
  await assertOwnedRows(sql, companyId, 'location_groups', 'location_group_ids', fields.location_group_ids);
}

/** A new campaign's fields besides its name: no audience, no schedule, sent once. */
export const CAMPAIGN_DEFAULTS: Omit<CampaignFields, 'name'> = {
  segment_ids: [],
  list_ids: [],
  location_ids: [],
  location_group_ids: [],
  start: null,
  end: null,
  repeat_on: 'once',
  categories: [],
  selected_days: [],
  schedules: [],
};

function fieldValues(input: CampaignInput): unknown[] {
  const fields: CampaignFields = { ...CAMPAIGN_DEFAULTS, ...input };
  return [
    fields.name,
    distinctIds([...fields.segment_ids]),
    distinctIds([...fields.list_ids]),
    distinctIds([...fields.location_ids]),
    distinctIds([...fields.location_group_ids]),
    fields.start,
    fields.end,
    fields.repeat_on,
    jsonParam(fields.categories),
    jsonParam(fields.selected_days),
    jsonParam(fields.schedules),
  ];
}

/** Creates a draft campaign; throws UnknownReferenceError for an audience id of another company. */
export async function createCampaign(
  sql: Sql,
  scope: WriteScope,
  input: CampaignInput,
): Promise<CampaignRow> {
  await assertAudienceOwned(sql, scope.companyId, {
    segment_ids: input.segment_ids ?? [],
    list_ids: input.list_ids ?? [],
    location_ids: input.location_ids ?? [],
    location_group_ids: input.location_group_ids ?? [],
  });
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO campaigns (company_id, kind, status, created_by, name, segment_ids, list_ids, location_ids,
                            location_group_ids, start, "end", repeat_on, categories, selected_days, schedules)
     VALUES ($1, $14, 'draft', $2, $3, $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::date,
             $9::date, $10, $11::jsonb, $12::jsonb, $13::jsonb)
     RETURNING id`,
    [scope.companyId, scope.userId, ...fieldValues(input), input.kind ?? 'email'],
  );
  const created = (await getCampaign(sql, scope.companyId, rows[0]!.id))!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'campaign',
    entityId: created.id,
    after: created,
  });
  return created;
}

/**
 * Replaces a campaign's fields; null when it does not exist in this company. The caller checks the status
 * (under the row lock it took with `getCampaign(…, true)`).
 */
export async function updateCampaign(
  sql: Sql,
  scope: WriteScope,
  id: number,
  fields: CampaignFields,
): Promise<CampaignRow | null> {
  const before = await getCampaign(sql, scope.companyId, id, true);
  if (!before) return null;
  await assertAudienceOwned(sql, scope.companyId, fields);
  await sql.query(
    `UPDATE campaigns SET name = $3, segment_ids = $4::bigint[], list_ids = $5::bigint[],
            location_ids = $6::bigint[], location_group_ids = $7::bigint[], start = $8::date, "end" = $9::date,
            repeat_on = $10, categories = $11::jsonb, selected_days = $12::jsonb, schedules = $13::jsonb,
            updated_at = now()
     WHERE company_id = $1 AND id = $2`,
    [scope.companyId, id, ...fieldValues(fields)],
  );
  const after = (await getCampaign(sql, scope.companyId, id))!;
  await recordAudit(sql, scope, { action: 'update', entity: 'campaign', entityId: id, before, after });
  return after;
}

/** Deletes a campaign with its email content; its runs stay for the figures. False when not this company's. */
export async function deleteCampaign(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = await getCampaign(sql, scope.companyId, id, true);
  if (!before) return false;
  await sql.query('DELETE FROM campaigns WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'campaign', entityId: id, before });
  return true;
}

/** Sets a campaign's status and next instant (and `sent_at` when it became sent); audited. */
export async function setCampaignState(
  sql: Sql,
  scope: WriteScope,
  id: number,
  state: { status: CampaignStatus; nextRunAt: Date | null },
): Promise<CampaignRow> {
  const before = await getCampaign(sql, scope.companyId, id);
  await sql.query(
    `UPDATE campaigns SET status = $3, next_run_at = $4,
            sent_at = CASE WHEN $3 = 'sent' THEN now() ELSE sent_at END, updated_at = now()
     WHERE company_id = $1 AND id = $2`,
    [scope.companyId, id, state.status, state.nextRunAt],
  );
  const after = (await getCampaign(sql, scope.companyId, id))!;
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'campaign',
    entityId: id,
    before: before && { status: before.status, next_run_at: before.next_run_at },
    after: { status: after.status, next_run_at: after.next_run_at },
  });
  return after;
}

/**
 * The figures of campaigns by id: their runs' outbox rows by status, human opens (`opened_at`, machine opens
 * left out), clicks, unsubscribes the runs caused, and the latest run's start. Campaigns without runs are absent.
 */
export async function campaignFigures(
  sql: Sql,
  companyId: CompanyId,
  campaignIds: readonly number[],
): Promise<Map<number, CampaignFigures>> {
  if (campaignIds.length === 0) return new Map();
  const { rows } = await sql.query<CampaignFigures & { campaign_id: number }>(
    `SELECT r.source_id::int AS campaign_id,
            count(o.id) FILTER (WHERE o.status = 'queued')::int AS queued,
            count(o.id) FILTER (WHERE o.status = 'sending')::int AS sending,
            count(o.id) FILTER (WHERE o.status = 'sent')::int AS sent,
            count(o.id) FILTER (WHERE o.status = 'failed')::int AS failed,
            count(o.id) FILTER (WHERE o.status = 'suppressed')::int AS suppressed,
            count(o.id) FILTER (WHERE o.status = 'cancelled')::int AS cancelled,
            count(o.id)::int AS recipients,
            count(o.id) FILTER (WHERE o.opened_at IS NOT NULL)::int AS opened,
            count(o.id) FILTER (WHERE o.clicked_at IS NOT NULL)::int AS clicked,
            (SELECT count(*)::int FROM mail_suppressions x JOIN mail_runs xr ON xr.id = x.run_id
             WHERE x.company_id = $1 AND x.reason = 'unsubscribed' AND xr.company_id = $1
               AND xr.kind = 'campaign' AND xr.source_id = r.source_id) AS unsubscribed,
            max(r.created_at) AS last_sent_at
     FROM mail_runs r
     LEFT JOIN mail_outbox o ON o.company_id = $1 AND o.run_id = r.id
     WHERE r.company_id = $1 AND r.kind = 'campaign' AND r.source_id = ANY($2::bigint[])
     GROUP BY r.source_id`,
    [companyId, [...campaignIds]],
  );
  return new Map(rows.map(({ campaign_id, ...figures }) => [campaign_id, figures]));
}

/** A summary row: the campaign with its template's name. */
export interface CampaignSummarySource extends CampaignRow {
  template_name: string | null;
}

/** One page of summary rows (the campaign list), filtered as the campaign list is. */
export async function listCampaignSummaries(
  sql: Sql,
  companyId: CompanyId,
  filter: CampaignFilter,
): Promise<Page<CampaignSummarySource>> {
  const page = await listCampaigns(sql, companyId, filter);
  if (page.rows.length === 0) return { count: page.count, rows: [] };
  const { rows } = await sql.query<{ campaign_id: number; template_name: string | null }>(
    `SELECT e.campaign_id::int AS campaign_id, t.name AS template_name
     FROM email_campaigns e LEFT JOIN email_templates t ON t.company_id = $1 AND t.id = e.template_id
     WHERE e.company_id = $1 AND e.campaign_id = ANY($2::bigint[])`,
    [companyId, page.rows.map((row) => row.id)],
  );
  const names = new Map(rows.map((row) => [row.campaign_id, row.template_name]));
  return {
    count: page.count,
    rows: page.rows.map((row) => ({ ...row, template_name: names.get(row.id) ?? null })),
  };
}

/** A campaign the scheduler found due: its company and id. */
export interface DueCampaign {
  id: number;
  company_id: number;
}

/**
 * Scheduled campaigns due at `now`, across companies (a platform transaction). Only a candidate list: each is
 * then locked and checked again in its own transaction, so a due instant is taken by one process.
 */
export async function findDueCampaigns(sql: Sql, now: Date, limit: number): Promise<DueCampaign[]> {
  const { rows } = await sql.query<DueCampaign>(
    `SELECT id::int, company_id::int FROM campaigns
     WHERE status = 'scheduled' AND next_run_at IS NOT NULL AND next_run_at <= $1
     ORDER BY next_run_at, id LIMIT $2`,
    [now, limit],
  );
  return rows;
}

/**
 * Campaigns marked `sending` with no run still sending or paused, across companies: candidates the scheduler
 * settles (sent, or scheduled again), each checked again under its lock.
 */
export async function findSettledCampaigns(sql: Sql, limit: number): Promise<DueCampaign[]> {
  const { rows } = await sql.query<DueCampaign>(
    `SELECT c.id::int, c.company_id::int FROM campaigns c
     WHERE c.status = 'sending'
       AND NOT EXISTS (SELECT 1 FROM mail_runs r WHERE r.company_id = c.company_id AND r.kind = 'campaign'
                         AND r.source_id = c.id AND r.status IN ('sending', 'paused'))
     ORDER BY c.id LIMIT $1`,
    [limit],
  );
  return rows;
}

/** One run of a campaign with its outbox rows by status. */
export interface CampaignRunFigures {
  id: number;
  run_key: string;
  status: 'sending' | 'paused' | 'cancelled' | 'sent';
  recipients: number;
  queued: number;
  sending: number;
  sent: number;
  failed: number;
  suppressed: number;
  cancelled: number;
  created_at: Date;
  finished_at: Date | null;
}

/** A campaign's runs, newest first, at most `limit`, each with its outbox rows by status. */
export async function campaignRuns(
  sql: Sql,
  companyId: CompanyId,
  campaignId: number,
  limit: number,
): Promise<CampaignRunFigures[]> {
  const { rows } = await sql.query<CampaignRunFigures>(
    `SELECT r.id::int, r.run_key, r.status, r.recipients, r.created_at, r.finished_at,
            count(o.id) FILTER (WHERE o.status = 'queued')::int AS queued,
            count(o.id) FILTER (WHERE o.status = 'sending')::int AS sending,
            count(o.id) FILTER (WHERE o.status = 'sent')::int AS sent,
            count(o.id) FILTER (WHERE o.status = 'failed')::int AS failed,
            count(o.id) FILTER (WHERE o.status = 'suppressed')::int AS suppressed,
            count(o.id) FILTER (WHERE o.status = 'cancelled')::int AS cancelled
     FROM (SELECT * FROM mail_runs WHERE company_id = $1 AND kind = 'campaign' AND source_id = $2
           ORDER BY id DESC LIMIT $3) r
     LEFT JOIN mail_outbox o ON o.company_id = $1 AND o.run_id = r.id
     GROUP BY r.id, r.run_key, r.status, r.recipients, r.created_at, r.finished_at
     ORDER BY r.id DESC`,
    [companyId, campaignId, limit],
  );
  return rows;
}

/** The ids of a campaign's runs in one of `statuses`. */
export async function campaignRunIds(
  sql: Sql,
  companyId: CompanyId,
  campaignId: number,
  statuses: readonly string[],
): Promise<number[]> {
  const { rows } = await sql.query<{ id: number }>(
    `SELECT id::int FROM mail_runs WHERE company_id = $1 AND kind = 'campaign' AND source_id = $2
       AND status = ANY($3::text[]) ORDER BY id`,
    [companyId, campaignId, [...statuses]],
  );
  return rows.map((row) => row.id);
}

/** Whether the campaign has a run of this key already (a second "send now" gets a key of its own). */
export async function campaignRunKeyTaken(
  sql: Sql,
  companyId: CompanyId,
  campaignId: number,
  runKey: string,
): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT 1 FROM mail_runs WHERE company_id = $1 AND kind = 'campaign' AND source_id = $2 AND run_key = $3`,
    [companyId, campaignId, runKey],
  );
  return rows.length > 0;
}

/** The company's time zone (campaign schedules are written in it). */
export async function companyTimeZone(sql: Sql, companyId: CompanyId): Promise<string> {
  const { rows } = await sql.query<{ time_zone: string }>('SELECT time_zone FROM companies WHERE id = $1', [
    companyId,
  ]);
  return rows[0]?.time_zone ?? 'UTC';
}
