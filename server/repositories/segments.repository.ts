import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { likePattern } from './like-pattern.js';
import { assertOwnedRows, distinctIds, jsonParam, type Page, type PageWindow } from './marketing-common.js';
import { UnknownReferenceError } from './references.js';
import type { WriteScope } from './scope.js';

/** One group of a segment: its rules are ANDed; the groups of a segment are ORed. */
export interface SegmentGroupRow {
  id: number;
  position: number;
  segment_rules: unknown[];
}

/** A segment with its groups in order. */
export interface SegmentRow {
  id: number;
  company_id: number;
  name: string;
  description: string;
  segment_type: string;
  location_ids: number[];
  group_ids: number[];
  segment_groups: SegmentGroupRow[];
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
}

/** A group as written: with the id of an existing group of the segment to keep it, without to add one. */
export interface SegmentGroupInput {
  id?: number | null | undefined;
  segment_rules: unknown[];
}

/** The writable fields of a segment; `segment_groups` replaces all groups, in the order given. */
export interface SegmentFields {
  name: string;
  description: string;
  segment_type: string;
  location_ids: number[];
  group_ids: number[];
  segment_groups: SegmentGroupInput[];
}

/** What creating a segment needs: a name, the rest defaults to empty. */
export type SegmentInput = Pick<SegmentFields, 'name'> & Partial<SegmentFields>;

/** Filters of the segment list. */
export interface SegmentFilter extends PageWindow {
  q?: string | undefined;
}

/** Raised when a group's rules are not a JSON array. */
export class SegmentRulesError extends Error {
  constructor(readonly groupIndex: number) {
    super(`segment_groups.${groupIndex}.segment_rules must be an array`);
    this.name = 'SegmentRulesError';
  }
}

const SELECT_SEGMENT = `
  SELECT s.id, s.company_id, s.name, s.description, s.segment_type, s.location_ids, s.group_ids, s.created_by,
         s.created_at, s.updated_at,
         coalesce((SELECT jsonb_agg(jsonb_build_object('id', g.id, 'position', g.position,
                                                        'segment_rules', g.segment_rules)
                                    ORDER BY g.position, g.id)
                   FROM segment_groups g WHERE g.company_id = $1 AND g.segment_id = s.id), '[]'::jsonb) AS segment_groups
  FROM segments s`;

async function selectSegments(sql: Sql, companyId: CompanyId, ids: readonly number[]): Promise<SegmentRow[]> {
  const { rows } = await sql.query<SegmentRow>(
    `${SELECT_SEGMENT} WHERE s.company_id = $1 AND s.id = ANY($2::bigint[]) ORDER BY lower(s.name), s.id`,
    [companyId, ids],
  );
  return rows;
}

async function lockSegment(sql: Sql, companyId: CompanyId, id: number): Promise<SegmentRow | null> {
  // Lock first so concurrent edits of the same segment queue instead of interleaving their groups.
  const locked = await sql.query('SELECT id FROM segments WHERE company_id = $1 AND id = $2 FOR UPDATE', [
    companyId,
    id,
  ]);
  if (locked.rows.length === 0) return null;
  return (await selectSegments(sql, companyId, [id]))[0] ?? null;
}

async function checkReferences(
  sql: Sql,
  companyId: CompanyId,
  fields: Partial<SegmentFields>,
): Promise<void> {
  if (fields.location_ids)
    await assertOwnedRows(sql, companyId, 'locations', 'location_ids', fields.location_ids);
  if (fields.group_ids)
    await assertOwnedRows(sql, companyId, 'location_groups', 'group_ids', fields.group_ids);
  fields.segment_groups?.forEach((group, index) => {
    if (!Array.isArray(group.segment_rules)) throw new SegmentRulesError(index);
  });
}

/**
 * Makes the segment's groups exactly `groups`, in order: groups named by id keep their id, others are added,
 * the rest are deleted. An id that is not a group of this segment is an UnknownReferenceError.
 */
