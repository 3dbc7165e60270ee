import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { assertOwnedRows } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/** The figures of a segment as the recompute job stores them; money in cents. */
export interface SegmentCacheFigures {
  all_customers: number;
  all_customers_pct: number;
  marketable_customers: number;
  marketable_pct: number;
  trackable_customers: number;
  trackable_pct: number;
  all_clv_cents: number;
  all_annual_clv_cents: number;
  all_clf: number;
  all_recency: number;
  marketable_clv_cents: number;
  marketable_annual_clv_cents: number;
  marketable_clf: number;
  marketable_recency: number;
  trackable_clv_cents: number;
  trackable_annual_clv_cents: number;
  trackable_clf: number;
  trackable_recency: number;
}

/** A stored segment_cache row. */
export interface SegmentCacheRow extends SegmentCacheFigures {
  id: number;
  company_id: number;
  segment_id: number;
  computed_at: Date;
}

/**
 * The spec's `segmentcache` shape: counts, percentages and, for all, marketable and trackable customers,
 * clv and annual_clv (in dollars), clf and recency, plus the segment it belongs to.
 */
export interface SegmentCacheView {
  id: number;
  segment: number;
  all_customers: number;
  all_customers_pct: number;
  marketable_customers: number;
  marketable_pct: number;
  trackable_customers: number;
  trackable_pct: number;
  all_clv: number;
  all_annual_clv: number;
  all_clf: number;
  all_recency: number;
  marketable_clv: number;
  marketable_annual_clv: number;
  marketable_clf: number;
  marketable_recency: number;
  trackable_clv: number;
  trackable_annual_clv: number;
  trackable_clf: number;
  trackable_recency: number;
  /** When the figures were computed; null for the zeroed defaults of a segment never computed. */
  computed_at: Date | null;
}

/** Where the synthetic ids of default caches start (spec: "synthetic ids starting at 10000"). */
export const SYNTHETIC_SEGMENT_CACHE_ID_BASE = 10000;

const FIGURES = [
  'all_customers',
  'all_customers_pct',
  'marketable_customers',
  'marketable_pct',
  'trackable_customers',
  'trackable_pct',
  'all_clv_cents',
  'all_annual_clv_cents',
  'all_clf',
  'all_recency',
  'marketable_clv_cents',
  'marketable_annual_clv_cents',
  'marketable_clf',
  'marketable_recency',
  'trackable_clv_cents',
  'trackable_annual_clv_cents',
  'trackable_clf',
  'trackable_recency',
] as const satisfies ReadonlyArray<keyof SegmentCacheFigures>;

const COLUMNS = `id, company_id, segment_id, ${FIGURES.join(', ')}, computed_at`;

async function selectCaches(
  sql: Sql,
  companyId: CompanyId,
  segmentIds: readonly number[],
): Promise<SegmentCacheRow[]> {
  const { rows } = await sql.query<SegmentCacheRow>(
    `SELECT ${COLUMNS} FROM segment_cache WHERE company_id = $1 AND segment_id = ANY($2::bigint[]) ORDER BY segment_id`,
    [companyId, segmentIds],
  );
  return rows;
}

/** The cached figures of one segment, or null when never computed or the segment is not this company's. */
export async function getSegmentCache(
  sql: Sql,
  companyId: CompanyId,
  segmentId: number,
): Promise<SegmentCacheRow | null> {
  return (await selectCaches(sql, companyId, [segmentId]))[0] ?? null;
}

/** The cached figures of several segments (a list page), ordered by segment id; missing ones are absent. */
export function listSegmentCaches(
  sql: Sql,
  companyId: CompanyId,
  segmentIds: readonly number[],
): Promise<SegmentCacheRow[]> {
  return selectCaches(sql, companyId, segmentIds);
}

/**
 * Stores freshly computed figures for a segment, replacing earlier ones. Throws UnknownReferenceError when the
 * segment is not this company's.
 */
export async function upsertSegmentCache(
  sql: Sql,
  scope: WriteScope,
  segmentId: number,
  figures: SegmentCacheFigures,
): Promise<SegmentCacheRow> {
  await assertOwnedRows(sql, scope.companyId, 'segments', 'segment_id', [segmentId]);
  const before = (await selectCaches(sql, scope.companyId, [segmentId]))[0];
  const values = FIGURES.map((_, index) => `$${index + 3}`).join(', ');
  const updates = FIGURES.map((key) => `${key} = EXCLUDED.${key}`).join(', ');
  await sql.query(
    `INSERT INTO segment_cache (company_id, segment_id, ${FIGURES.join(', ')}) VALUES ($1, $2, ${values})
     ON CONFLICT (segment_id) DO UPDATE SET ${updates}, computed_at = now()
     WHERE segment_cache.company_id = $1`,
    [scope.companyId, segmentId, ...FIGURES.map((key) => figures[key])],
  );
  const after = (await selectCaches(sql, scope.companyId, [segmentId]))[0]!;
  await recordAudit(sql, scope, {
    action: before ? 'update' : 'create',
    entity: 'segment_cache',
    entityId: after.id,
    ...(before ? { before } : {}),
    after,
  });
  return after;
}

/** Cents as dollars with two decimals, the unit the segment screens show. */
function dollars(cents: number): number {
  return Math.round(cents) / 100;
}

/**
 * The spec's segmentcache for a segment: the stored figures when there are any, otherwise zeroed defaults
 * with a synthetic id of 10000 + the segment id (stable across requests, never below 10000).
 */
export function segmentCacheOrDefaults(row: SegmentCacheRow | null, segmentId: number): SegmentCacheView {
  if (!row) {
    return {
      id: SYNTHETIC_SEGMENT_CACHE_ID_BASE + segmentId,
      segment: segmentId,
      all_customers: 0,
      all_customers_pct: 0,
      marketable_customers: 0,
      marketable_pct: 0,
      trackable_customers: 0,
      trackable_pct: 0,
      all_clv: 0,
      all_annual_clv: 0,
      all_clf: 0,
      all_recency: 0,
      marketable_clv: 0,
      marketable_annual_clv: 0,
      marketable_clf: 0,
      marketable_recency: 0,
      trackable_clv: 0,
      trackable_annual_clv: 0,
      trackable_clf: 0,
      trackable_recency: 0,
      computed_at: null,
    };
  }
  return {
    id: row.id,
    segment: row.segment_id,
    all_customers: row.all_customers,
    all_customers_pct: row.all_customers_pct,
    marketable_customers: row.marketable_customers,
    marketable_pct: row.marketable_pct,
    trackable_customers: row.trackable_customers,
    trackable_pct: row.trackable_pct,
    all_clv: dollars(row.all_clv_cents),
    all_annual_clv: dollars(row.all_annual_clv_cents),
    all_clf: row.all_clf,
    all_recency: row.all_recency,
    marketable_clv: dollars(row.marketable_clv_cents),
    marketable_annual_clv: dollars(row.marketable_annual_clv_cents),
    marketable_clf: row.marketable_clf,
    marketable_recency: row.marketable_recency,
    trackable_clv: dollars(row.trackable_clv_cents),
    trackable_annual_clv: dollars(row.trackable_annual_clv_cents),
    trackable_clf: row.trackable_clf,
    trackable_recency: row.trackable_recency,
    computed_at: row.computed_at,
  };
}
