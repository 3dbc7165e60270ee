import type { FlowGraphItem, FlowItem, FlowStatus } from '../../src/schemas/flows.js';
import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { likePattern } from './like-pattern.js';
import { distinctIds, jsonParam, type Page, type PageWindow } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/**
 * Flows as the builder edits them (docs/flows.md; migration 0032): the flow row with its settings, revision and
 * published version, its draft graph as `flow_items` rows, and the published snapshots in `flow_versions`.
 */

/** A flow row, with the type of its draft's trigger. */
export interface FlowRow {
  id: number;
  company_id: number;
  name: string;
  status: FlowStatus;
  location_ids: number[];
  location_group_ids: number[];
  reentry: 'once' | 'after_days';
  reentry_days: number | null;
  revision: number;
  published_version: number | null;
  published_revision: number | null;
  trigger_type: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The writable settings of a flow. */
export interface FlowRowFields {
  name: string;
  location_ids: readonly number[];
  location_group_ids: readonly number[];
  reentry: 'once' | 'after_days';
  reentry_days: number | null;
}

/** Filters of the flow list. */
export interface FlowFilter extends PageWindow {
  q?: string | undefined;
  status?: FlowStatus | undefined;
}

/** Raised when an item's key is already used in its flow. */
export class FlowItemKeyTakenError extends Error {
  constructor(readonly key: string) {
    super(`The key ${key} is already used in this flow`);
    this.name = 'FlowItemKeyTakenError';
  }
}

const SELECT_FLOW = `
  SELECT f.id::int, f.company_id::int, f.name, f.status, f.location_ids::int[] AS location_ids,
         f.location_group_ids::int[] AS location_group_ids, f.reentry, f.reentry_days, f.revision,
         f.published_version, f.published_revision,
         (SELECT i.settings->>'type' FROM flow_items i
           WHERE i.company_id = f.company_id AND i.flow_id = f.id AND i.kind = 'trigger'
           ORDER BY i.id LIMIT 1) AS trigger_type,
         f.created_at, f.updated_at
  FROM flows f`;

/** One flow, or null when it does not exist in this company; `lock` holds it for the transaction. */
export async function getFlow(
  sql: Sql,
  companyId: CompanyId,
  id: number,
  lock = false,
): Promise<FlowRow | null> {
  const { rows } = await sql.query<FlowRow>(
    `${SELECT_FLOW} WHERE f.company_id = $1 AND f.id = $2${lock ? ' FOR UPDATE OF f' : ''}`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

/** One page of a company's flows, newest first, searched by name and status, with the total. */
export async function listFlows(sql: Sql, companyId: CompanyId, filter: FlowFilter): Promise<Page<FlowRow>> {
  const where = `f.company_id = $1 AND ($2::text IS NULL OR f.name ILIKE $2) AND ($3::text IS NULL OR f.status = $3)`;
  const params = [companyId, filter.q ? likePattern(filter.q) : null, filter.status ?? null];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM flows f WHERE ${where}`,
    params,
  );
  const page = await sql.query<FlowRow>(
    `${SELECT_FLOW} WHERE ${where} ORDER BY f.created_at DESC, f.id DESC LIMIT $4 OFFSET $5`,
    [...params, filter.limit, filter.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** Creates a draft flow with no items. */
export async function createFlow(sql: Sql, scope: WriteScope, fields: FlowRowFields): Promise<FlowRow> {
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO flows (company_id, created_by, name, location_ids, location_group_ids, reentry, reentry_days)
     VALUES ($1, $2, $3, $4::bigint[], $5::bigint[], $6, $7) RETURNING id::int`,
    [
      scope.companyId,
      scope.userId,
      fields.name,
      distinctIds(fields.location_ids),
      distinctIds(fields.location_group_ids),
      fields.reentry,
      fields.reentry_days,
    ],
  );
  const created = (await getFlow(sql, scope.companyId, rows[0]!.id))!;
  await recordAudit(sql, scope, { action: 'create', entity: 'flow', entityId: created.id, after: fields });
  return created;
}

/** Replaces a flow's settings. */
export async function updateFlowFields(
  sql: Sql,
  scope: WriteScope,
  id: number,
  fields: FlowRowFields,
): Promise<void> {
  const before = await getFlow(sql, scope.companyId, id);
  await sql.query(
    `UPDATE flows SET name = $3, location_ids = $4::bigint[], location_group_ids = $5::bigint[], reentry = $6,
            reentry_days = $7, updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [
      scope.companyId,
      id,
      fields.name,
      distinctIds(fields.location_ids),
      distinctIds(fields.location_group_ids),
      fields.reentry,
      fields.reentry_days,
    ],
  );
  await recordAudit(sql, scope, { action: 'update', entity: 'flow', entityId: id, before, after: fields });
}

/** Sets a flow's status. */
export async function setFlowStatus(
  sql: Sql,
  scope: WriteScope,
  id: number,
  status: FlowStatus,
): Promise<void> {
  const { rows } = await sql.query<{ status: FlowStatus }>(
    'SELECT status FROM flows WHERE company_id = $1 AND id = $2',
    [scope.companyId, id],
  );
  await sql.query('UPDATE flows SET status = $3, updated_at = now() WHERE company_id = $1 AND id = $2', [
    scope.companyId,
    id,
    status,
  ]);
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'flow',
    entityId: id,
    before: { status: rows[0]?.status },
    after: { status },
  });
}

/** Bumps the draft's revision (every change to its graph) and answers the new one. */
export async function bumpFlowRevision(sql: Sql, companyId: CompanyId, id: number): Promise<number> {
  const { rows } = await sql.query<{ revision: number }>(
    `UPDATE flows SET revision = revision + 1, updated_at = now() WHERE company_id = $1 AND id = $2
     RETURNING revision`,
    [companyId, id],
  );
  return rows[0]!.revision;
}

/** Deletes a flow with its items and versions. */
export async function deleteFlow(sql: Sql, scope: WriteScope, id: number): Promise<void> {
  const before = await getFlow(sql, scope.companyId, id);
  await sql.query('DELETE FROM flows WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'flow', entityId: id, before });
}

// ───────────────────────────── items ─────────────────────────────

interface FlowItemRow {
  id: number;
  flow_id: number;
  key: string;
  kind: FlowItem['kind'];
  settings: FlowItem['settings'];
  position_x: number;
  position_y: number;
  next_key: string | null;
  no_key: string | null;
}

const ITEM_COLUMNS = `id::int, flow_id::int, key, kind, settings, position_x, position_y, next_key, no_key`;

function itemOf(row: FlowItemRow): FlowItem {
  return {
    id: row.id,
    flow_id: row.flow_id,
    key: row.key,
    kind: row.kind,
    settings: row.settings,
    position: { x: row.position_x, y: row.position_y },
    next_key: row.next_key,
    no_key: row.no_key,
  } as FlowItem;
}

/** A flow's draft items, in the order they were added. */
export async function listFlowItems(sql: Sql, companyId: CompanyId, flowId: number): Promise<FlowItem[]> {
  const { rows } = await sql.query<FlowItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM flow_items WHERE company_id = $1 AND flow_id = $2 ORDER BY id`,
    [companyId, flowId],
  );
  return rows.map(itemOf);
}

/** One item, or null when it does not exist in this company. */
export async function getFlowItem(sql: Sql, companyId: CompanyId, id: number): Promise<FlowItem | null> {
  const { rows } = await sql.query<FlowItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM flow_items WHERE company_id = $1 AND id = $2`,
    [companyId, id],
  );
  return rows[0] ? itemOf(rows[0]) : null;
}

/** The keys a flow's items use. */
export async function flowItemKeys(sql: Sql, companyId: CompanyId, flowId: number): Promise<Set<string>> {
  const { rows } = await sql.query<{ key: string }>(
    'SELECT key FROM flow_items WHERE company_id = $1 AND flow_id = $2',
    [companyId, flowId],
  );
  return new Set(rows.map((row) => row.key));
}

/**
 * Adds an item to a flow's draft; FlowItemKeyTakenError when its key is used. The caller holds the flow's row
 * (getFlow with `lock`), so no other insert races the check.
 */
export async function insertFlowItem(
  sql: Sql,
  scope: WriteScope,
  flowId: number,
  item: FlowGraphItem,
): Promise<FlowItem> {
  if ((await flowItemKeys(sql, scope.companyId, flowId)).has(item.key))
    throw new FlowItemKeyTakenError(item.key);
  const { rows } = await sql.query<FlowItemRow>(
    `INSERT INTO flow_items (company_id, flow_id, key, kind, settings, position_x, position_y, next_key, no_key)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9) RETURNING ${ITEM_COLUMNS}`,
    [
      scope.companyId,
      flowId,
      item.key,
      item.kind,
      jsonParam(item.settings),
      item.position.x,
      item.position.y,
      item.next_key,
      item.no_key,
    ],
  );
  const created = itemOf(rows[0]!);
  await recordAudit(sql, scope, { action: 'create', entity: 'flow_item', entityId: created.id, after: item });
  return created;
}

/** Replaces an item's settings, position and links (its key and kind stay). */
export async function updateFlowItem(sql: Sql, scope: WriteScope, item: FlowItem): Promise<FlowItem> {
  const before = await getFlowItem(sql, scope.companyId, item.id);
  const { rows } = await sql.query<FlowItemRow>(
    `UPDATE flow_items SET settings = $3::jsonb, position_x = $4, position_y = $5, next_key = $6, no_key = $7
      WHERE company_id = $1 AND id = $2 RETURNING ${ITEM_COLUMNS}`,
    [
      scope.companyId,
      item.id,
      jsonParam(item.settings),
      item.position.x,
      item.position.y,
      item.next_key,
      item.no_key,
    ],
  );
  const after = itemOf(rows[0]!);
  await recordAudit(sql, scope, { action: 'update', entity: 'flow_item', entityId: item.id, before, after });
  return after;
}

/** Deletes an item; the links of the flow's other items that pointed at its key become null. */
export async function deleteFlowItem(sql: Sql, scope: WriteScope, item: FlowItem): Promise<void> {
  await sql.query('DELETE FROM flow_items WHERE company_id = $1 AND id = $2', [scope.companyId, item.id]);
  await unlinkKeys(sql, scope.companyId, item.flow_id, [item.key]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'flow_item', entityId: item.id, before: item });
}

async function unlinkKeys(sql: Sql, companyId: CompanyId, flowId: number, keys: string[]): Promise<void> {
  await sql.query(
    `UPDATE flow_items
        SET next_key = CASE WHEN next_key = ANY($3::text[]) THEN NULL ELSE next_key END,
            no_key = CASE WHEN no_key = ANY($3::text[]) THEN NULL ELSE no_key END
      WHERE company_id = $1 AND flow_id = $2 AND (next_key = ANY($3::text[]) OR no_key = ANY($3::text[]))`,
    [companyId, flowId, keys],
  );
}

/**
 * Makes the draft exactly `graph`: items whose key stays keep their id (the builder's item calls name them by
 * it) and take the new settings, position and links; the rest are deleted; new keys are inserted. A key that
 * stays but changes kind is replaced by a new row, since an item's kind is part of what its id names.
 */
export async function replaceFlowItems(
  sql: Sql,
  scope: WriteScope,
  flowId: number,
  graph: readonly FlowGraphItem[],
): Promise<void> {
  const current = await listFlowItems(sql, scope.companyId, flowId);
  const wanted = new Map(graph.map((item) => [item.key, item]));
  const gone = current.filter((item) => wanted.get(item.key)?.kind !== item.kind);
  if (gone.length > 0) {
    await sql.query('DELETE FROM flow_items WHERE company_id = $1 AND id = ANY($2::bigint[])', [
      scope.companyId,
      gone.map((item) => item.id),
    ]);
  }
  const kept = new Map(
    current.filter((item) => !gone.includes(item)).map((item) => [item.key, item] as const),
  );
  for (const item of graph) {
    const existing = kept.get(item.key);
    if (existing) {
      await sql.query(
        `UPDATE flow_items SET settings = $3::jsonb, position_x = $4, position_y = $5, next_key = $6, no_key = $7
          WHERE company_id = $1 AND id = $2`,
        [
          scope.companyId,
          existing.id,
          jsonParam(item.settings),
          item.position.x,
          item.position.y,
          item.next_key,
          item.no_key,
        ],
      );
    } else {
      await sql.query(
        `INSERT INTO flow_items (company_id, flow_id, key, kind, settings, position_x, position_y, next_key, no_key)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)`,
        [
          scope.companyId,
          flowId,
          item.key,
          item.kind,
          jsonParam(item.settings),
          item.position.x,
          item.position.y,
          item.next_key,
          item.no_key,
        ],
      );
    }
  }
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'flow_graph',
    entityId: flowId,
    before: current.map(({ id: _id, flow_id: _flow, ...node }) => node),
    after: graph,
  });
}

// ───────────────────────────── versions ─────────────────────────────

/** A published snapshot of a flow's graph. */
export interface FlowVersionRow {
  version: number;
  graph: FlowGraphItem[];
  published_at: Date;
  published_by: number | null;
}

/**
 * Copies `graph` into the next version of the flow and marks it live from `revision` (the draft's revision it
 * was published from). Answers the new version's number.
 */
export async function publishFlowVersion(
  sql: Sql,
  scope: WriteScope,
  flowId: number,
  revision: number,
  graph: readonly FlowGraphItem[],
): Promise<number> {
  const { rows } = await sql.query<{ version: number }>(
    `INSERT INTO flow_versions (company_id, flow_id, version, graph, published_by)
     VALUES ($1, $2, COALESCE((SELECT max(version) FROM flow_versions WHERE company_id = $1 AND flow_id = $2), 0) + 1,
             $3::jsonb, $4)
     RETURNING version`,
    [scope.companyId, flowId, jsonParam(graph), scope.userId],
  );
  const version = rows[0]!.version;
  await sql.query(
    `UPDATE flows SET published_version = $3, published_revision = $4, updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [scope.companyId, flowId, version, revision],
  );
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'flow_version',
    entityId: flowId,
    after: { version, revision },
  });
  return version;
}

/** A flow's published versions, oldest first. */
export async function listFlowVersions(
  sql: Sql,
  companyId: CompanyId,
  flowId: number,
): Promise<FlowVersionRow[]> {
  const { rows } = await sql.query<FlowVersionRow>(
    `SELECT version, graph, published_at, published_by::int FROM flow_versions
      WHERE company_id = $1 AND flow_id = $2 ORDER BY version`,
    [companyId, flowId],
  );
  return rows;
}
