import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { likePattern } from './like-pattern.js';
import { jsonParam, type Page, type PageWindow } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/** Whether a flow runs. */
export type FlowStatus = 'draft' | 'active' | 'paused';

/** An automated flow: a trigger followed by actions and delays, in order. */
export interface FlowRow {
  id: number;
  company_id: number;
  name: string;
  status: FlowStatus;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
}

/** What starts a flow (a visit, a subscription, a birthday, …) and its settings. */
export interface FlowTriggerRow {
  id: number;
  company_id: number;
  flow_id: number;
  kind: string;
  config: Record<string, unknown>;
}

/** What a flow does at a step (send an email, tag a guest, …) and its settings. */
export interface FlowActionRow {
  id: number;
  company_id: number;
  flow_id: number;
  kind: string;
  config: Record<string, unknown>;
}

/** A wait between steps. */
export interface FlowDelayRow {
  id: number;
  company_id: number;
  flow_id: number;
  duration_seconds: number;
}

/** Which of trigger, action or delay an item is. */
export type FlowItemKind = 'trigger' | 'action' | 'delay';

/** One step of a flow's sequence, joined to the trigger, action or delay it points at. */
export interface FlowItemRow {
  id: number;
  company_id: number;
  flow_id: number;
  position: number;
  kind: FlowItemKind;
  trigger_id: number | null;
  action_id: number | null;
  delay_id: number | null;
  trigger: FlowTriggerRow | null;
  action: FlowActionRow | null;
  delay: FlowDelayRow | null;
}

/** A flow with its sequence of steps in order. */
export interface FlowWithItems extends FlowRow {
  items: FlowItemRow[];
}

/** The writable fields of a flow. */
export interface FlowFields {
  name: string;
  status: FlowStatus;
}

/** The fields of a trigger or an action. */
export interface FlowStepFields {
  kind: string;
  config: Record<string, unknown>;
}

/** Filters of the flow list. */
export interface FlowFilter extends PageWindow {
  q?: string | undefined;
}

const FLOW_COLUMNS = 'id, company_id, name, status, created_by, created_at, updated_at';

/** The two step tables with the same shape, and the item column pointing at each. */
const STEP = {
  trigger: { table: 'flow_triggers', column: 'trigger_id', entity: 'flow_trigger' },
  action: { table: 'flow_actions', column: 'action_id', entity: 'flow_action' },
} as const;

async function selectFlow(sql: Sql, companyId: CompanyId, id: number, lock = false): Promise<FlowRow | null> {
  const { rows } = await sql.query<FlowRow>(
    `SELECT ${FLOW_COLUMNS} FROM flows WHERE company_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

async function selectItems(
  sql: Sql,
  companyId: CompanyId,
  where: { flowId: number } | { itemId: number },
): Promise<FlowItemRow[]> {
  const byFlow = 'flowId' in where;
  const { rows } = await sql.query<FlowItemRow>(
    `SELECT i.id, i.company_id, i.flow_id, i.position, i.trigger_id, i.action_id, i.delay_id,
            CASE WHEN i.trigger_id IS NOT NULL THEN 'trigger' WHEN i.action_id IS NOT NULL THEN 'action'
                 ELSE 'delay' END AS kind,
            CASE WHEN t.id IS NULL THEN NULL ELSE to_jsonb(t) END AS trigger,
            CASE WHEN a.id IS NULL THEN NULL ELSE to_jsonb(a) END AS action,
            CASE WHEN d.id IS NULL THEN NULL ELSE to_jsonb(d) END AS delay
     FROM flow_items i
     LEFT JOIN flow_triggers t ON t.company_id = $1 AND t.id = i.trigger_id
     LEFT JOIN flow_actions a ON a.company_id = $1 AND a.id = i.action_id
     LEFT JOIN flow_delays d ON d.company_id = $1 AND d.id = i.delay_id
     WHERE i.company_id = $1 AND ${byFlow ? 'i.flow_id = $2' : 'i.id = $2'}
     ORDER BY i.position, i.id`,
    [companyId, byFlow ? where.flowId : where.itemId],
  );
  return rows;
}

/** Rewrites positions to 0..n-1 in the given order in one statement (the unique check runs at its end). */
async function writeOrder(
  sql: Sql,
  companyId: CompanyId,
  flowId: number,
  orderedIds: readonly number[],
): Promise<void> {
  await sql.query(
    `UPDATE flow_items i SET position = u.n - 1
     FROM unnest($3::bigint[]) WITH ORDINALITY AS u(id, n)
     WHERE i.company_id = $1 AND i.flow_id = $2 AND i.id = u.id AND i.position <> u.n - 1`,
    [companyId, flowId, orderedIds],
  );
}

/** Appends an item pointing at a new step; the flow row must already be locked by the caller. */
async function appendItem(
  sql: Sql,
  scope: WriteScope,
  flowId: number,
  column: 'trigger_id' | 'action_id' | 'delay_id',
  stepId: number,
): Promise<FlowItemRow> {
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO flow_items (company_id, flow_id, position, ${column})
     SELECT $1, $2, coalesce(max(position) + 1, 0), $3 FROM flow_items WHERE company_id = $1 AND flow_id = $2
     RETURNING id`,
    [scope.companyId, flowId, stepId],
  );
  const item = (await selectItems(sql, scope.companyId, { itemId: rows[0]!.id }))[0]!;
  await recordAudit(sql, scope, { action: 'create', entity: 'flow_item', entityId: item.id, after: item });
  return item;
}

