import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { removeGroupPresence } from './guest-presence.repository.js';
import { markGroupPresenceWaiting } from './group-presence.repository.js';
import { lockCompanyIngestion } from './pos-ingestion.repository.js';
import { findLocationsByIds, type LocationRow } from './location-rows.js';
import type { WriteScope } from './scope.js';

/** A location group with its member ids and, when a period was asked, what it earned. */
export interface LocationGroupRow {
  id: number;
  company_id: number;
  name: string;
  description: string;
  location_ids: number[];
  revenue_cents: number | null;
  checks: number | null;
  created_at: Date;
  updated_at: Date;
}

/** The writable fields of a group. */
export interface LocationGroupFields {
  name: string;
  description: string;
  location_ids: number[];
}

/** Days of the company's time zone, both ends inclusive; an end left open (null) reaches as far as the data. */
export interface Period {
  from: string | null;
  to: string | null;
}

/** Raised when a group would contain a location the company does not have. */
export class UnknownLocationsError extends Error {
  constructor(readonly ids: number[]) {
    super(`Unknown location ids: ${ids.join(', ')}`);
    this.name = 'UnknownLocationsError';
  }
}

async function selectGroups(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[] | null,
  period: Period | null,
): Promise<LocationGroupRow[]> {
  const { rows } = await sql.query<LocationGroupRow>(
    `SELECT g.id, g.company_id, g.name, g.description, g.created_at, g.updated_at,
            coalesce((SELECT array_agg(m.location_id ORDER BY m.location_id) FROM location_group_members m
                      WHERE m.company_id = g.company_id AND m.group_id = g.id), '{}') AS location_ids,
            -- From the daily rollups (docs/guest-data.md): the company's days, as the sales calls count them.
            CASE WHEN $5 THEN
              (SELECT coalesce(sum(d.revenue_cents), 0)::bigint FROM pos_location_days d
               JOIN location_group_members m ON m.company_id = d.company_id AND m.location_id = d.location_id
               WHERE m.company_id = g.company_id AND m.group_id = g.id
                 AND ($3::date IS NULL OR d.day >= $3::date) AND ($4::date IS NULL OR d.day <= $4::date))
            END AS revenue_cents,
            CASE WHEN $5 THEN
              (SELECT coalesce(sum(d.checks), 0)::int FROM pos_location_days d
               JOIN location_group_members m ON m.company_id = d.company_id AND m.location_id = d.location_id
               WHERE m.company_id = g.company_id AND m.group_id = g.id
                 AND ($3::date IS NULL OR d.day >= $3::date) AND ($4::date IS NULL OR d.day <= $4::date))
            END AS checks
     FROM location_groups g
     WHERE g.company_id = $1 AND ($2::bigint[] IS NULL OR g.id = ANY($2::bigint[]))
     ORDER BY lower(g.name), g.id`,
    [companyId, ids, period?.from ?? null, period?.to ?? null, period !== null],
  );
  return rows;
}

async function replaceMembers(
  sql: Sql,
  companyId: CompanyId,
  groupId: number,
  locationIds: number[],
): Promise<void> {
  const unique = [...new Set(locationIds)];
  // The new members, key-share locked in id order: a location's deletion at the same time either ends first (the
  // location is then missing here) or waits for this save, never a lock cycle over the member rows.
  const { rows: found } = await sql.query<{ id: number }>(
    'SELECT id::int AS id FROM locations WHERE company_id = $1 AND id = ANY($2::bigint[]) ORDER BY id FOR KEY SHARE',
    [companyId, unique],
  );
  const missing = unique.filter((id) => !found.some((location) => location.id === id));
  if (missing.length > 0) throw new UnknownLocationsError(missing);
  // The group's distinct-guest rows wait for the group worker (group-presence.repository.ts), which fills them
  // from its new members; the dashboards count its guests from the guest-day rows meanwhile. Marked first: a fill
  // in progress holds the group's row, so this save waits for it and its rows are filled again after.
  await markGroupPresenceWaiting(sql, companyId, groupId);
  await sql.query('DELETE FROM location_group_members WHERE company_id = $1 AND group_id = $2', [
    companyId,
    groupId,
  ]);
  await sql.query(
    `INSERT INTO location_group_members (company_id, group_id, location_id)
     SELECT $1, $2, unnest($3::bigint[])`,
    [companyId, groupId, unique],
  );
}

