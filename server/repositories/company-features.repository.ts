import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import type { WriteScope } from './scope.js';

/** A feature a company has bought, and since when. */
export interface CompanyFeatureRow {
  company_id: number;
  feature: string;
  enabled_at: Date;
}

async function selectFeatures(sql: Sql, companyId: CompanyId): Promise<CompanyFeatureRow[]> {
  const { rows } = await sql.query<CompanyFeatureRow>(
    'SELECT company_id, feature, enabled_at FROM company_features WHERE company_id = $1 ORDER BY feature',
    [companyId],
  );
  return rows;
}

/** The company's enabled features by name. */
export function listCompanyFeatures(sql: Sql, companyId: CompanyId): Promise<CompanyFeatureRow[]> {
  return selectFeatures(sql, companyId);
}

/** True when the company has the feature. */
export async function hasCompanyFeature(sql: Sql, companyId: CompanyId, feature: string): Promise<boolean> {
  const { rows } = await sql.query<{ enabled: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM company_features WHERE company_id = $1 AND feature = $2) AS enabled',
    [companyId, feature],
  );
  return rows[0]?.enabled ?? false;
}

/**
 * Makes `features` the company's exact set of enabled features (names trimmed, blanks and repeats
 * dropped). Features kept keep their original `enabled_at`. Returns the new set.
 */
export async function setCompanyFeatures(
  sql: Sql,
  scope: WriteScope,
  features: readonly string[],
): Promise<CompanyFeatureRow[]> {
  const wanted = [...new Set(features.map((feature) => feature.trim()).filter((feature) => feature !== ''))];
  const before = await selectFeatures(sql, scope.companyId);
  await sql.query('DELETE FROM company_features WHERE company_id = $1 AND NOT (feature = ANY($2::text[]))', [
    scope.companyId,
    wanted,
  ]);
  await sql.query(
    `INSERT INTO company_features (company_id, feature) SELECT $1, unnest($2::text[])
     ON CONFLICT (company_id, feature) DO NOTHING`,
    [scope.companyId, wanted],
  );
  const after = await selectFeatures(sql, scope.companyId);
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'company_features',
    entityId: scope.companyId,
    before: before.map((row) => row.feature),
    after: after.map((row) => row.feature),
  });
  return after;
}
