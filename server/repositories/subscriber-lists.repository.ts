import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { missingIds, UnknownReferenceError } from './references.js';
import { findSubscribersByIds, type SubscriberRow } from './subscriber-rows.js';
import type { WriteScope } from './scope.js';
import { recordListFlowEvents } from './flow-events.repository.js';

/** A subscriber list with how many subscribers are on it. */
export interface SubscriberListRow {
  id: number;
  company_id: number;
  name: string;
  member_count: number;
  created: Date;
  updated_at: Date;
}

/** Raised when list members would include ids that are not subscribers of the company. */
export class UnknownSubscribersError extends UnknownReferenceError {
  constructor(ids: number[]) {
    super('subscriber_ids', ids);
    this.name = 'UnknownSubscribersError';
  }
}

async function selectLists(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[] | null,
): Promise<SubscriberListRow[]> {
  const { rows } = await sql.query<SubscriberListRow>(
    `SELECT l.id, l.company_id, l.name, l.created, l.updated_at,
            (SELECT count(*)::int FROM subscriber_list_members m
             WHERE m.company_id = $1 AND m.list_id = l.id) AS member_count
     FROM subscriber_lists l
     WHERE l.company_id = $1 AND ($2::bigint[] IS NULL OR l.id = ANY($2::bigint[]))
     ORDER BY lower(l.name), l.id`,
    [companyId, ids],
  );
  return rows;
}

async function findList(sql: Sql, companyId: CompanyId, id: number): Promise<SubscriberListRow | null> {
  return (await selectLists(sql, companyId, [id]))[0] ?? null;
}

/** Throws UnknownSubscribersError unless every id is a subscriber of this company. */
async function assertSubscribers(sql: Sql, companyId: CompanyId, ids: readonly number[]): Promise<void> {
  const missing = await missingIds(sql, companyId, 'subscribers', ids);
  if (missing.length > 0) throw new UnknownSubscribersError(missing);
}

/** The ids and names of these lists, by name (for a profile: no member counts to compute). */
export async function subscriberListNames(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[],
): Promise<{ id: number; name: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  const { rows } = await sql.query<{ id: number; name: string }>(
    `SELECT id, name FROM subscriber_lists WHERE company_id = $1 AND id = ANY($2::bigint[]) ORDER BY lower(name), id`,
    [companyId, ids],
  );
  return rows;
}

/** The company's subscriber lists by name, with member counts. */
export function listSubscriberLists(sql: Sql, companyId: CompanyId): Promise<SubscriberListRow[]> {
  return selectLists(sql, companyId, null);
}

/** One list, or null when it does not exist in this company. */
export function getSubscriberList(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): Promise<SubscriberListRow | null> {
  return findList(sql, companyId, id);
}

/** Creates an empty list. */
export async function createSubscriberList(
  sql: Sql,
  scope: WriteScope,
  name: string,
): Promise<SubscriberListRow> {
  const { rows } = await sql.query<{ id: number }>(
    'INSERT INTO subscriber_lists (company_id, name) VALUES ($1, $2) RETURNING id',
    [scope.companyId, name],
  );
  const created = (await findList(sql, scope.companyId, rows[0]!.id))!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'subscriber_list',
    entityId: created.id,
    after: created,
  });
  return created;
}

/** Renames a list; null when it does not exist in this company. */
export async function renameSubscriberList(
  sql: Sql,
  scope: WriteScope,
  id: number,
  name: string,
): Promise<SubscriberListRow | null> {
  const before = await findList(sql, scope.companyId, id);
  if (!before) return null;
  await sql.query(
    'UPDATE subscriber_lists SET name = $3, updated_at = now() WHERE company_id = $1 AND id = $2',
    [scope.companyId, id, name],
  );
  const after = (await findList(sql, scope.companyId, id))!;
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'subscriber_list',
    entityId: id,
    before,
    after,
  });
  return after;
}

/** Deletes a list and its memberships (not the subscribers); false when it does not exist in this company. */
export async function deleteSubscriberList(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = await findList(sql, scope.companyId, id);
  if (!before) return false;
  await sql.query('DELETE FROM subscriber_list_members WHERE company_id = $1 AND list_id = $2', [
    scope.companyId,
    id,
  ]);
  await sql.query('DELETE FROM subscriber_lists WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'subscriber_list', entityId: id, before });
  return true;
}

/** One audit entry for the subscribers a change put on or took off a list (none when nothing changed). */
async function auditMembers(
  sql: Sql,
  scope: WriteScope,
  listId: number,
  change: 'added_subscriber_ids' | 'removed_subscriber_ids',
  rows: readonly { subscriber_id: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((row) => row.subscriber_id).sort((a, b) => a - b);
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'subscriber_list',
    entityId: listId,
    after: { [change]: ids },
  });
}

/**
 * Puts subscribers on a list (those already on it are skipped) and returns how many were added; null
 * when the list does not exist in this company. Throws UnknownSubscribersError, adding none, when any id
 * is not a subscriber of this company.
 */