/** All of a company's groups, with earnings when a period is given. */
export function listLocationGroups(
  sql: Sql,
  companyId: CompanyId,
  period: Period | null = null,
): Promise<LocationGroupRow[]> {
  return selectGroups(sql, companyId, null, period);
}

/** One group, or null when it does not exist in this company. */
export async function getLocationGroup(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): Promise<LocationGroupRow | null> {
  return (await selectGroups(sql, companyId, [id], null))[0] ?? null;
}

/** The locations of one group; null when the group does not exist in this company. */
export async function listGroupLocations(
  sql: Sql,
  companyId: CompanyId,
  groupId: number,
): Promise<LocationRow[] | null> {
  const group = (await selectGroups(sql, companyId, [groupId], null))[0];
  return group ? findLocationsByIds(sql, companyId, group.location_ids) : null;
}

/** Every group with its locations, read in the caller's one transaction so the two agree. */
export async function listGroupsWithLocations(
  sql: Sql,
  companyId: CompanyId,
): Promise<Array<LocationGroupRow & { locations: LocationRow[] }>> {
  const groups = await selectGroups(sql, companyId, null, null);
  const locations = await findLocationsByIds(sql, companyId, [
    ...new Set(groups.flatMap((g) => g.location_ids)),
  ]);
  const byId = new Map(locations.map((location) => [location.id, location]));
  return groups.map((group) => ({
    ...group,
    locations: group.location_ids.map((id) => byId.get(id)).filter((l): l is LocationRow => l !== undefined),
  }));
}

/** Creates a group with its members; throws UnknownLocationsError for ids the company does not have. */
export async function createLocationGroup(
  sql: Sql,
  scope: WriteScope,
  fields: LocationGroupFields,
): Promise<LocationGroupRow> {
  const { rows } = await sql.query<{ id: number }>(
    'INSERT INTO location_groups (company_id, name, description) VALUES ($1, $2, $3) RETURNING id',
    [scope.companyId, fields.name, fields.description],
  );
  const id = rows[0]!.id;
  await replaceMembers(sql, scope.companyId, id, fields.location_ids);
  const created = (await selectGroups(sql, scope.companyId, [id], null))[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'location_group',
    entityId: id,
    after: created,
  });
  return created;
}

/** Changes a group; members are replaced when `location_ids` is given. Null when not in this company. */
export async function updateLocationGroup(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<LocationGroupFields>,
): Promise<LocationGroupRow | null> {
  const before = (await selectGroups(sql, scope.companyId, [id], null))[0];
  if (!before) return null;
  await sql.query(
    `UPDATE location_groups SET name = coalesce($3, name), description = coalesce($4, description), updated_at = now()
     WHERE company_id = $1 AND id = $2`,
    [scope.companyId, id, changes.name ?? null, changes.description ?? null],
  );
  if (changes.location_ids) await replaceMembers(sql, scope.companyId, id, changes.location_ids);
  const after = (await selectGroups(sql, scope.companyId, [id], null))[0]!;
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'location_group',
    entityId: id,
    before,
    after,
  });
  return after;
}

/** Deletes a group (not its locations); false when it does not exist in this company. */
export async function deleteLocationGroup(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = (await selectGroups(sql, scope.companyId, [id], null))[0];
  if (!before) return false;
  // The group's distinct-guest rows go below: no batch of checks may adjust them meanwhile.
  await lockCompanyIngestion(sql, scope.companyId);
  await sql.query('DELETE FROM location_groups WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await removeGroupPresence(sql, scope.companyId, id);
  await recordAudit(sql, scope, { action: 'delete', entity: 'location_group', entityId: id, before });
  return true;
}
