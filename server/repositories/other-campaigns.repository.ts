import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { assertOwnedRows, distinctIds, jsonParam, type Page, type PageWindow } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/** A campaign run outside email (an in-store offer): where it runs, by location and by location group. */
export interface OtherCampaignConfigurationRow {
  id: number;
  company_id: number;
  campaign_id: number | null;
  name: string;
  locations: number[];
  location_groups: number[];
  settings: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** The writable fields of a configuration. */
export interface OtherCampaignConfigurationFields {
  campaign_id: number | null;
  name: string;
  locations: number[];
  location_groups: number[];
  settings: Record<string, unknown>;
}

/** A location a configuration is measured against (`is_control`) or explicitly not. */
export interface ControlStoreRow {
  id: number;
  company_id: number;
  configuration_id: number;
  location_id: number;
  is_control: boolean;
}

/** A control store as written. */
export interface ControlStoreInput {
  location_id: number;
  is_control?: boolean | undefined;
}

const COLUMNS =
  'id, company_id, campaign_id, name, locations, location_groups, settings, created_at, updated_at';

async function selectConfiguration(
  sql: Sql,
  companyId: CompanyId,
  id: number,
  lock = false,
): Promise<OtherCampaignConfigurationRow | null> {
  const { rows } = await sql.query<OtherCampaignConfigurationRow>(
    `SELECT ${COLUMNS} FROM other_campaign_configurations WHERE company_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

async function selectControlStores(
  sql: Sql,
  companyId: CompanyId,
  configurationId: number,
): Promise<ControlStoreRow[]> {
  const { rows } = await sql.query<ControlStoreRow>(
    `SELECT id, company_id, configuration_id, location_id, is_control FROM other_campaign_control_stores
     WHERE company_id = $1 AND configuration_id = $2 ORDER BY location_id`,
    [companyId, configurationId],
  );
  return rows;
}

async function checkReferences(
  sql: Sql,
  companyId: CompanyId,
  fields: Partial<OtherCampaignConfigurationFields>,
): Promise<void> {
  await assertOwnedRows(sql, companyId, 'campaigns', 'campaign_id', [fields.campaign_id]);
  if (fields.locations) await assertOwnedRows(sql, companyId, 'locations', 'locations', fields.locations);
  if (fields.location_groups) {
    await assertOwnedRows(sql, companyId, 'location_groups', 'location_groups', fields.location_groups);
  }
}

/** One page of a company's configurations, newest first, with the total count. */
export async function listOtherCampaignConfigurations(
  sql: Sql,
  companyId: CompanyId,
  window: PageWindow,
): Promise<Page<OtherCampaignConfigurationRow>> {
  const total = await sql.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM other_campaign_configurations WHERE company_id = $1',
    [companyId],
  );
  const page = await sql.query<OtherCampaignConfigurationRow>(
    `SELECT ${COLUMNS} FROM other_campaign_configurations WHERE company_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [companyId, window.limit, window.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** One configuration, or null when it does not exist in this company. */
export function getOtherCampaignConfiguration(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): Promise<OtherCampaignConfigurationRow | null> {
  return selectConfiguration(sql, companyId, id);
}

/**
 * Creates a configuration. Throws UnknownReferenceError when the campaign, a location or a location group is
 * not this company's; nothing is written then.
 */
export async function createOtherCampaignConfiguration(
  sql: Sql,
  scope: WriteScope,
  input: Partial<OtherCampaignConfigurationFields>,
): Promise<OtherCampaignConfigurationRow> {
  await checkReferences(sql, scope.companyId, input);
  const { rows } = await sql.query<OtherCampaignConfigurationRow>(
    `INSERT INTO other_campaign_configurations (company_id, campaign_id, name, locations, location_groups, settings)
     VALUES ($1, $2, $3, $4::bigint[], $5::bigint[], $6::jsonb) RETURNING ${COLUMNS}`,
    [
      scope.companyId,
      input.campaign_id ?? null,
      input.name ?? '',
      distinctIds(input.locations ?? []),
      distinctIds(input.location_groups ?? []),
      jsonParam(input.settings ?? {}),
    ],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'other_campaign_configuration',
    entityId: created.id,
    after: created,
  });
  return created;
}

/** Changes some fields of a configuration; null when it does not exist in this company. Throws like create. */
export async function updateOtherCampaignConfiguration(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<OtherCampaignConfigurationFields>,
): Promise<OtherCampaignConfigurationRow | null> {
  const before = await selectConfiguration(sql, scope.companyId, id, true);
  if (!before) return null;
  await checkReferences(sql, scope.companyId, changes);
  const { rows } = await sql.query<OtherCampaignConfigurationRow>(
    `UPDATE other_campaign_configurations
     SET campaign_id = CASE WHEN $3 THEN $4 ELSE campaign_id END, name = coalesce($5, name),
         locations = coalesce($6::bigint[], locations), location_groups = coalesce($7::bigint[], location_groups),
         settings = coalesce($8::jsonb, settings), updated_at = now()
     WHERE company_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [
      scope.companyId,
      id,
      // campaign_id may be cleared with null, so "given" travels apart from the value.
      changes.campaign_id !== undefined,
      changes.campaign_id ?? null,
      changes.name ?? null,
      changes.locations ? distinctIds(changes.locations) : null,
      changes.location_groups ? distinctIds(changes.location_groups) : null,
      changes.settings === undefined ? null : jsonParam(changes.settings),
    ],
  );
  const after = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'other_campaign_configuration',
    entityId: id,
    before,
    after,
  });
  return after;
}

/** The control stores of a configuration by location, or null when it does not exist in this company. */
export async function getControlStores(
  sql: Sql,
  companyId: CompanyId,
  configurationId: number,
): Promise<ControlStoreRow[] | null> {
  return (await selectConfiguration(sql, companyId, configurationId))
    ? selectControlStores(sql, companyId, configurationId)
    : null;
}

/**
 * Makes the control stores of a configuration exactly `stores` (a repeated location keeps its last entry), in
 * the caller's transaction. Null when the configuration does not exist in this company; UnknownReferenceError for a
 * location of another company, leaving the previous set untouched.
 */
export async function replaceControlStores(
  sql: Sql,
  scope: WriteScope,
  configurationId: number,
  stores: readonly ControlStoreInput[],
): Promise<ControlStoreRow[] | null> {
  if (!(await selectConfiguration(sql, scope.companyId, configurationId, true))) return null;
  const byLocation = new Map(stores.map((store) => [store.location_id, store.is_control ?? true]));
  await assertOwnedRows(sql, scope.companyId, 'locations', 'location_id', [...byLocation.keys()]);
  const before = await selectControlStores(sql, scope.companyId, configurationId);
  await sql.query(
    'DELETE FROM other_campaign_control_stores WHERE company_id = $1 AND configuration_id = $2',
    [scope.companyId, configurationId],
  );
  await sql.query(
    `INSERT INTO other_campaign_control_stores (company_id, configuration_id, location_id, is_control)
     SELECT $1, $2, u.location_id, u.is_control
     FROM unnest($3::bigint[], $4::boolean[]) AS u(location_id, is_control)`,
    [scope.companyId, configurationId, [...byLocation.keys()], [...byLocation.values()]],
  );
  const after = await selectControlStores(sql, scope.companyId, configurationId);
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'other_campaign_control_stores',
    entityId: configurationId,
    before,
    after,
  });
  return after;
}