async function replaceGroups(
  sql: Sql,
  companyId: CompanyId,
  segmentId: number,
  groups: readonly SegmentGroupInput[],
): Promise<void> {
  const existing = await sql.query<{ id: number }>(
    'SELECT id FROM segment_groups WHERE company_id = $1 AND segment_id = $2',
    [companyId, segmentId],
  );
  const mine = new Set(existing.rows.map((row) => row.id));
  const foreign = distinctIds(groups.map((group) => group.id)).filter((id) => !mine.has(id));
  if (foreign.length > 0) {
    // Named by the first such group's path, as the builder shows a problem on the group it belongs to.
    const at = groups.findIndex((group) => group.id === foreign[0]);
    throw new UnknownReferenceError(`segment_groups[${at}].id`, foreign);
  }

  const kept: Array<{ id: number; position: number; segment_rules: unknown[] }> = [];
  const added: Array<{ position: number; segment_rules: unknown[] }> = [];
  const seen = new Set<number>();
  groups.forEach((group, position) => {
    // A repeated id keeps the first occurrence; later ones become new groups rather than overwriting it.
    if (group.id !== null && group.id !== undefined && !seen.has(group.id)) {
      seen.add(group.id);
      kept.push({ id: group.id, position, segment_rules: group.segment_rules });
    } else {
      added.push({ position, segment_rules: group.segment_rules });
    }
  });

  await sql.query(
    'DELETE FROM segment_groups WHERE company_id = $1 AND segment_id = $2 AND NOT (id = ANY($3::bigint[]))',
    [companyId, segmentId, [...seen]],
  );
  if (kept.length > 0) {
    await sql.query(
      `UPDATE segment_groups g SET position = u.position, segment_rules = u.segment_rules
       FROM jsonb_to_recordset($3::jsonb) AS u(id bigint, position integer, segment_rules jsonb)
       WHERE g.company_id = $1 AND g.segment_id = $2 AND g.id = u.id`,
      [companyId, segmentId, jsonParam(kept)],
    );
  }
  if (added.length > 0) {
    await sql.query(
      `INSERT INTO segment_groups (company_id, segment_id, position, segment_rules)
       SELECT $1, $2, u.position, u.segment_rules
       FROM jsonb_to_recordset($3::jsonb) AS u(position integer, segment_rules jsonb)
       ORDER BY u.position`,
      [companyId, segmentId, jsonParam(added)],
    );
  }
}

