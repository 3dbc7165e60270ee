import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { likePattern } from './like-pattern.js';
import { findLocationsByIds, SELECT_LOCATION, type LocationRow } from './location-rows.js';
import type { WriteScope } from './scope.js';

/** The row reader lives in location-rows.ts (shared with location groups); callers know it from here. */
export { findLocationsByIds, type LocationRow };

/** The writable fields of a location. */
export interface LocationFields {
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  latitude: number | null;
  longitude: number | null;
  time_zone: string;
}

/** Filters of the location list. */
export interface LocationFilter {
  q?: string | undefined;
  groupIds?: number[];
  limit: number;
  offset: number;
}

const WRITABLE = ['name', 'street', 'city', 'state', 'zip', 'latitude', 'longitude', 'time_zone'] as const;

/** One page of a company's locations by name, with the total count. */
export async function listLocations(
  sql: Sql,
  companyId: CompanyId,
  filter: LocationFilter,
): Promise<{ count: number; rows: LocationRow[] }> {
  const where = `l.company_id = $1
    AND ($2::text IS NULL OR l.name ILIKE $2 OR l.street ILIKE $2 OR l.city ILIKE $2 OR l.zip ILIKE $2)
    AND (cardinality($3::bigint[]) = 0 OR EXISTS (
      SELECT 1 FROM location_group_members m
      WHERE m.company_id = l.company_id AND m.location_id = l.id AND m.group_id = ANY($3::bigint[])))`;
  const params = [companyId, filter.q ? likePattern(filter.q) : null, filter.groupIds ?? []];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM locations l WHERE ${where}`,
    params,
  );
  const page = await sql.query<LocationRow>(
    `${SELECT_LOCATION} WHERE ${where} ORDER BY lower(l.name), l.id LIMIT $4 OFFSET $5`,
    [...params, filter.limit, filter.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** One location, or null when it does not exist in this company. */
export async function getLocation(sql: Sql, companyId: CompanyId, id: number): Promise<LocationRow | null> {
  return (await findLocationsByIds(sql, companyId, [id]))[0] ?? null;
}

/** Creates a location and records it in the audit log. */
export async function createLocation(
  sql: Sql,
  scope: WriteScope,
  fields: LocationFields,
): Promise<LocationRow> {
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO locations (company_id, ${WRITABLE.join(', ')})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [scope.companyId, ...WRITABLE.map((key) => fields[key])],
  );
  const created = (await findLocationsByIds(sql, scope.companyId, [rows[0]!.id]))[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'location',
    entityId: created.id,
    after: created,
  });
  return created;
}

/** Changes some fields of a location; null when it does not exist in this company. */
export async function updateLocation(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<LocationFields>,
): Promise<LocationRow | null> {
  const before = (await findLocationsByIds(sql, scope.companyId, [id]))[0];
  if (!before) return null;
  const keys = WRITABLE.filter((key) => changes[key] !== undefined);
  if (keys.length > 0) {
    const assignments = keys.map((key, index) => `${key} = $${index + 3}`).join(', ');
    await sql.query(
      `UPDATE locations SET ${assignments}, updated_at = now() WHERE company_id = $1 AND id = $2`,
      [scope.companyId, id, ...keys.map((key) => changes[key])],
    );
  }
  const after = (await findLocationsByIds(sql, scope.companyId, [id]))[0]!;
  await recordAudit(sql, scope, { action: 'update', entity: 'location', entityId: id, before, after });
  return after;
}

/** Deletes a location (its group memberships go with it); false when it does not exist in this company. */
export async function deleteLocation(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = (await findLocationsByIds(sql, scope.companyId, [id]))[0];
  if (!before) return false;
  await sql.query('DELETE FROM locations WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'location', entityId: id, before });
  return true;
}
