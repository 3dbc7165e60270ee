import { sql as rawSql, type RawBuilder } from 'kysely';
import type { CompanyId } from '../../db/database.js';
import { RFM_GRID } from '../../../src/schemas/rfm.js';

/**
 * RFM scores of a company's guests with at least one check (docs/segments.md): each of recency (last visit),
 * frequency (visits) and monetary (spend) scored 1–5 as `floor(5 × (rank − 1) ÷ n) + 1`, where rank is
 * 1 + the number of those guests with a strictly lower figure and n their number, so equal figures share a
 * score and the most recent, frequent or spending fifth scores 5. The cell is named from R and F by the usual
 * grid; M is kept for the RFM dashboard's revenue figures. Stored by `refreshRfmScores` (rfm.repository.ts).
 */
export function rfmScores(
  companyId: CompanyId,
): RawBuilder<{ guest_id: number; r: number; f: number; m: number }> {
  return rawSql`
    SELECT s.id AS guest_id,
           (5 * (rank() OVER (ORDER BY s.last_visit_at) - 1) / count(*) OVER ())::int + 1 AS r,
           (5 * (rank() OVER (ORDER BY s.visit_count) - 1) / count(*) OVER ())::int + 1 AS f,
           (5 * (rank() OVER (ORDER BY s.total_spend_cents) - 1) / count(*) OVER ())::int + 1 AS m
    FROM guests s
    WHERE s.company_id = ${companyId} AND s.visit_count > 0`;
}

/**
 * The cell name of scores `r` and `f` (columns of `rfmScores`), as SQL: the shared grid (`RFM_GRID`, the one the
 * dashboard draws) flattened row by row and read at `(r − 1) × 5 + f`.
 */
export const RFM_CELL_SQL = rawSql<string>`(${RFM_GRID.flat()}::text[])[(r - 1) * 5 + f]`;

/**
 * The guests of the company whose stored RFM cell (`guest_rfm`, as last worked out with the CLV refresh) is one of
 * `cells`, as a subquery of guest ids: the same guests the RFM dashboard counts.
 */
export function guestsInRfmCells(companyId: CompanyId, cells: readonly string[]): RawBuilder<number> {
  return rawSql`SELECT scored.guest_id FROM guest_rfm scored
                WHERE scored.company_id = ${companyId} AND ${RFM_CELL_SQL} = ANY(${[...cells]}::text[])`;
}