async function insertSegment(sql: Sql, scope: WriteScope, input: SegmentInput): Promise<SegmentRow> {
  await checkReferences(sql, scope.companyId, input);
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO segments (company_id, name, description, segment_type, location_ids, group_ids, created_by)
     VALUES ($1, $2, $3, $4, $5::bigint[], $6::bigint[], $7) RETURNING id`,
    [
      scope.companyId,
      input.name,
      input.description ?? '',
      input.segment_type ?? 'custom',
      distinctIds(input.location_ids ?? []),
      distinctIds(input.group_ids ?? []),
      scope.userId,
    ],
  );
  const id = rows[0]!.id;
  await replaceGroups(sql, scope.companyId, id, input.segment_groups ?? []);
  const created = (await selectSegments(sql, scope.companyId, [id]))[0]!;
  await recordAudit(sql, scope, { action: 'create', entity: 'segment', entityId: id, after: created });
  return created;
}

/** One page of a company's segments by name, optionally searched by name, with the total count. */
export async function listSegments(
  sql: Sql,
  companyId: CompanyId,
  filter: SegmentFilter,
): Promise<Page<SegmentRow>> {
  const where = 's.company_id = $1 AND ($2::text IS NULL OR s.name ILIKE $2)';
  const params = [companyId, filter.q ? likePattern(filter.q) : null];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM segments s WHERE ${where}`,
    params,
  );
  const page = await sql.query<SegmentRow>(
    `${SELECT_SEGMENT} WHERE ${where} ORDER BY lower(s.name), s.id LIMIT $3 OFFSET $4`,
    [...params, filter.limit, filter.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** How many saved segments a picker lists (the consumer insights dashboard's). */
export const SEGMENT_PICKER_LIMIT = 500;

/** The company's saved segments for a picker: id and name, by name, at most `SEGMENT_PICKER_LIMIT`. */
export async function segmentChoices(
  sql: Sql,
  companyId: CompanyId,
): Promise<{ id: number; name: string }[]> {
  const { rows } = await sql.query<{ id: number; name: string }>(
    'SELECT id, name FROM segments WHERE company_id = $1 ORDER BY lower(name), id LIMIT $2',
    [companyId, SEGMENT_PICKER_LIMIT],
  );
  return rows;
}

/** One segment with its groups, or null when it does not exist in this company. */
export async function getSegment(sql: Sql, companyId: CompanyId, id: number): Promise<SegmentRow | null> {
  return (await selectSegments(sql, companyId, [id]))[0] ?? null;
}

/**
 * Creates a segment with its groups in the caller's transaction. Throws UnknownReferenceError for locations or
 * location groups the company does not have, SegmentRulesError for rules that are not an array.
 */
export function createSegment(sql: Sql, scope: WriteScope, input: SegmentInput): Promise<SegmentRow> {
  return insertSegment(sql, scope, input);
}

/**
 * Changes some fields of a segment; `segment_groups`, when given, replaces its groups in the same
 * transaction. Null when the segment does not exist in this company.
 */
export async function updateSegment(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<SegmentFields>,
): Promise<SegmentRow | null> {
  const before = await lockSegment(sql, scope.companyId, id);
  if (!before) return null;
  await checkReferences(sql, scope.companyId, changes);
  await sql.query(
    `UPDATE segments SET name = coalesce($3, name), description = coalesce($4, description),
            segment_type = coalesce($5, segment_type), location_ids = coalesce($6::bigint[], location_ids),
            group_ids = coalesce($7::bigint[], group_ids), updated_at = now()
     WHERE company_id = $1 AND id = $2`,
    [
      scope.companyId,
      id,
      changes.name ?? null,
      changes.description ?? null,
      changes.segment_type ?? null,
      changes.location_ids ? distinctIds(changes.location_ids) : null,
      changes.group_ids ? distinctIds(changes.group_ids) : null,
    ],
  );
  if (changes.segment_groups) await replaceGroups(sql, scope.companyId, id, changes.segment_groups);
  const after = (await selectSegments(sql, scope.companyId, [id]))[0]!;
  await recordAudit(sql, scope, { action: 'update', entity: 'segment', entityId: id, before, after });
  return after;
}

/** Replaces only the groups of a segment, in the caller's transaction; null when it does not exist in this company. */
export function replaceSegmentGroups(
  sql: Sql,
  scope: WriteScope,
  id: number,
  groups: SegmentGroupInput[],
): Promise<SegmentRow | null> {
  return updateSegment(sql, scope, id, { segment_groups: groups });
}

/** Copies a segment and its groups (not its cached figures) under a new name; null when not in this company. */
export async function cloneSegment(
  sql: Sql,
  scope: WriteScope,
  id: number,
  name?: string,
): Promise<SegmentRow | null> {
  const source = (await selectSegments(sql, scope.companyId, [id]))[0];
  if (!source) return null;
  return insertSegment(sql, scope, {
    name: name ?? `${source.name} (copy)`,
    description: source.description,
    segment_type: source.segment_type,
    location_ids: source.location_ids,
    group_ids: source.group_ids,
    // New groups for the copy: keeping the ids would move them away from the original.
    segment_groups: source.segment_groups.map((group) => ({ segment_rules: group.segment_rules })),
  });
}

/** Deletes a segment with its groups and cache; false when it does not exist in this company. */
export async function deleteSegment(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = await lockSegment(sql, scope.companyId, id);
  if (!before) return false;
  await sql.query('DELETE FROM segments WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'segment', entityId: id, before });
  return true;
}
