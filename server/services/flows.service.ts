import type { z } from 'zod';
import { validateFlowGraph } from '../../src/schemas/flow-graph.js';
import {
  FLOW_LIMITS,
  type Flow,
  type FlowActionCreateSchema,
  type FlowCreateSchema,
  type FlowGraphItem,
  type FlowItem,
  type FlowItemKind,
  type FlowItemPlacementSchema,
  type FlowSequence,
  type FlowStatus,
  type FlowSummary,
  type FlowUpdateSchema,
} from '../../src/schemas/flows.js';
import type { CompanyId, Database, Sql } from '../db/database.js';
import { ApiError, fieldFailure, invalid, notFound } from '../http/errors.js';
import { endDeletedFlow, exitOutOfScope } from '../repositories/flow-exits.repository.js';
import { flowFigures } from '../repositories/flow-figures.repository.js';
import {
  bumpFlowRevision,
  createFlow,
  deleteFlow,
  deleteFlowItem,
  flowItemKeys,
  getFlow,
  getFlowItem,
  insertFlowItem,
  listFlowItems,
  listFlows,
  publishFlowVersion,
  replaceFlowItems,
  setFlowStatus,
  updateFlowFields,
  updateFlowItem,
  FlowItemKeyTakenError,
  type FlowFilter,
  type FlowRow,
  type FlowRowFields,
} from '../repositories/flows.repository.js';
import { assertOwnedRows, type MarketingTable } from '../repositories/marketing-common.js';
import { UnknownReferenceError } from '../repositories/references.js';
import type { WriteScope } from '../repositories/scope.js';
import { referenceNotFound } from './campaigns.service.js';
import { startSegmentWatch } from './segment-members.js';

/**
 * Flows (docs/flows.md): the list, a flow with its draft graph, saving the whole graph against its revision, the
 * item calls the builder makes node by node, and publishing (validateFlowGraph, every referenced id the
 * company's, a new version only when the draft changed). The engine that runs published versions is separate.
 */

/** A flow's body as the create call receives it (after the schema's defaults). */
export type FlowCreateBody = z.output<typeof FlowCreateSchema>;
/** A flow's body as the update call receives it. */
export type FlowUpdateBody = z.output<typeof FlowUpdateSchema>;
/** A new item's body (the trigger and delay bodies have the same shape with their own settings). */
export type FlowItemCreateBody = Omit<z.output<typeof FlowActionCreateSchema>, 'settings'> & {
  settings: FlowItem['settings'];
};
/** A placement's body. */
export type FlowItemPlacement = z.output<typeof FlowItemPlacementSchema>;

/** A stored item as its graph node (what a version keeps). */
function nodeOf(item: FlowItem): FlowGraphItem {
  const { id: _id, flow_id: _flowId, ...node } = item;
  return node;
}

