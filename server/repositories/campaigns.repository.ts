import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { likePattern } from './like-pattern.js';
import { assertOwnedRows, jsonParam, type Page, type PageWindow } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/** Where a campaign is in its life. */
export type CampaignStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'paused' | 'cancelled';

/** Email campaigns are sent by the product; other campaigns run in store and are measured. */
export type CampaignKind = 'email' | 'other';

/** Statuses a user may set by editing; `sending` and `sent` only come from the send action. */
export const EDITABLE_CAMPAIGN_STATUSES: readonly CampaignStatus[] = [
  'draft',
  'scheduled',
  'paused',
  'cancelled',
];

/** Statuses from which a campaign may start sending. */
export const SENDABLE_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['draft', 'scheduled'];

/** A campaign row; `categories`, `selected_days` and `schedules` are JSON arrays as the client saves them. */
export interface CampaignRow {
  id: number;
  company_id: number;
  name: string;
  kind: CampaignKind;
  status: CampaignStatus;
  segment_id: number | null;
  start: Date | null;
  end: Date | null;
  repeat_on: string;
  categories: unknown[];
  selected_days: unknown[];
  schedules: unknown[];
  sent_at: Date | null;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
}

/** The writable fields of a campaign. */
export interface CampaignFields {
  name: string;
  kind: CampaignKind;
  status: CampaignStatus;
  segment_id: number | null;
  start: Date | null;
  end: Date | null;
  repeat_on: string;
  categories: unknown[];
  selected_days: unknown[];
  schedules: unknown[];
}

/** What creating a campaign needs: a name, the rest defaults (an email draft with no schedule). */
export type CampaignInput = Pick<CampaignFields, 'name'> & Partial<CampaignFields>;

/** Filters of the campaign list. */
export interface CampaignFilter extends PageWindow {
  q?: string | undefined;
  status?: CampaignStatus | undefined;
  kind?: CampaignKind | undefined;
}

/** Raised when a campaign cannot move from its status to the one asked for. */
export class CampaignStatusError extends Error {
  constructor(
    readonly from: CampaignStatus,
    readonly to: CampaignStatus,
  ) {
    super(`A campaign cannot go from ${from} to ${to}`);
    this.name = 'CampaignStatusError';
  }
}

/** Raised when a campaign would end before it starts. */
export class CampaignPeriodError extends Error {
  constructor() {
    super('end must not be before start');
    this.name = 'CampaignPeriodError';
  }
}

const SELECT_CAMPAIGN = `
  SELECT c.id, c.company_id, c.name, c.kind, c.status, c.segment_id, c.start, c."end", c.repeat_on, c.categories,
         c.selected_days, c.schedules, c.sent_at, c.created_by, c.created_at, c.updated_at
  FROM campaigns c`;

async function selectCampaign(
  sql: Sql,
  companyId: CompanyId,
  id: number,
  lock = false,
): Promise<CampaignRow | null> {
  const { rows } = await sql.query<CampaignRow>(
    `${SELECT_CAMPAIGN} WHERE c.company_id = $1 AND c.id = $2${lock ? ' FOR UPDATE' : ''}`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

function checkPeriod(start: Date | null, end: Date | null): void {
  if (start && end && end.getTime() < start.getTime()) throw new CampaignPeriodError();
}

function checkEditableStatus(from: CampaignStatus, to: CampaignStatus | undefined): void {
  if (to === undefined || to === from) return;
  // A sent campaign stays sent; one being sent may only be paused or cancelled, never reset to resend.
  const allowed: readonly CampaignStatus[] =
    from === 'sent' ? [] : from === 'sending' ? ['paused', 'cancelled'] : EDITABLE_CAMPAIGN_STATUSES;
  if (!allowed.includes(to)) throw new CampaignStatusError(from, to);
}

/** One page of a company's campaigns, newest first, with the total count. */
export async function listCampaigns(
  sql: Sql,
  companyId: CompanyId,
  filter: CampaignFilter,
): Promise<Page<CampaignRow>> {
  const where = `c.company_id = $1 AND ($2::text IS NULL OR c.name ILIKE $2)
    AND ($3::text IS NULL OR c.status = $3) AND ($4::text IS NULL OR c.kind = $4)`;
  const params = [
    companyId,
    filter.q ? likePattern(filter.q) : null,
    filter.status ?? null,
    filter.kind ?? null,
  ];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM campaigns c WHERE ${where}`,
    params,
  );
  const page = await sql.query<CampaignRow>(
    `${SELECT_CAMPAIGN} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT $5 OFFSET $6`,
    [...params, filter.limit, filter.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** One campaign, or null when it does not exist in this company. */
export function getCampaign(sql: Sql, companyId: CompanyId, id: number): Promise<CampaignRow | null> {
  return selectCampaign(sql, companyId, id);
}

/**
 * Creates a campaign. Throws UnknownReferenceError for a segment the company does not have,
 * CampaignStatusError for a status only sending may set, CampaignPeriodError when it ends before it starts.
 */
export async function createCampaign(
  sql: Sql,
  scope: WriteScope,
  input: CampaignInput,
): Promise<CampaignRow> {
  checkEditableStatus('draft', input.status);
  checkPeriod(input.start ?? null, input.end ?? null);
  await assertOwnedRows(sql, scope.companyId, 'segments', 'segment_id', [input.segment_id]);
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO campaigns (company_id, name, kind, status, segment_id, start, "end", repeat_on, categories,
                            selected_days, schedules, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11::jsonb, $12) RETURNING id`,
    [
      scope.companyId,
      input.name,
      input.kind ?? 'email',
      input.status ?? 'draft',
      input.segment_id ?? null,
      input.start ?? null,
      input.end ?? null,
      input.repeat_on ?? '',
      jsonParam(input.categories ?? []),
      jsonParam(input.selected_days ?? []),
      jsonParam(input.schedules ?? []),
      scope.userId,
    ],
  );
  const created = (await selectCampaign(sql, scope.companyId, rows[0]!.id))!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'campaign',
    entityId: created.id,
    after: created,
  });
  return created;
}