/** One page of a company's flows, newest first, optionally searched by name, with the total count. */
export async function listFlows(sql: Sql, companyId: CompanyId, filter: FlowFilter): Promise<Page<FlowRow>> {
  const where = 'company_id = $1 AND ($2::text IS NULL OR name ILIKE $2)';
  const params = [companyId, filter.q ? likePattern(filter.q) : null];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM flows WHERE ${where}`,
    params,
  );
  const page = await sql.query<FlowRow>(
    `SELECT ${FLOW_COLUMNS} FROM flows WHERE ${where} ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [...params, filter.limit, filter.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** One flow with its sequence, or null when it does not exist in this company. */
export async function getFlow(sql: Sql, companyId: CompanyId, id: number): Promise<FlowWithItems | null> {
  const flow = await selectFlow(sql, companyId, id);
  return flow ? { ...flow, items: await selectItems(sql, companyId, { flowId: id }) } : null;
}

/** The ordered steps of a flow, or null when the flow does not exist in this company. */
export async function getFlowSequence(
  sql: Sql,
  companyId: CompanyId,
  flowId: number,
): Promise<FlowItemRow[] | null> {
  return (await selectFlow(sql, companyId, flowId)) ? selectItems(sql, companyId, { flowId }) : null;
}

/** Creates an empty flow, a draft unless told otherwise. */
export async function createFlow(
  sql: Sql,
  scope: WriteScope,
  input: Pick<FlowFields, 'name'> & Partial<FlowFields>,
): Promise<FlowRow> {
  const { rows } = await sql.query<FlowRow>(
    `INSERT INTO flows (company_id, name, status, created_by) VALUES ($1, $2, $3, $4) RETURNING ${FLOW_COLUMNS}`,
    [scope.companyId, input.name, input.status ?? 'draft', scope.userId],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, { action: 'create', entity: 'flow', entityId: created.id, after: created });
  return created;
}

/** Renames a flow or changes its status; null when it does not exist in this company. */
export async function updateFlow(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<FlowFields>,
): Promise<FlowRow | null> {
  const before = await selectFlow(sql, scope.companyId, id, true);
  if (!before) return null;
  const { rows } = await sql.query<FlowRow>(
    `UPDATE flows SET name = coalesce($3, name), status = coalesce($4, status), updated_at = now()
     WHERE company_id = $1 AND id = $2 RETURNING ${FLOW_COLUMNS}`,
    [scope.companyId, id, changes.name ?? null, changes.status ?? null],
  );
  const after = rows[0]!;
  await recordAudit(sql, scope, { action: 'update', entity: 'flow', entityId: id, before, after });
  return after;
}

/** Deletes a flow with all its steps; false when it does not exist in this company. */
export async function deleteFlow(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const flow = await selectFlow(sql, scope.companyId, id, true);
  if (!flow) return false;
  const before: FlowWithItems = { ...flow, items: await selectItems(sql, scope.companyId, { flowId: id }) };
  await sql.query('DELETE FROM flows WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'flow', entityId: id, before });
  return true;
}

async function addStep(
  sql: Sql,
  scope: WriteScope,
  flowId: number,
  step: keyof typeof STEP,
  fields: Pick<FlowStepFields, 'kind'> & Partial<FlowStepFields>,
): Promise<FlowItemRow | null> {
  const { table, column } = STEP[step];
  // Locking the flow serialises appends, so two steps never claim the same position.
  if (!(await selectFlow(sql, scope.companyId, flowId, true))) return null;
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO ${table} (company_id, flow_id, kind, config) VALUES ($1, $2, $3, $4::jsonb) RETURNING id`,
    [scope.companyId, flowId, fields.kind, jsonParam(fields.config ?? {})],
  );
  return appendItem(sql, scope, flowId, column, rows[0]!.id);
}

/** Adds a trigger as the last step of a flow; null when the flow does not exist in this company. */
export function addFlowTrigger(
  sql: Sql,
  scope: WriteScope,
  flowId: number,
  fields: Pick<FlowStepFields, 'kind'> & Partial<FlowStepFields>,
): Promise<FlowItemRow | null> {
  return addStep(sql, scope, flowId, 'trigger', fields);
}

/** Adds an action as the last step of a flow; null when the flow does not exist in this company. */
export function addFlowAction(
  sql: Sql,
  scope: WriteScope,
  flowId: number,
  fields: Pick<FlowStepFields, 'kind'> & Partial<FlowStepFields>,
): Promise<FlowItemRow | null> {
  return addStep(sql, scope, flowId, 'action', fields);
}

/** Adds a delay as the last step of a flow; null when the flow does not exist in this company. */
export async function addFlowDelay(
  sql: Sql,
  scope: WriteScope,
  flowId: number,
  fields: { duration_seconds: number },
): Promise<FlowItemRow | null> {
  if (!(await selectFlow(sql, scope.companyId, flowId, true))) return null;
  const { rows } = await sql.query<{ id: number }>(
    'INSERT INTO flow_delays (company_id, flow_id, duration_seconds) VALUES ($1, $2, $3) RETURNING id',
    [scope.companyId, flowId, fields.duration_seconds],
  );
  return appendItem(sql, scope, flowId, 'delay_id', rows[0]!.id);
}

async function updateStep(
  sql: Sql,
  scope: WriteScope,
  step: keyof typeof STEP,
  id: number,
  changes: Partial<FlowStepFields>,
): Promise<FlowTriggerRow | null> {
  const { table, entity } = STEP[step];
  const found = await sql.query<FlowTriggerRow>(
    `SELECT id, company_id, flow_id, kind, config FROM ${table} WHERE company_id = $1 AND id = $2 FOR UPDATE`,
    [scope.companyId, id],
  );
  const before = found.rows[0];
  if (!before) return null;
  const { rows } = await sql.query<FlowTriggerRow>(
    `UPDATE ${table} SET kind = coalesce($3, kind), config = coalesce($4::jsonb, config)
     WHERE company_id = $1 AND id = $2 RETURNING id, company_id, flow_id, kind, config`,
    [
      scope.companyId,
      id,
      changes.kind ?? null,
      changes.config === undefined ? null : jsonParam(changes.config),
    ],
  );
  const after = rows[0]!;
  await sql.query('UPDATE flows SET updated_at = now() WHERE company_id = $1 AND id = $2', [
    scope.companyId,
    after.flow_id,
  ]);
  await recordAudit(sql, scope, { action: 'update', entity, entityId: id, before, after });
  return after;
}

/** Changes a trigger's kind or settings; null when it does not exist in this company. */
export function updateFlowTrigger(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<FlowStepFields>,
): Promise<FlowTriggerRow | null> {
  return updateStep(sql, scope, 'trigger', id, changes);
}

/** Changes an action's kind or settings; null when it does not exist in this company. */
export function updateFlowAction(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<FlowStepFields>,
): Promise<FlowActionRow | null> {
  return updateStep(sql, scope, 'action', id, changes);
}

/** Changes how long a delay waits; null when it does not exist in this company. */
export async function updateFlowDelay(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: { duration_seconds: number },
): Promise<FlowDelayRow | null> {
  const found = await sql.query<FlowDelayRow>(
    'SELECT id, company_id, flow_id, duration_seconds FROM flow_delays WHERE company_id = $1 AND id = $2 FOR UPDATE',
    [scope.companyId, id],
  );
  const before = found.rows[0];
  if (!before) return null;
  const { rows } = await sql.query<FlowDelayRow>(
    `UPDATE flow_delays SET duration_seconds = $3 WHERE company_id = $1 AND id = $2
     RETURNING id, company_id, flow_id, duration_seconds`,
    [scope.companyId, id, changes.duration_seconds],
  );
  const after = rows[0]!;
  await sql.query('UPDATE flows SET updated_at = now() WHERE company_id = $1 AND id = $2', [
    scope.companyId,
    after.flow_id,
  ]);
  await recordAudit(sql, scope, { action: 'update', entity: 'flow_delay', entityId: id, before, after });
  return after;
}

/** Finds an item and locks its flow, so reordering and deleting never race with appends. */
async function lockItem(sql: Sql, companyId: CompanyId, itemId: number): Promise<FlowItemRow | null> {
  const found = await sql.query<{ flow_id: number }>(
    'SELECT flow_id FROM flow_items WHERE company_id = $1 AND id = $2',
    [companyId, itemId],
  );
  const flowId = found.rows[0]?.flow_id;
  if (flowId === undefined || !(await selectFlow(sql, companyId, flowId, true))) return null;
  return (await selectItems(sql, companyId, { itemId }))[0] ?? null;
}

/**
 * Moves an item to another position (clamped to the sequence), shifting the steps between, all in the
 * caller's transaction. Returns the new sequence, or null when the item does not exist in this company.
 */
export async function updateFlowItem(
  sql: Sql,
  scope: WriteScope,
  itemId: number,
  changes: { position: number },
): Promise<FlowItemRow[] | null> {
  const before = await lockItem(sql, scope.companyId, itemId);
  if (!before) return null;
  const sequence = await selectItems(sql, scope.companyId, { flowId: before.flow_id });
  const others = sequence.filter((item) => item.id !== itemId).map((item) => item.id);
  const target = Math.min(Math.max(0, Math.trunc(changes.position)), others.length);
  others.splice(target, 0, itemId);
  await writeOrder(sql, scope.companyId, before.flow_id, others);
  await sql.query('UPDATE flows SET updated_at = now() WHERE company_id = $1 AND id = $2', [
    scope.companyId,
    before.flow_id,
  ]);
  const after = await selectItems(sql, scope.companyId, { flowId: before.flow_id });
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'flow_item',
    entityId: itemId,
    before: { position: before.position },
    after: { position: target },
  });
  return after;
}

/**
 * Deletes an item with the trigger, action or delay it points at and renumbers the rest from 0, in the
 * caller's transaction. Returns the remaining sequence, or null when the item does not exist in this company.
 */
export async function deleteFlowItem(
  sql: Sql,
  scope: WriteScope,
  itemId: number,
): Promise<FlowItemRow[] | null> {
  const before = await lockItem(sql, scope.companyId, itemId);
  if (!before) return null;
  await sql.query('DELETE FROM flow_items WHERE company_id = $1 AND id = $2', [scope.companyId, itemId]);
  // The step belongs to this item alone; leaving it would orphan a trigger, action or delay.
  if (before.trigger_id !== null) {
    await sql.query('DELETE FROM flow_triggers WHERE company_id = $1 AND id = $2', [
      scope.companyId,
      before.trigger_id,
    ]);
  } else if (before.action_id !== null) {
    await sql.query('DELETE FROM flow_actions WHERE company_id = $1 AND id = $2', [
      scope.companyId,
      before.action_id,
    ]);
  } else if (before.delay_id !== null) {
    await sql.query('DELETE FROM flow_delays WHERE company_id = $1 AND id = $2', [
      scope.companyId,
      before.delay_id,
    ]);
  }
  const remaining = await selectItems(sql, scope.companyId, { flowId: before.flow_id });
  await writeOrder(
    sql,
    scope.companyId,
    before.flow_id,
    remaining.map((item) => item.id),
  );
  await sql.query('UPDATE flows SET updated_at = now() WHERE company_id = $1 AND id = $2', [
    scope.companyId,
    before.flow_id,
  ]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'flow_item', entityId: itemId, before });
  return selectItems(sql, scope.companyId, { flowId: before.flow_id });
}
