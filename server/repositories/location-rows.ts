import type { CompanyId, Sql } from '../db/database.js';

/** A location row with the ids of the groups it belongs to. */
export interface LocationRow {
  id: number;
  company_id: number;
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  latitude: number | null;
  longitude: number | null;
  time_zone: string;
  group_ids: number[];
  created_at: Date;
  updated_at: Date;
}

/** The SELECT of location rows with their group ids, shared by the location and location-group repositories. */
export const SELECT_LOCATION = `
  SELECT l.id, l.company_id, l.name, l.street, l.city, l.state, l.zip, l.latitude, l.longitude, l.time_zone,
         l.created_at, l.updated_at,
         coalesce((SELECT array_agg(m.group_id ORDER BY m.group_id) FROM location_group_members m
                   WHERE m.company_id = l.company_id AND m.location_id = l.id), '{}') AS group_ids
  FROM locations l`;

/** Fetches locations by id within a transaction; ids of other companies are simply absent. */
export async function findLocationsByIds(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[],
): Promise<LocationRow[]> {
  const { rows } = await sql.query<LocationRow>(
    `${SELECT_LOCATION} WHERE l.company_id = $1 AND l.id = ANY($2::bigint[]) ORDER BY lower(l.name), l.id`,
    [companyId, ids],
  );
  return rows;
}
