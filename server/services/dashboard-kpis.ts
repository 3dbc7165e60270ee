import { averageCheck, dollars, type SalesKpis } from '../../src/schemas/dashboard-figures.js';
import type { DayBounds } from '../../src/schemas/dashboard-query.js';
import type { Sql } from '../db/database.js';
import type { PresenceScope } from '../repositories/guest-presence.repository.js';
import { salesFigures } from '../repositories/pos-analytics.repository.js';

/**
 * A range's headline figures, the same on every sales dashboard (Summary, Overview, the home dashboard's KPI
 * cards): `salesFigures` from the daily rollups (the sales call's figures), the average check null without checks;
 * `presence` the distinct-guest rows that count the locations' guests (undefined: worked out from the locations).
 */
export async function salesKpis(
  sql: Sql,
  companyId: number,
  locations: number[] | null,
  range: DayBounds,
  presence?: PresenceScope | null,
): Promise<SalesKpis> {
  const row = await salesFigures(sql, companyId, locations, range, presence);
  const checks = Number(row.checks);
  const guests = Number(row.guests);
  const newGuests = Number(row.new_guests);
  return {
    revenue: dollars(row.revenue_cents),
    checks,
    guests,
    average_check: averageCheck(row.revenue_cents, checks),
    new_guests: newGuests,
    returning_guests: guests - newGuests,
  };
}