export async function addListMembers(
  sql: Sql,
  scope: WriteScope,
  listId: number,
  subscriberIds: readonly number[],
): Promise<number | null> {
  if (!(await findList(sql, scope.companyId, listId))) return null;
  await assertSubscribers(sql, scope.companyId, subscriberIds);
  const { rows } = await sql.query<{ subscriber_id: number }>(
    `INSERT INTO subscriber_list_members (company_id, list_id, subscriber_id)
     SELECT $1, $2, unnest($3::bigint[])
     ON CONFLICT (list_id, subscriber_id) DO NOTHING
     RETURNING subscriber_id`,
    [scope.companyId, listId, [...new Set(subscriberIds)]],
  );
  await auditMembers(sql, scope, listId, 'added_subscriber_ids', rows);
  // The "joined a list" flow trigger reads these events (docs/flows.md).
  await recordListFlowEvents(
    sql,
    scope.companyId,
    listId,
    rows.map((row) => row.subscriber_id),
  );
  return rows.length;
}

/**
 * Takes subscribers off a list and returns how many were removed; ids not on the list are ignored. Null
 * when the list does not exist in this company.
 */
export async function removeListMembers(
  sql: Sql,
  scope: WriteScope,
  listId: number,
  subscriberIds: readonly number[],
): Promise<number | null> {
  if (!(await findList(sql, scope.companyId, listId))) return null;
  const { rows } = await sql.query<{ subscriber_id: number }>(
    `DELETE FROM subscriber_list_members
     WHERE company_id = $1 AND list_id = $2 AND subscriber_id = ANY($3::bigint[])
     RETURNING subscriber_id`,
    [scope.companyId, listId, [...new Set(subscriberIds)]],
  );
  await auditMembers(sql, scope, listId, 'removed_subscriber_ids', rows);
  return rows.length;
}

/** How many subscribers are on a list; null when it does not exist in this company. */
export async function countListMembers(
  sql: Sql,
  companyId: CompanyId,
  listId: number,
): Promise<number | null> {
  return (await findList(sql, companyId, listId))?.member_count ?? null;
}

/** One page of the company's subscriber lists by name, with member counts and the total count. */
export async function listSubscriberListsPage(
  sql: Sql,
  companyId: CompanyId,
  window: { limit: number; offset: number },
): Promise<{ count: number; rows: SubscriberListRow[] }> {
  const total = await sql.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM subscriber_lists WHERE company_id = $1',
    [companyId],
  );
  const page = await sql.query<{ id: number }>(
    'SELECT id FROM subscriber_lists WHERE company_id = $1 ORDER BY lower(name), id LIMIT $2 OFFSET $3',
    [companyId, window.limit, window.offset],
  );
  // Member counts are taken for this page's lists only.
  const rows =
    page.rows.length > 0
      ? await selectLists(
          sql,
          companyId,
          page.rows.map((row) => row.id),
        )
      : [];
  return { count: total.rows[0]?.count ?? 0, rows };
}

/**
 * One page of a list's subscribers, newest first, with the total count; null when the list does not exist
 * in this company.
 */
export async function listListMembers(
  sql: Sql,
  companyId: CompanyId,
  listId: number,
  window: { limit: number; offset: number },
): Promise<{ count: number; rows: SubscriberRow[] } | null> {
  const list = await findList(sql, companyId, listId);
  if (!list) return null;
  const { rows } = await sql.query<{ subscriber_id: number }>(
    `SELECT subscriber_id FROM subscriber_list_members WHERE company_id = $1 AND list_id = $2
     ORDER BY subscriber_id DESC LIMIT $3 OFFSET $4`,
    [companyId, listId, window.limit, window.offset],
  );
  const members = await findSubscribersByIds(
    sql,
    companyId,
    rows.map((row) => row.subscriber_id),
  );
  return { count: list.member_count, rows: members.reverse() };
}

/**
 * The next batch of a list's subscribers with an id above `afterId`, oldest first (keyset paging for the
 * export); empty when the list does not exist in this company.
 */
export async function listMembersAfter(
  sql: Sql,
  companyId: CompanyId,
  listId: number,
  afterId: number,
  limit: number,
): Promise<SubscriberRow[]> {
  const { rows } = await sql.query<{ subscriber_id: number }>(
    `SELECT subscriber_id FROM subscriber_list_members
     WHERE company_id = $1 AND list_id = $2 AND subscriber_id > $3
     ORDER BY subscriber_id LIMIT $4`,
    [companyId, listId, afterId, limit],
  );
  return findSubscribersByIds(
    sql,
    companyId,
    rows.map((row) => row.subscriber_id),
  );
}

/** Takes a subscriber out of every list (when the subscriber is deleted). */
export async function removeFromAllLists(
  sql: Sql,
  companyId: CompanyId,
  subscriberId: number,
): Promise<void> {
  await sql.query('DELETE FROM subscriber_list_members WHERE company_id = $1 AND subscriber_id = $2', [
    companyId,
    subscriberId,
  ]);
}
