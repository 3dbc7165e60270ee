import { sql as rawSql, type RawBuilder } from 'kysely';
import type { CompanyId } from '../../db/database.js';

/**
 * The segment dashboard's distributions (docs/segments.md) over a member set, in one statement: members by
 * visit bucket, by spend bucket, and per location of the company (members with a check there).
 */

/** One row of the answer: a bucket of `visits` or `spend` (its index), or a `location` (its id and name). */
export interface DistributionRow {
  kind: 'visits' | 'spend' | 'location';
  key: number;
  name: string | null;
  members: number;
}

/**
 * The statement over `members` (a SELECT of guest rows `g` answering `id`, `visit_count`, `total_spend_cents`).
 * A bucket's index is the number of lower bounds at or below the figure, less one (`width_bucket` over the
 * bounds after the first), so buckets without members are absent and every location is listed.
 */
export function distributionsStatement(
  companyId: CompanyId,
  members: RawBuilder<unknown>,
  visitStarts: readonly number[],
  spendStartsCents: readonly number[],
): RawBuilder<DistributionRow> {
  // The first bound is the floor of the figure (0), which width_bucket counts as bucket 0 on its own.
  const visitBounds = visitStarts.slice(1);
  const spendBounds = spendStartsCents.slice(1);
  // Both bucket indexes in one pass over the members (at most 64 pairs), then each distribution from the pairs.
  return rawSql<DistributionRow>`WITH m AS MATERIALIZED (${members}),
    b AS (SELECT width_bucket(m.visit_count, ${visitBounds}::int[]) AS visits,
                 width_bucket(m.total_spend_cents, ${spendBounds}::bigint[]) AS spend, count(*)::int AS members
          FROM m GROUP BY 1, 2)
    SELECT 'visits' AS kind, b.visits::bigint AS key, NULL::text AS name, sum(b.members)::int AS members
    FROM b GROUP BY 2
    UNION ALL
    SELECT 'spend', b.spend::bigint, NULL, sum(b.members)::int FROM b GROUP BY 2
    UNION ALL
    SELECT 'location', l.id, l.name, coalesce(v.members, 0)
    FROM locations l
    LEFT JOIN (SELECT gl.location_id, count(*)::int AS members
               FROM m JOIN guest_locations gl ON gl.company_id = ${companyId} AND gl.guest_id = m.id
               WHERE gl.visits > 0 GROUP BY gl.location_id) v ON v.location_id = l.id
    WHERE l.company_id = ${companyId}`;
}