/**
 * Changes some fields of a campaign (null clears segment_id, start or end); null when it does not exist in
 * this company. Throws like createCampaign; the period is checked on the merged values.
 */
export async function updateCampaign(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<CampaignFields>,
): Promise<CampaignRow | null> {
  const before = await selectCampaign(sql, scope.companyId, id, true);
  if (!before) return null;
  checkEditableStatus(before.status, changes.status);
  checkPeriod(
    changes.start !== undefined ? changes.start : before.start,
    changes.end !== undefined ? changes.end : before.end,
  );
  if (changes.segment_id !== undefined) {
    await assertOwnedRows(sql, scope.companyId, 'segments', 'segment_id', [changes.segment_id]);
  }
  const assignments: string[] = [];
  const values: unknown[] = [];
  const set = (column: string, value: unknown, cast = ''): void => {
    values.push(value);
    assignments.push(`${column} = $${values.length + 2}${cast}`);
  };
  if (changes.name !== undefined) set('name', changes.name);
  if (changes.kind !== undefined) set('kind', changes.kind);
  if (changes.status !== undefined) set('status', changes.status);
  if (changes.segment_id !== undefined) set('segment_id', changes.segment_id);
  if (changes.start !== undefined) set('start', changes.start);
  if (changes.end !== undefined) set('"end"', changes.end);
  if (changes.repeat_on !== undefined) set('repeat_on', changes.repeat_on);
  if (changes.categories !== undefined) set('categories', jsonParam(changes.categories), '::jsonb');
  if (changes.selected_days !== undefined) set('selected_days', jsonParam(changes.selected_days), '::jsonb');
  if (changes.schedules !== undefined) set('schedules', jsonParam(changes.schedules), '::jsonb');
  if (assignments.length > 0) {
    await sql.query(
      `UPDATE campaigns SET ${assignments.join(', ')}, updated_at = now() WHERE company_id = $1 AND id = $2`,
      [scope.companyId, id, ...values],
    );
  }
  const after = (await selectCampaign(sql, scope.companyId, id))!;
  await recordAudit(sql, scope, { action: 'update', entity: 'campaign', entityId: id, before, after });
  return after;
}

/** Deletes a campaign with its email content and configurations; false when it does not exist in this company. */
export async function deleteCampaign(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = await selectCampaign(sql, scope.companyId, id, true);
  if (!before) return false;
  await sql.query('DELETE FROM campaigns WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'campaign', entityId: id, before });
  return true;
}

async function transition(
  sql: Sql,
  scope: WriteScope,
  id: number,
  from: readonly CampaignStatus[],
  to: CampaignStatus,
  extra: string,
): Promise<CampaignRow | null> {
  // The row lock makes two concurrent sends of one campaign queue; the second then sees `sending`.
  const before = await selectCampaign(sql, scope.companyId, id, true);
  if (!before) return null;
  if (!from.includes(before.status)) throw new CampaignStatusError(before.status, to);
  await sql.query(
    `UPDATE campaigns SET status = $3${extra}, updated_at = now() WHERE company_id = $1 AND id = $2`,
    [scope.companyId, id, to],
  );
  const after = (await selectCampaign(sql, scope.companyId, id))!;
  await recordAudit(sql, scope, { action: 'update', entity: 'campaign', entityId: id, before, after });
  return after;
}

/**
 * Moves a campaign to `sending`, only from draft or scheduled, so it is sent once. Null when it does not exist
 * in this company; CampaignStatusError from any other status.
 */
export function markCampaignSending(sql: Sql, scope: WriteScope, id: number): Promise<CampaignRow | null> {
  return transition(sql, scope, id, SENDABLE_CAMPAIGN_STATUSES, 'sending', '');
}

/** Moves a campaign from `sending` to `sent` and stamps sent_at; null or CampaignStatusError as above. */
export function markCampaignSent(sql: Sql, scope: WriteScope, id: number): Promise<CampaignRow | null> {
  return transition(sql, scope, id, ['sending'], 'sent', ', sent_at = now()');
}