/** The same value with object keys sorted, so two graphs compare by content (jsonb reorders keys). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, inner]) => [key, canonical(inner)]),
    );
  }
  return value;
}

function sameGraph(a: readonly FlowGraphItem[], b: readonly FlowGraphItem[]): boolean {
  const byKey = (graph: readonly FlowGraphItem[]) =>
    JSON.stringify(canonical([...graph].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0))));
  return byKey(a) === byKey(b);
}

/** A flow row with its figures as the list answers it. */
function presentSummary(
  row: FlowRow,
  figures: { in_flow: number; emails_sent: number } | undefined,
): FlowSummary {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    location_ids: row.location_ids,
    location_group_ids: row.location_group_ids,
    reentry: row.reentry,
    reentry_days: row.reentry_days,
    trigger_type: row.trigger_type,
    version: row.published_version,
    has_unpublished_changes: row.published_revision !== null && row.revision !== row.published_revision,
    revision: row.revision,
    in_flow: figures?.in_flow ?? 0,
    emails_sent: figures?.emails_sent ?? 0,
    // Attribution (campaign analytics, issue 17) fills this.
    revenue_cents: null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The flow with its draft graph and figures, read in the caller's transaction; null when not this company's. */
export async function loadFlow(sql: Sql, companyId: CompanyId, id: number): Promise<Flow | null> {
  const row = await getFlow(sql, companyId, id);
  if (!row) return null;
  const figures = await flowFigures(sql, companyId, [id]);
  return { ...presentSummary(row, figures.get(id)), items: await listFlowItems(sql, companyId, id) };
}

/** The ids an item's settings name, each with the table it must be a row of and its field under `settings`. */
function settingsReferences(
  settings: FlowItem['settings'],
): { table: MarketingTable | 'locations'; field: string; id: number }[] {
  const found: { table: MarketingTable | 'locations'; field: string; id: number | null }[] = [];
  switch (settings.type) {
    case 'joined_list':
    case 'add_to_list':
    case 'remove_from_list':
      found.push({ table: 'subscriber_lists', field: 'list_id', id: settings.list_id });
      break;
    case 'visit_at_location':
      found.push({ table: 'locations', field: 'location_id', id: settings.location_id });
      break;
    case 'entered_segment':
      found.push({ table: 'segments', field: 'segment_id', id: settings.segment_id });
      break;
    case 'send_email':
      found.push({ table: 'email_templates', field: 'template_id', id: settings.template_id });
      found.push({ table: 'email_senders', field: 'sender_id', id: settings.sender_id });
      break;
    case 'condition':
      if (settings.rule.condition === 'in_segment') {
        found.push({ table: 'segments', field: 'rule.segment_id', id: settings.rule.segment_id });
      }
      break;
    default:
      break;
  }
  return found.flatMap((entry) => (entry.id === null ? [] : [{ ...entry, id: entry.id }]));
}

/** Throws the 404 naming `field` unless every id is a row of `table` in this company. */
async function assertReferences(
  sql: Sql,
  companyId: CompanyId,
  table: MarketingTable | 'locations',
  field: string,
  ids: readonly number[],
): Promise<void> {
  try {
    await assertOwnedRows(sql, companyId, table, field, ids);
  } catch (error) {
    if (error instanceof UnknownReferenceError) throw referenceNotFound(error.field, error.ids[0]!);
    throw error;
  }
}

/** 404 naming `<prefix>settings.<field>` for an id in the settings that is not the company's. */
async function assertSettingsOwned(
  sql: Sql,
  companyId: CompanyId,
  settings: FlowItem['settings'],
  prefix = '',
): Promise<void> {
  for (const reference of settingsReferences(settings)) {
    await assertReferences(sql, companyId, reference.table, `${prefix}settings.${reference.field}`, [
      reference.id,
    ]);
  }
}

/** 404 naming `items.<index>.settings.<field>` for an id in the graph that is not the company's. */
async function assertGraphOwned(
  sql: Sql,
  companyId: CompanyId,
  graph: readonly FlowGraphItem[],
): Promise<void> {
  for (const [index, item] of graph.entries()) {
    await assertSettingsOwned(sql, companyId, item.settings, `items.${index}.`);
  }
}

/** 404 naming `location_ids` or `location_group_ids` for a scope entry that is not the company's. */
async function assertScopeOwned(sql: Sql, companyId: CompanyId, fields: FlowRowFields): Promise<void> {
  await assertReferences(sql, companyId, 'locations', 'location_ids', fields.location_ids);
  await assertReferences(sql, companyId, 'location_groups', 'location_group_ids', fields.location_group_ids);
}

/** 400 naming `items.<index>.key` for a key used twice in one graph. */
function assertDistinctKeys(graph: readonly FlowGraphItem[]): void {
  const seen = new Set<string>();
  for (const [index, item] of graph.entries()) {
    if (seen.has(item.key)) {
      throw invalid({
        [`items.${index}.key`]: fieldFailure('not_valid', `The key ${item.key} is used twice`),
      });
    }
    seen.add(item.key);
  }
}

/** 400 naming `reentry_days` when re-entry after days names no number of days. */
function assertReentry(fields: FlowRowFields): FlowRowFields {
  if (fields.reentry === 'after_days' && fields.reentry_days === null) {
    throw invalid({ reentry_days: fieldFailure('required', 'reentry_days is required with after_days') });
  }
  return fields.reentry === 'once' ? { ...fields, reentry_days: null } : fields;
}

function flowNotFound(): ApiError {
  return notFound('Flow');
}

function statusRefused(from: FlowStatus, to: FlowStatus): ApiError {
  const why =
    to === 'draft'
      ? 'A published flow cannot go back to draft: pause it, or edit its draft and publish again'
      : `A ${from} flow cannot become ${to}: publish it first`;
  return new ApiError(409, 'flow_status', why);
}

/**
 * Publishes the draft: 400 `flow_invalid` with the problems unless it passes validateFlowGraph, 404 naming the
 * field for any id of another company (the draft may have been saved before a template was deleted), and a new
 * version only when the draft changed since the last publish.
 */
async function publish(sql: Sql, scope: WriteScope, row: FlowRow): Promise<void> {
  const items = await listFlowItems(sql, scope.companyId, row.id);
  const graph = items.map(nodeOf);
  const problems = validateFlowGraph(graph);
  if (problems.length > 0) {
    throw new ApiError(400, 'flow_invalid', 'The flow cannot be published yet', undefined, { problems });
  }
  await assertGraphOwned(sql, scope.companyId, graph);
  await assertScopeOwned(sql, scope.companyId, row);
  if (row.published_revision !== row.revision) {
    await publishFlowVersion(sql, scope, row.id, row.revision, graph);
  }
}

/** Creates a draft flow with its graph (a duplicate is a create with a copy), in the caller's transaction. */
export async function createFlowIn(sql: Sql, scope: WriteScope, body: FlowCreateBody): Promise<Flow> {
  const { items, ...rest } = body;
  const fields = assertReentry(rest);
  assertDistinctKeys(items);
  await assertScopeOwned(sql, scope.companyId, fields);
  await assertGraphOwned(sql, scope.companyId, items);
  const row = await createFlow(sql, scope, fields);
  if (items.length > 0) await replaceFlowItems(sql, scope, row.id, items);
  return (await loadFlow(sql, scope.companyId, row.id))!;
}

/**
 * Saves settings, the whole draft graph (409 `flow_conflict` with the stored revision when `revision` is not
 * it; the revision moves only when the graph really changed) and the status, all or nothing, in the caller's
 * transaction.
 */
export async function updateFlowIn(
  sql: Sql,
  scope: WriteScope,
  id: number,
  body: FlowUpdateBody,
): Promise<Flow> {
  const row = await getFlow(sql, scope.companyId, id, true);
  if (!row) throw flowNotFound();
  if (body.revision !== undefined && body.revision !== row.revision) {
    throw new ApiError(409, 'flow_conflict', 'Someone else saved this flow first', undefined, {
      revision: row.revision,
    });
  }
  const { status, items, revision: _revision, ...changes } = body;
  if (Object.keys(changes).length > 0) {
    const fields = assertReentry({
      name: changes.name ?? row.name,
      location_ids: changes.location_ids ?? row.location_ids,
      location_group_ids: changes.location_group_ids ?? row.location_group_ids,
      reentry: changes.reentry ?? row.reentry,
      reentry_days: changes.reentry_days === undefined ? row.reentry_days : changes.reentry_days,
    });
    await assertScopeOwned(sql, scope.companyId, fields);
    await updateFlowFields(sql, scope, id, fields);
    // Scope applies to the live flow at once: people at a location it no longer takes leave.
    if (changes.location_ids !== undefined || changes.location_group_ids !== undefined) {
      await exitOutOfScope(sql, scope.companyId, id);
    }
  }
  if (items !== undefined) {
    assertDistinctKeys(items);
    await assertGraphOwned(sql, scope.companyId, items);
    const current = (await listFlowItems(sql, scope.companyId, id)).map(nodeOf);
    if (!sameGraph(current, items)) {
      await replaceFlowItems(sql, scope, id, items);
      await bumpFlowRevision(sql, scope.companyId, id);
    }
  }
  if (status !== undefined) {
    const now = (await getFlow(sql, scope.companyId, id))!;
    if (status === 'live' && now.status === 'paused' && items === undefined) {
      // Resume: back to the published version; an edited draft stays a draft until it is published.
      await setFlowStatus(sql, scope, id, 'live');
    } else if (status === 'live') {
      await publish(sql, scope, now);
      if (now.status !== 'live') await setFlowStatus(sql, scope, id, 'live');
      await startSegmentWatch(sql, scope.companyId, id);
    } else if (status !== now.status) {
      if (status === 'draft' || now.status === 'draft') throw statusRefused(now.status, status);
      await setFlowStatus(sql, scope, id, status);
    }
  }
  return (await loadFlow(sql, scope.companyId, id))!;
}

/** A key the flow does not use yet: `<kind>-<n>`. */
async function freshKey(sql: Sql, companyId: CompanyId, flowId: number, kind: FlowItemKind): Promise<string> {
  const used = await flowItemKeys(sql, companyId, flowId);
  let n = used.size + 1;
  while (used.has(`${kind}-${n}`)) n += 1;
  return `${kind}-${n}`;
}

/** The flows service over one database. */
export function flowsService(db: Database) {
  /** Runs an item call on the locked flow and answers the item with the draft's new revision. */
  async function itemChange(
    scope: WriteScope,
    itemId: number,
    kind: FlowItemKind | null,
    change: (sql: Sql, item: FlowItem) => Promise<FlowItem>,
  ): Promise<{ item: FlowItem; revision: number }> {
    return db.tenant(scope.companyId, async (sql) => {
      const seen = await getFlowItem(sql, scope.companyId, itemId);
      if (seen) await getFlow(sql, scope.companyId, seen.flow_id, true);
      // Read again under the flow's lock: a call that got there first may have changed or deleted it.
      const found = seen && (await getFlowItem(sql, scope.companyId, itemId));
      // An item of another kind is as unknown as a missing one: its call names triggers, actions or delays.
      if (!found || (kind !== null && found.kind !== kind)) throw notFound('Flow item');
      const item = await change(sql, found);
      return { item, revision: await bumpFlowRevision(sql, scope.companyId, found.flow_id) };
    });
  }

  return {
    async list(companyId: CompanyId, filter: FlowFilter) {
      return db.tenant(companyId, async (sql) => {
        const page = await listFlows(sql, companyId, filter);
        const figures = await flowFigures(
          sql,
          companyId,
          page.rows.map((row) => row.id),
        );
        return {
          count: page.count,
          results: page.rows.map((row) => presentSummary(row, figures.get(row.id))),
        };
      });
    },

    async get(companyId: CompanyId, id: number): Promise<Flow> {
      const flow = await db.tenant(companyId, (sql) => loadFlow(sql, companyId, id));
      if (!flow) throw flowNotFound();
      return flow;
    },

    async sequence(companyId: CompanyId, id: number): Promise<FlowSequence> {
      return db.tenant(companyId, async (sql) => {
        const row = await getFlow(sql, companyId, id);
        if (!row) throw flowNotFound();
        return { flow_id: id, revision: row.revision, items: await listFlowItems(sql, companyId, id) };
      });
    },

    async create(scope: WriteScope, body: FlowCreateBody): Promise<Flow> {
      return db.tenant(scope.companyId, (sql) => createFlowIn(sql, scope, body));
    },

    async update(scope: WriteScope, id: number, body: FlowUpdateBody): Promise<Flow> {
      return db.tenant(scope.companyId, (sql) => updateFlowIn(sql, scope, id, body));
    },

    async remove(scope: WriteScope, id: number): Promise<void> {
      await db.tenant(scope.companyId, async (sql) => {
        if (!(await getFlow(sql, scope.companyId, id, true))) throw flowNotFound();
        // Its people leave and its unsent mail is cancelled first; their history stays (docs/flows.md).
        await endDeletedFlow(sql, scope.companyId, id);
        await deleteFlow(sql, scope, id);
      });
    },

    /** Adds a trigger, action or delay to a flow's draft (409 `flow_item_key_taken` for a used key). */
    async createItem(
      scope: WriteScope,
      kind: FlowItemKind,
      body: FlowItemCreateBody,
    ): Promise<{ item: FlowItem; revision: number }> {
      return db.tenant(scope.companyId, async (sql) => {
        const flow = await getFlow(sql, scope.companyId, body.flow_id, true);
        if (!flow) throw referenceNotFound('flow_id', body.flow_id);
        const keys = await flowItemKeys(sql, scope.companyId, flow.id);
        if (keys.size >= FLOW_LIMITS.maxItems) {
          throw invalid({
            flow_id: fieldFailure('max_length', `A flow holds at most ${FLOW_LIMITS.maxItems} items`, {
              max: FLOW_LIMITS.maxItems,
            }),
          });
        }
        await assertSettingsOwned(sql, scope.companyId, body.settings);
        const node = {
          key: body.key ?? (await freshKey(sql, scope.companyId, flow.id, kind)),
          kind,
          settings: body.settings,
          position: body.position,
          next_key: body.next_key,
          no_key: body.no_key,
        } as FlowGraphItem;
        try {
          const item = await insertFlowItem(sql, scope, flow.id, node);
          return { item, revision: await bumpFlowRevision(sql, scope.companyId, flow.id) };
        } catch (error) {
          if (error instanceof FlowItemKeyTakenError) {
            throw new ApiError(409, 'flow_item_key_taken', error.message, {
              key: fieldFailure('in_use', error.message),
            });
          }
          throw error;
        }
      });
    },

    /** New settings for a trigger, action or delay (`kind` is the call's: another kind is 404). */
    async updateItemSettings(
      scope: WriteScope,
      kind: FlowItemKind,
      itemId: number,
      settings: FlowItem['settings'],
    ) {
      return itemChange(scope, itemId, kind, async (sql, item) => {
        await assertSettingsOwned(sql, scope.companyId, settings);
        return updateFlowItem(sql, scope, { ...item, settings } as FlowItem);
      });
    },

    /** Moves an item or relinks it. */
    async placeItem(scope: WriteScope, itemId: number, placement: FlowItemPlacement) {
      return itemChange(scope, itemId, null, (sql, item) =>
        updateFlowItem(sql, scope, {
          ...item,
          position: placement.position ?? item.position,
          next_key: placement.next_key === undefined ? item.next_key : placement.next_key,
          no_key: placement.no_key === undefined ? item.no_key : placement.no_key,
        }),
      );
    },

    /** Deletes an item; links that pointed at it become null. Answers the deleted item. */
    async deleteItem(scope: WriteScope, itemId: number) {
      return itemChange(scope, itemId, null, async (sql, item) => {
        await deleteFlowItem(sql, scope, item);
        return item;
      });
    },
  };
}

/** The flows service's calls. */
export type FlowsService = ReturnType<typeof flowsService>;
