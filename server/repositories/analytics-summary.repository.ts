import type { CompanyId, Sql } from '../db/database.js';

/**
 * The Summary and Overview dashboards' figures over time, from `pos_location_days` (docs/dashboards.md); the
 * headline and per-location figures come from pos-analytics.repository.ts (`salesFigures`, `locationEarnings`).
 * `null` locations mean all; days are local `YYYY-MM-DD`, both ends inclusive.
 */

/** Revenue and checks of one period of the range, per location. */
export interface LocationPeriodRow {
  location_id: number;
  period: string;
  revenue_cents: number;
  checks: number;
}

/**
 * Revenue and checks per location and per day, week (from Monday) or month of the range: only the periods a
 * location sold in (the service fills the others with 0).
 */
export async function locationPeriodSales(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: { from: string; to: string },
  interval: 'day' | 'week' | 'month',
): Promise<LocationPeriodRow[]> {
  const { rows } = await sql.query<LocationPeriodRow>(
    `SELECT location_id, to_char(date_trunc($5, day::timestamp), 'YYYY-MM-DD') AS period,
            sum(revenue_cents)::bigint AS revenue_cents, sum(checks)::bigint AS checks
     FROM pos_location_days
     WHERE company_id = $1 AND ($2::bigint[] IS NULL OR location_id = ANY($2::bigint[]))
       AND day >= $3::date AND day <= $4::date
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [companyId, locations, range.from, range.to, interval],
  );
  return rows;
}

/** The same figures counted from the checks themselves (the bench's comparison; not used by the app). */
export async function locationPeriodSalesFromChecks(
  sql: Sql,
  companyId: CompanyId,
  locations: number[] | null,
  range: { from: string; to: string },
  interval: 'day' | 'week' | 'month',
): Promise<LocationPeriodRow[]> {
  const { rows } = await sql.query<LocationPeriodRow>(
    `WITH local AS (SELECT c.location_id, (c.closed_at AT TIME ZONE co.time_zone)::date AS day, c.total_cents
                    FROM pos_checks c JOIN companies co ON co.id = c.company_id
                    WHERE c.company_id = $1 AND ($2::bigint[] IS NULL OR c.location_id = ANY($2::bigint[]))
                      AND c.closed_at >= ($3::date - 1)::timestamp AT TIME ZONE 'UTC'
                      AND c.closed_at < ($4::date + 2)::timestamp AT TIME ZONE 'UTC')
     SELECT location_id, to_char(date_trunc($5, day::timestamp), 'YYYY-MM-DD') AS period,
            sum(total_cents)::bigint AS revenue_cents, count(*)::bigint AS checks
     FROM local WHERE day >= $3::date AND day <= $4::date
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [companyId, locations, range.from, range.to, interval],
  );
  return rows;
}
