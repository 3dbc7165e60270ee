import type { Database, Sql } from '../db/database.js';
import { ApiError } from '../http/errors.js';
import { upsertSegmentCache, type SegmentCacheFigures } from '../repositories/segment-cache.repository.js';
import {
  segmentFigures,
  SegmentRulesRefusedError,
  type SegmentFigureRow,
} from '../repositories/segment-rules.repository.js';
import { UnknownReferenceError } from '../repositories/references.js';
import { getSegment, listSegments, type SegmentRow } from '../repositories/segments.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { percent, ruleSetOf, segmentLocations } from './segment-input.js';
import { refreshSegmentMembers } from './segment-members.js';

/**
 * A segment's cached figures (docs/segments.md): worked out when a segment is saved, in the save's transaction,
 * and again for every segment of a company after its CLV refresh (server/jobs/clv-runner.ts).
 */

/**
 * The segment-cache figures of counts and averages (docs/segments.md): the segment's share of the company's
 * guests, and the marketable and trackable shares of the segment.
 */
export function cacheFiguresOf(row: SegmentFigureRow): SegmentCacheFigures {
  return {
    all_customers: row.all,
    all_customers_pct: percent(row.all, row.company_guests),
    marketable_customers: row.marketable,
    marketable_pct: percent(row.marketable, row.all),
    trackable_customers: row.trackable,
    trackable_pct: percent(row.trackable, row.all),
    all_clv_cents: Math.round(row.all_clv_cents),
    all_annual_clv_cents: Math.round(row.all_annual_clv_cents),
    all_clf: row.all_clf,
    all_recency: row.all_recency,
    marketable_clv_cents: Math.round(row.marketable_clv_cents),
    marketable_annual_clv_cents: Math.round(row.marketable_annual_clv_cents),
    marketable_clf: row.marketable_clf,
    marketable_recency: row.marketable_recency,
    trackable_clv_cents: Math.round(row.trackable_clv_cents),
    trackable_annual_clv_cents: Math.round(row.trackable_annual_clv_cents),
    trackable_clf: row.trackable_clf,
    trackable_recency: row.trackable_recency,
  };
}

/**
 * Works a saved segment's figures out and caches them, in the caller's transaction: over its own locations and
 * groups, today. A rule naming another company's id is refused here, so nothing of it is saved.
 */
export async function refreshCache(sql: Sql, scope: WriteScope, row: SegmentRow): Promise<void> {
  const ruleSet = ruleSetOf(row.segment_groups.map(({ segment_rules }) => ({ segment_rules })));
  const locationIds = await segmentLocations(sql, scope.companyId, row);
  // A scope whose groups and locations share none: no guest can be in it.
  if (locationIds !== null && locationIds.length === 0) {
    await upsertSegmentCache(sql, scope, row.id, cacheFiguresOf(emptyFigures()));
  } else {
    const figures = await segmentFigures(sql, scope.companyId, ruleSet, { locationIds });
    await upsertSegmentCache(sql, scope, row.id, cacheFiguresOf(figures));
  }
  // Who entered it since the last refresh starts the flows watching it (docs/flows.md).
  await refreshSegmentMembers(sql, scope.companyId, row);
}

/** Figures of a segment nobody can be in. */
function emptyFigures(): SegmentFigureRow {
  return {
    all: 0,
    marketable: 0,
    trackable: 0,
    company_guests: 0,
    all_clv_cents: 0,
    all_annual_clv_cents: 0,
    all_clf: 0,
    all_recency: 0,
    marketable_clv_cents: 0,
    marketable_annual_clv_cents: 0,
    marketable_clf: 0,
    marketable_recency: 0,
    trackable_clv_cents: 0,
    trackable_annual_clv_cents: 0,
    trackable_clf: 0,
    trackable_recency: 0,
  };
}

/** How many saved segments a company's refresh (or the side-by-side dashboard) reads at once. */
export const SEGMENT_PAGE = 100;

/**
 * Works every saved segment's figures out again, each in its own transaction, as the company's refresh after a
 * CLV refit (nightly, after an import, after many new checks: server/jobs/clv-runner.ts). A segment that can no
 * longer be counted (a rule names a deleted list) keeps its last figures. Answers the segments refreshed.
 */
export async function refreshSegmentCaches(
  db: Database,
  companyId: number,
  signal?: AbortSignal,
): Promise<number> {
  const scope: WriteScope = { companyId, userId: null, actorUserId: null };
  let refreshed = 0;
  for (let offset = 0; ; offset += SEGMENT_PAGE) {
    const page = await db.tenant(companyId, (sql) =>
      listSegments(sql, companyId, { limit: SEGMENT_PAGE, offset }),
    );
    for (const listed of page.rows) {
      signal?.throwIfAborted();
      const done = await db
        .tenant(companyId, async (sql) => {
          // Read again in this transaction: a save since the page was read has its own figures already, and
          // a segment deleted since is skipped.
          const row = await getSegment(sql, companyId, listed.id);
          if (!row || row.updated_at.getTime() !== listed.updated_at.getTime()) return false;
          await refreshCache(sql, scope, row);
          return true;
        })
        .catch((error: unknown) => {
          if (cannotBeCounted(error)) return false;
          throw error;
        });
      if (done) refreshed += 1;
    }
    if (page.rows.length < SEGMENT_PAGE) return refreshed;
  }
}

/**
 * A refusal of the segment itself: a rule the catalogue no longer takes, an id since deleted (a list, a location
 * group), or the segment deleted while its figures were written.
 */
function cannotBeCounted(error: unknown): boolean {
  return (
    error instanceof SegmentRulesRefusedError ||
    error instanceof UnknownReferenceError ||
    (error instanceof ApiError && error.status < 500)
  );
}
