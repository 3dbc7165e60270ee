import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { assertOwnedRows } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/** A nearby business drawn on a location's competitor-set map. */
export interface CompetitorRow {
  id: number;
  company_id: number;
  location_id: number | null;
  name: string;
  category: string;
  latitude: number;
  longitude: number;
  price_level: number | null;
  rating: number | null;
}

/** What adding a competitor takes; `location_id` null puts it in no location's set (company-wide). */
export interface CompetitorInput {
  location_id: number | null;
  name: string;
  category?: string | undefined;
  latitude: number;
  longitude: number;
  price_level?: number | null | undefined;
  rating?: number | null | undefined;
}

const COLUMNS = 'id, company_id, location_id, name, category, latitude, longitude, price_level, rating';

async function selectCompetitor(sql: Sql, companyId: CompanyId, id: number): Promise<CompetitorRow | null> {
  const { rows } = await sql.query<CompetitorRow>(
    `SELECT ${COLUMNS} FROM competitors WHERE company_id = $1 AND id = $2 FOR UPDATE`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

/** The competitor set of one location by name (null: the company-wide entries). */
export async function listCompetitors(
  sql: Sql,
  companyId: CompanyId,
  locationId: number | null,
): Promise<CompetitorRow[]> {
  const { rows } = await sql.query<CompetitorRow>(
    `SELECT ${COLUMNS} FROM competitors
     WHERE company_id = $1 AND location_id IS NOT DISTINCT FROM $2::bigint
     ORDER BY lower(name), id`,
    [companyId, locationId],
  );
  return rows;
}

/** Adds a competitor; throws UnknownReferenceError when the location is not this company's. */
export async function createCompetitor(
  sql: Sql,
  scope: WriteScope,
  input: CompetitorInput,
): Promise<CompetitorRow> {
  await assertOwnedRows(sql, scope.companyId, 'locations', 'location_id', [input.location_id]);
  const { rows } = await sql.query<CompetitorRow>(
    `INSERT INTO competitors (company_id, location_id, name, category, latitude, longitude, price_level, rating)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [
      scope.companyId,
      input.location_id,
      input.name,
      input.category ?? '',
      input.latitude,
      input.longitude,
      input.price_level ?? null,
      input.rating ?? null,
    ],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'competitor',
    entityId: created.id,
    after: created,
  });
  return created;
}

/** Removes a competitor; false when it does not exist in this company. */
export async function deleteCompetitor(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = await selectCompetitor(sql, scope.companyId, id);
  if (!before) return false;
  await sql.query('DELETE FROM competitors WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'competitor', entityId: id, before });
  return true;
}
